import { before, test, mock } from 'node:test';
import assert from 'node:assert/strict';
import type { LookupFunction } from 'node:net';
import tls from 'node:tls';
import pino from 'pino';
import type { HostResolver } from '../../infrastructure/outbound/safeTarget.ts';
import { fetchClientMetadataDocument, isPublicAddress } from './clientMetadataDocument.ts';
import { clientFromDocument, OAuthClients } from './oauthClients.ts';
import type { Store } from '../../infrastructure/store/store.ts';

/**
 * Client ID Metadata Documents: the gateway fetches a URL a stranger chose, so it must never reach
 * loopback, the private network or link-local addresses. Every name here resolves through a stub,
 * and every address it gives is refused before a connection is made: no traffic leaves the process.
 */
/**
 * Belt and braces: should the lookup ever accept an address, the connection still fails here
 * instead of being made, with a message no assertion below expects.
 */
before(() => {
  const connect = tls.connect;
  mock.method(tls, 'connect', (options: tls.ConnectionOptions & { lookup: LookupFunction }, ...rest: []) =>
    connect(
      {
        ...options,
        lookup: (hostname, lookupOptions, callback) =>
          options.lookup(hostname, lookupOptions, (error, ...address) =>
            (callback as (...args: unknown[]) => void)(
              error ?? new Error(`a connection to ${JSON.stringify(address)} was about to be made`),
              ...address,
            ),
          ),
      },
      ...rest,
    ),
  );
});

const stub = (...addresses: string[]): HostResolver & { asked: string[] } => {
  const asked: string[] = [];
  const resolve = async (hostname: string) => {
    asked.push(hostname);
    return addresses.map((address) => ({ address, family: address.includes(':') ? (6 as const) : (4 as const) }));
  };
  return Object.assign(resolve, { asked });
};

test('names resolving to loopback, private, link-local or unique-local addresses are refused before any connection', async () => {
  for (const address of [
    '127.0.0.1',
    '10.1.2.3',
    '192.168.0.10',
    '172.16.5.5',
    '169.254.169.254',
    '100.64.0.1',
    '::1',
    'fd00::1',
    '::ffff:127.0.0.1',
    '0.0.0.0',
  ]) {
    const resolver = stub(address);
    await assert.rejects(
      fetchClientMetadataDocument('https://client.example/oauth/metadata.json', resolver),
      /not a public address/,
      address,
    );
    assert.deepEqual(resolver.asked, ['client.example'], 'the stub was asked, not the system resolver');
  }
  // One private address among public ones is enough to refuse: the connection could go to any.
  await assert.rejects(
    fetchClientMetadataDocument('https://client.example/m.json', stub('93.184.215.14', '10.0.0.1')),
    /not a public address/,
  );
});

test('IP literals are checked too, and only https URLs with a path are client ids', async () => {
  const never = stub();
  await assert.rejects(fetchClientMetadataDocument('https://169.254.169.254/latest/meta-data', never), /not a public address/);
  await assert.rejects(fetchClientMetadataDocument('https://[::1]/client.json', never), /not a public address/);
  await assert.rejects(fetchClientMetadataDocument('http://client.example/client.json', never), /https with a path/);
  await assert.rejects(fetchClientMetadataDocument('https://client.example/', never), /https with a path/);
  assert.deepEqual(never.asked, []);
  assert.equal(isPublicAddress('93.184.215.14'), true);
  assert.equal(isPublicAddress('2606:2800:21f:cb07:6820:80da:af6b:8b2c'), true);
  assert.equal(isPublicAddress('not an address'), false);
});

const URL_ID = 'https://client.example/oauth/client.json';
const DOCUMENT = {
  client_id: URL_ID,
  client_name: 'Example host',
  redirect_uris: ['https://client.example/callback'],
  token_endpoint_auth_method: 'none',
};

test('a document must name itself by its URL, list redirect URIs and be a public client', () => {
  assert.equal(clientFromDocument(URL_ID, DOCUMENT).client_name, 'Example host');
  assert.throws(() => clientFromDocument(URL_ID, { ...DOCUMENT, client_id: 'https://elsewhere.example/c.json' }), /another client_id/);
  assert.throws(
    () => clientFromDocument(URL_ID, { ...DOCUMENT, token_endpoint_auth_method: 'client_secret_basic' }),
    /public clients use none/,
  );
  assert.throws(() => clientFromDocument(URL_ID, { client_id: URL_ID }), /not valid client metadata/);
});

test('a client id URL is read from its document, kept a while, and unknown when the document is refused', async () => {
  const fetched: string[] = [];
  const clients = new OAuthClients({} as Store, pino({ level: 'silent' }), async (url) => {
    fetched.push(url);
    return url === URL_ID ? DOCUMENT : { client_id: url, redirect_uris: [], token_endpoint_auth_method: 'client_secret_post' };
  });
  assert.equal((await clients.getClient(URL_ID))?.client_name, 'Example host');
  assert.equal((await clients.getClient(URL_ID))?.client_id, URL_ID);
  assert.deepEqual(fetched, [URL_ID], 'fetched once, then from memory');
  assert.equal(await clients.getClient('https://bad.example/client.json'), undefined);
});
