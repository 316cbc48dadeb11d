import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rateLimitHeaders } from './rateLimitHeaders.ts';

test('X-RateLimit-* and the IETF RateLimit-Policy/RateLimit pair describe the same state', () => {
  assert.deepEqual(
    rateLimitHeaders({ limit: 100, windowSeconds: 10 }, { allowed: true, remaining: 42, resetSeconds: 6, retryAfterSeconds: 0 }),
    [
      ['X-RateLimit-Limit', '100'],
      ['X-RateLimit-Remaining', '42'],
      ['X-RateLimit-Reset', '6'],
      ['RateLimit-Policy', '"default";q=100;w=10'],
      ['RateLimit', '"default";r=42;t=6'],
    ],
  );
});
