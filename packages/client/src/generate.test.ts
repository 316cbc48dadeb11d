import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { SCHEMA_PATH, schemaText } from './generate.ts';

test('src/schema.ts holds the types of docs/openapi.json (run `pnpm openapi` after changing the API)', async () => {
  assert.ok(readFileSync(SCHEMA_PATH, 'utf8') === (await schemaText()), 'packages/client/src/schema.ts is stale: run `pnpm openapi`');
});
