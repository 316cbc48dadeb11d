import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newRequestId } from './requestId.ts';

test('request ids are 96 random bits in base64url, distinct across many draws of the pool', () => {
  const ids = Array.from({ length: 5_000 }, newRequestId);
  for (const id of ids) assert.match(id, /^req_[A-Za-z0-9_-]{16}$/);
  assert.equal(new Set(ids).size, ids.length);
});
