import { writeFileSync } from 'node:fs';
import { SCHEMA_PATH, schemaText } from '../src/generate.ts';

// `pnpm openapi` (second step): packages/client/src/schema.ts from docs/openapi.json.
writeFileSync(SCHEMA_PATH, await schemaText());
console.log(`wrote ${SCHEMA_PATH}`);
