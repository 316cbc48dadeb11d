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
  return { result, text: (result.content[0] as { text: string }).text };
}

async function rest(pathAndQuery: string): Promise<string> {
  return (await fetch(`${gateway.url}${pathAndQuery}`, { headers: { authorization: `Bearer ${gateway.testKey}` } })).text();
}

test('the test key start prints reads the demo over MCP: tools, pages, a record, an error', async () => {
  assert.deepEqual(
    (await client.listTools()).tools.map((tool) => tool.name),
    ['list_objects', 'list_records', 'get_record'],
  );
  const objects = (await call('list_objects', {})).result.structuredContent as { objects: { name: string }[] };
  assert.ok(objects.objects.some((o) => o.name === 'gl-entries'));

  const first = await call('list_records', { object: 'customers', limit: 3 });
  assert.equal(first.text, await rest('/v1/customers?limit=3'));
  const cursor = (first.result.structuredContent as { nextCursor: string }).nextCursor;
  const second = await call('list_records', { object: 'customers', limit: 3, cursor });
  assert.equal(second.text, await rest(`/v1/customers?limit=3&cursor=${encodeURIComponent(cursor)}`));

  const customer = (first.result.structuredContent as { data: { id: string }[] }).data[0]!;
  const record = await call('get_record', { object: 'customers', id: customer.id });
  assert.equal(record.text, await rest(`/v1/customers/${encodeURIComponent(customer.id)}`));

  const error = await call('list_records', { object: 'gl-entries', filters: { year: 'closed' } });
  assert.equal(error.result.isError, true);
  assert.equal(JSON.parse(error.text).error.code, 'VALIDATION_ERROR');
});
