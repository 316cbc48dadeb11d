import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { createExpressShapedServer } from './expressShapedServer.ts';

test('requests and responses reach express already on its prototypes, and express works as usual', async () => {
  const app = express();
  app.set('query parser', 'simple');
  app.get('/echo', (req, res) => {
    res.status(201).json({ q: req.query.q, path: req.path });
  });
  const server = createExpressShapedServer(app);
  const seen: { req: boolean; res: boolean }[] = [];
  // Runs before express's handler: what Node constructed, before express had a chance to re-parent it.
  server.prependListener('request', (req, res) => {
    seen.push({ req: Object.getPrototypeOf(req) === app.request, res: Object.getPrototypeOf(res) === app.response });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const ok = await fetch(`${base}/echo?q=a%20b`);
    assert.equal(ok.status, 201);
    assert.deepEqual(await ok.json(), { q: 'a b', path: '/echo' });
    const missing = await fetch(`${base}/nowhere`, { method: 'DELETE' });
    assert.equal(missing.status, 404);
    await missing.text();
    assert.deepEqual(seen, [
      { req: true, res: true },
      { req: true, res: true },
    ]);
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});
