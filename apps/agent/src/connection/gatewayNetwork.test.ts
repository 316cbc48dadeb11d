import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import https from 'node:https';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { WebSocketServer } from 'ws';
import { encodeFrame } from '@gp-gateway/protocol';
import { throwawayCertificate } from '@gp-gateway/testing';
import type { OperationHandler } from '../service/readService.ts';
import { fetchSmall } from '../update/gatewayDownloads.ts';
import { dialGateway } from './dialGateway.ts';
import { proxyFor, trustedCertificates } from './gatewayNetwork.ts';

/**
 * The agent on a customer's network, on loopback: a gateway over TLS whose certificate only the
 * "system" bundle (SSL_CERT_FILE) trusts, reached through an HTTP CONNECT proxy written here, or
 * directly when NO_PROXY names it; the WebSocket, and the release downloads of `gp-agent update`.
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-network-'));
// Named as a real gateway is (https-proxy-agent sends no server name for a bare IP address).
const certificate = throwawayCertificate(dir, { name: 'gateway', extensions: ['subjectAltName=DNS:localhost,IP:127.0.0.1'] });
const token = `lb_agent_${'a'.repeat(32)}`;
const service = {
  health: async () => ({
    companies: [],
    health: { database: 'ok', databaseMessage: null, gpVersion: 'demo', checkedAt: new Date().toISOString() },
  }),
} as unknown as OperationHandler;

/** A TLS gateway that welcomes every agent and reports each hello, and serves one release file (`gp-agent update`'s downloads). */
const server = https.createServer({ key: certificate.key, cert: certificate.cert }, (request, response) => {
  if (request.url !== '/downloads/SHA256SUMS') return void response.writeHead(404).end();
  response.end('0123  gp-agent-linux-x64\n');
});
const hellos: Array<() => void> = [];
new WebSocketServer({ server, path: '/agent' }).on('connection', (ws) =>
  ws.on('message', (data) => {
    if (JSON.parse(data.toString().split('\n')[0]!).type !== 'hello') return;
    ws.send(encodeFrame({ v: 1, type: 'welcome', connectionId: 'conn' }));
    hellos.shift()?.();
  }),
);

/** A forward proxy: answers CONNECT host:port by piping to it, and records what was asked. */
const connects: string[] = [];
const proxy = net.createServer((client) => {
  client.once('data', (head) => {
    const request = /^CONNECT (\S+) HTTP\/1\.1\r\n/.exec(head.toString('latin1'));
    if (!request) return void client.end('HTTP/1.1 405 Method Not Allowed\r\n\r\n');
    connects.push(request[1]!);
    const [host, port] = request[1]!.split(':');
    const upstream = net.connect(Number(port), host === 'localhost' ? '127.0.0.1' : host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.pipe(client).pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
});

let gatewayUrl = '';
let proxyUrl = '';
before(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  gatewayUrl = `https://localhost:${(server.address() as AddressInfo).port}`;
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  // The system bundle, as OpenSSL's variable names it: the only place the gateway's certificate is trusted.
  process.env.SSL_CERT_FILE = certificate.certFile;
});
after(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  await new Promise((r) => proxy.close(r));
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Dials until the gateway has the agent's hello, then stops it; fails with the reason of the agent's first failed attempt. */
async function connectOnce(): Promise<void> {
  const stop = new AbortController();
  let failed: (error: Error) => void = () => {};
  const failure = new Promise<never>((_, reject) => (failed = reject));
  const log = pino({ level: 'warn' }, { write: (line: string) => failed(new Error(JSON.parse(line).reason)) });
  const done = dialGateway(
    { gatewayUrl, token, service, log, dialect: 'sqlite', timings: { statusIntervalMs: 0, drainGraceMs: 100 } },
    { stop: stop.signal },
  );
  try {
    await Promise.race([new Promise<void>((resolve) => hellos.push(resolve)), failure, done]);
  } finally {
    stop.abort();
    await done;
  }
}

test('HTTPS_PROXY carries the WebSocket through a CONNECT proxy, trusting the certificate of the system bundle', async () => {
  process.env.HTTPS_PROXY = proxyUrl;
  delete process.env.NO_PROXY;
  await connectOnce();
  assert.deepEqual(connects, [new URL(gatewayUrl).host]);
});

test("gp-agent update's downloads take the same way: through the proxy, trusting the system bundle", async () => {
  process.env.HTTPS_PROXY = proxyUrl;
  delete process.env.NO_PROXY;
  const before = connects.length;
  assert.equal((await fetchSmall(gatewayUrl, 'SHA256SUMS')).toString(), '0123  gp-agent-linux-x64\n');
  assert.deepEqual(connects.slice(before), [new URL(gatewayUrl).host]);
});

test('NO_PROXY exempts the gateway: the agent connects directly', async () => {
  process.env.HTTPS_PROXY = proxyUrl;
  process.env.NO_PROXY = 'example.com,localhost';
  const before = connects.length;
  await connectOnce();
  assert.equal(connects.length, before, 'the proxy saw no CONNECT');
});

test('the trusted roots are Node’s own plus the system’s: a bundle file adds its certificates, never removes any', () => {
  const own = trustedCertificates({});
  const withBundle = trustedCertificates({ SSL_CERT_FILE: certificate.certFile });
  assert.ok(own.length > 100, 'the bundled roots are kept');
  assert.ok(!own.includes(certificate.cert.trim()));
  assert.ok(withBundle.includes(certificate.cert.trim()));
  assert.equal(proxyFor('wss://gw.example.com/agent'), proxyUrl, 'HTTPS_PROXY applies to wss://');
});
