import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { DOCUMENT_PATH, documentText } from './documentFile.ts';

test('docs/openapi.json is the document the code generates (run `pnpm openapi` after changing the API)', () => {
  const committed = readFileSync(DOCUMENT_PATH, 'utf8');
  assert.ok(committed === documentText(), 'docs/openapi.json is stale: run `pnpm openapi` and commit the result');
});
