import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Request } from 'express';
import { fromThisOrigin } from './security.ts';

const request = (headers: Record<string, string>) => ({ headers: { host: 'gw.example.com', ...headers } }) as unknown as Request;

test('a form post must come from the host it was sent to, whatever scheme a TLS proxy hides', () => {
  assert.equal(fromThisOrigin(request({ origin: 'https://gw.example.com', 'sec-fetch-site': 'same-origin' })), true);
  assert.equal(fromThisOrigin(request({ origin: 'http://gw.example.com' })), true);
  assert.equal(fromThisOrigin(request({})), true, 'no Origin and no Sec-Fetch-Site: the token decides');
  assert.equal(fromThisOrigin(request({ 'sec-fetch-site': 'none' })), true, 'typed or bookmarked');
  assert.equal(fromThisOrigin(request({ origin: 'https://evil.example' })), false);
  assert.equal(fromThisOrigin(request({ origin: 'https://gw.example.com.evil.example' })), false);
  assert.equal(fromThisOrigin(request({ origin: 'null' })), false);
  assert.equal(fromThisOrigin(request({ origin: 'https://gw.example.com', 'sec-fetch-site': 'cross-site' })), false);
  assert.equal(fromThisOrigin(request({ 'sec-fetch-site': 'same-site' })), false, 'a sibling subdomain is another site');
});
