import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { startGatewayProcess, type Started } from './support/processes.ts';

/**
 * What a user does first: `gp-gateway start`, then an MCP client pointed at /mcp with the test key
 * that start printed, reading the demo sandbox.
 */
let dataDir: string;
let gateway: Started & { url: string; testKey: string };
let client: Client;

before(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-mcp-'));
  gateway = await startGatewayProcess(dataDir);
  client = new Client({ name: 'e2e', version: '1.0.0' });
  const headers = { authorization: `Bearer ${gateway.testKey}` };
  await client.connect(new StreamableHTTPClientTransport(new URL(`${gateway.url}/mcp`), { requestInit: { headers } }));
});

after(async () => {
  await client?.close();
  await gateway?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function call(name: string, args: Record<string, unknown>) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = (result.content[0] as { text: string }).text;
  return { result, text, json: JSON.parse(text) as unknown };
}

async function rest(pathAndQuery: string): Promise<string> {
  return (await fetch(`${gateway.url}${pathAndQuery}`, { headers: { authorization: `Bearer ${gateway.testKey}` } })).text();
}

test('the test key start prints reads the demo over MCP: tools, pages, a record, an error', async () => {
  assert.deepEqual(
    (await client.listTools()).tools.map((tool) => tool.name),
    ['list_objects', 'list_records', 'get_record', 'list_events', 'create_record'],
    'the key start prints has the write scope: it may validate writes on the sandbox',
  );
  const objects = (await call('list_objects', {})).json as { objects: { name: string }[] };
  assert.ok(objects.objects.some((o) => o.name === 'gl-entries'));

  const first = await call('list_records', { object: 'customers', limit: 3 });
  assert.equal(first.text, await rest('/v1/customers?limit=3'));
  const cursor = (first.json as { nextCursor: string }).nextCursor;
  const second = await call('list_records', { object: 'customers', limit: 3, cursor });
  assert.equal(second.text, await rest(`/v1/customers?limit=3&cursor=${encodeURIComponent(cursor)}`));

  const customer = (first.json as { data: { id: string }[] }).data[0]!;
  const record = await call('get_record', { object: 'customers', id: customer.id });
  assert.equal(record.text, await rest(`/v1/customers/${encodeURIComponent(customer.id)}`));

  const error = await call('list_records', { object: 'gl-entries', filters: { year: 'closed' } });
  assert.equal(error.result.isError, true);
  assert.equal(JSON.parse(error.text).error.code, 'VALIDATION_ERROR');
});

/** An SDK client whose every request goes out with these headers instead of the SDK's (a client that sends other ones). */
async function clientSending(headers: Record<string, string>): Promise<Client> {
  const rewriting: typeof fetch = (url, init) => {
    const sent = new Headers(init?.headers);
    for (const [name, value] of Object.entries(headers)) sent.set(name, value);
    return fetch(url, { ...init, headers: sent });
  };
  const other = new Client({ name: 'e2e-variant', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${gateway.url}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${gateway.testKey}` } },
    fetch: rewriting,
  });
  await other.connect(transport);
  return other;
}

test('clients that accept only application/json, any type, or only text/event-stream are answered (JSON), not refused with 406', async () => {
  for (const accept of ['application/json', '*/*', 'text/event-stream', 'application/json;q=0.9, */*;q=0.1']) {
    const variant = await clientSending({ accept });
    const page = (await variant.callTool({ name: 'list_records', arguments: { object: 'companies' } })) as CallToolResult;
    assert.equal(page.isError, undefined, accept);
    assert.ok((JSON.parse((page.content[0] as { text: string }).text) as { data: unknown[] }).data.length > 0, accept);
    await variant.close();
  }
});

test('a foreign Origin is refused with 403 as a JSON-RPC error; the gateway’s own origin passes', async () => {
  await assert.rejects(clientSending({ origin: 'https://evil.example' }), (error: Error & { code?: number }) => error.code === 403);
  const res = await fetch(`${gateway.url}/mcp`, {
    method: 'POST',
    headers: { authorization: `Bearer ${gateway.testKey}`, 'content-type': 'application/json', origin: 'https://evil.example' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list' }),
  });
  assert.equal(res.status, 403);
  const body = (await res.json()) as { id: number; error: { message: string; data: { code: string } } };
  assert.deepEqual([body.id, body.error.data.code], [3, 'FORBIDDEN']);
  assert.match(body.error.message, /origin https:\/\/evil\.example may not use this MCP endpoint/);
  const same = await clientSending({ origin: new URL(gateway.url).origin });
  assert.equal((await same.listTools()).tools.length, 5);
  await same.close();
});

test('tool errors say what was expected; composite records carry their id; filters may come as a JSON string', async () => {
  const error = async (name: string, args: Record<string, unknown>) => JSON.parse((await call(name, args)).text).error;
  assert.match((await error('list_records', {})).details.issues[0].message, /^is required: one of companies, customers, /);
  assert.equal(
    (await error('list_records', { object: 'Customer' })).details.issues[0].message,
    'is not an object of this API; did you mean customers? list_objects lists them',
  );
  assert.match(
    (await error('list_records', { object: 'customers', filters: { colour: 'red' } })).details.issues[0].message,
    /^unknown filter; customers filters are q, id, classId, /,
  );
  const customerId = ((await call('list_records', { object: 'customers', limit: 1 })).json as { data: { id: string }[] }).data[0]!.id;
  const address = (await call('list_records', { object: 'customer-addresses', filters: JSON.stringify({ customerId }) })).json as {
    data: { id: string; customerId: string; code: string }[];
  };
  assert.ok(address.data.length > 0);
  for (const a of address.data) assert.equal(a.id, `${a.customerId}:${a.code}`);
  const missing = await error('get_record', { object: 'customer-addresses', id: 'AARONFIT0001' });
  assert.match(missing.message, /Its ids have the form <customerId>:<code>, e\.g\. AARONACA0001:PRIMARY/);
  const one = (await call('list_objects', { object: 'customers' })).json as { objects: { name: string }[] };
  assert.deepEqual(
    one.objects.map((o) => o.name),
    ['customers'],
  );
  await assert.rejects(
    client.callTool({ name: 'nope', arguments: {} }),
    (e: Error) =>
      e.message ===
      'MCP error -32602: Unknown tool: nope; the tools are list_objects, list_records, get_record, list_events, create_record',
  );
});
