import { test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import express, { type Request } from 'express';
import { dashboardHeaders, fromThisOrigin } from './security.ts';

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

test('every dashboard answer is uncached, unframeable, sends no referrer elsewhere and loads only its own files', async () => {
  const app = express();
  app.use(dashboardHeaders);
  app.get('/', (_req, res) => res.send('page'));
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  try {
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    assert.equal(res.headers.get('x-frame-options'), 'DENY');
    assert.equal(res.headers.get('referrer-policy'), 'same-origin');
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(res.headers.get('strict-transport-security'), null, 'left to the TLS terminator');
    const policy = (res.headers.get('content-security-policy') ?? '').split(';').map((d) => d.trim());
    for (const directive of ["default-src 'none'", "script-src 'self'", "style-src 'self'", "form-action 'self'", "frame-ancestors 'none'"])
      assert.ok(policy.includes(directive), directive);
  } finally {
    server.close();
  }
});
