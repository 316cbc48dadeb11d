import { writeFileSync } from 'node:fs';
import { DOCUMENT_PATH, documentText } from './documentFile.ts';

// `pnpm openapi`: writes docs/openapi.json from the protocol's schemas (documentFile.test.ts fails until it is rerun).
writeFileSync(DOCUMENT_PATH, documentText());
console.log(`wrote ${DOCUMENT_PATH}`);
