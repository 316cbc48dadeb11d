import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import pino from 'pino';
import { OAuthAuthority } from '../../core/oauth/oauthAuthority.ts';
import { OAuthClients } from '../../core/oauth/oauthClients.ts';
import { oauthUrlsOf } from '../../core/oauth/oauthUrls.ts';
import { tempStore } from '../../testing/tempStore.ts';
import { errorHandler } from '../rest/errorHandler.ts';
import { requestId } from '../rest/requestId.ts';
import { mountOAuth } from './oauthRoutes.ts';

/**
 * A public address over plain http (GATEWAY_URL=http://gateway.internal:3000, which the operator
 * CLI's links accept) is no OAuth issuer: the metadata says so in the error envelope, 503, instead
 * of the SDK's exception becoming a 500.
 */
let server: Server;
let base = '';
let dispose: () => Promise<void>;

before(async () => {
  const temp = await tempStore();
  dispose = temp.dispose;
  const log = pino({ level: 'silent' });
  const urls = () => oauthUrlsOf(new URL('http://gateway.internal:3000'));
  const app = express();
  app.use(requestId);
  mountOAuth(app, new OAuthAuthority(temp.store, new OAuthClients(temp.store, log), urls), urls);
  app.use(errorHandler(log));
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

after(async () => {
  server.close();
  await dispose();
});

test('an http issuer other than loopback serves no OAuth metadata, and says why', async () => {
  for (const path of ['/.well-known/oauth-authorization-server', '/.well-known/oauth-protected-resource/mcp']) {
    const res = await fetch(`${base}${path}`);
    assert.equal(res.status, 503, path);
    const body = (await res.json()) as { error: { code: string; message: string } };
    assert.equal(body.error.code, 'SERVICE_UNAVAILABLE');
    assert.match(body.error.message, /over https; GATEWAY_URL is http:\/\/gateway\.internal:3000/);
  }
});
