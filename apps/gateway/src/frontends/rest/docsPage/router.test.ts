import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { docsRouter } from './router.ts';

let server: Server;
let url = '';

before(async () => {
  const app = express();
  app.use('/docs', docsRouter());
  app.use((_req, res) => {
    res.status(404).end();
  });
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** What /docs may load, as a browser reads the header: directive → sources. */
const DOCS_POLICY = {
  'default-src': "'none'",
  'script-src': "'self'",
  'style-src': "'self' 'unsafe-inline'",
  'img-src': "'self' data:",
  'connect-src': "'self'",
  'font-src': "'self'",
  'form-action': "'self'",
  'frame-ancestors': "'none'",
  'base-uri': "'none'",
};

function policyOf(res: Response): Record<string, string> {
  const header = res.headers.get('content-security-policy') ?? '';
  return Object.fromEntries(
    header
      .split(';')
      .map((d) => d.trim())
      .filter(Boolean)
      .map((d) => [d.slice(0, d.indexOf(' ')), d.slice(d.indexOf(' ') + 1)]),
  );
}

test('/docs is a page of our own files under its own content security policy, with no inline script', async () => {
  const res = await fetch(`${url}/docs`);
  assert.equal(res.status, 200);
  assert.deepEqual(policyOf(res), DOCS_POLICY);
  const html = await res.text();
  const scripts = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
  assert.equal(scripts.length, 2);
  for (const [, attributes, body] of scripts) {
    assert.match(attributes!, /src="\/docs\/assets\/[\w.-]+"/);
    assert.equal(body, '', 'no inline script');
  }
  assert.doesNotMatch(html, /https?:\/\//, 'nothing from another origin');
});

test('the viewer and its start script are served; nothing else of node_modules is', async () => {
  for (const [file, type] of [
    ['swagger-ui-bundle.js', /javascript/],
    ['swagger-ui.css', /css/],
    ['docs.js', /javascript/],
  ] as const) {
    const res = await fetch(`${url}/docs/assets/${file}`);
    assert.equal(res.status, 200, file);
    assert.match(res.headers.get('content-type') ?? '', type);
    assert.deepEqual(policyOf(res), DOCS_POLICY);
    await res.arrayBuffer();
  }
  for (const file of ['index.html', 'package.json', '..%2Fpackage.json', '__proto__', 'swagger-initializer.js']) {
    const res = await fetch(`${url}/docs/assets/${file}`);
    assert.equal(res.status, 404, file);
    await res.arrayBuffer();
  }
});
