import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { WRITABLE_OBJECT_NAMES, writeBodySchema } from '@gp-gateway/protocol';
import type { ScriptedAgent } from '@gp-gateway/testing';
import { startWriteHarness, type WriteHarness } from '../../testing/writeHarness.ts';

/**
 * MCP `create_record` (docs/api.md#mcp) through the SDK's own client over real HTTP, the gateway writing to a
 * scripted agent over a real WebSocket: listed only for keys with mcp and write, one input schema per
 * object from REST's body schemas, the same checks and Idempotency-Key as REST, errors as tool errors.
 */
let h: WriteHarness;
let agent: ScriptedAgent;
const clients: Client[] = [];

before(async () => {
  h = await startWriteHarness();
  agent = await h.agent('hq');
});
after(async () => {
  for (const client of clients) await client.close();
  await h.close();
});

async function connect(secret: string, connectionId: string | null = null): Promise<Client> {
  const client = new Client({ name: 'create-record-test', version: '1.0.0' });
  const headers: Record<string, string> = { authorization: `Bearer ${secret}` };
  if (connectionId) headers['x-connection-id'] = connectionId;
  await client.connect(new StreamableHTTPClientTransport(new URL(`${h.gateway.url}/mcp`), { requestInit: { headers } }));
  clients.push(client);
  return client;
}

async function call(client: Client, args: Record<string, unknown>) {
  const result = (await client.callTool({ name: 'create_record', arguments: args })) as CallToolResult;
  const text = (result.content[0] as { text: string }).text;
  return { result, text, json: JSON.parse(text) as any };
}

test('create_record is listed for keys with mcp and write; each body’s schema comes from list_objects; every input schema is one a host accepts', async () => {
  const writer = await connect(h.keys.writer, h.connections.hq.id);
  const tools = (await writer.listTools()).tools;
  assert.deepEqual(
    tools.map((t) => t.name),
    ['list_objects', 'list_records', 'get_record', 'list_events', 'create_record'],
  );
  const tool = tools.find((t) => t.name === 'create_record')!;
  assert.deepEqual(tool.annotations, {
    title: 'Create a record',
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  });
  // What Anthropic's API and OpenAI's function calling take: an object schema, no oneOf, allOf or anyOf at its top.
  for (const { name, inputSchema } of tools) {
    assert.equal(inputSchema.type, 'object', name);
    for (const keyword of ['oneOf', 'allOf', 'anyOf', 'not', 'enum']) assert.ok(!(keyword in inputSchema), `${name}: top-level ${keyword}`);
  }
  const listed = JSON.stringify((await writer.listTools()).tools);
  assert.ok(listed.length < 6_000, `tools/list for a key with write is ${listed.length} characters`);

  for (const object of WRITABLE_OBJECT_NAMES) {
    const described = (await writer.callTool({ name: 'list_objects', arguments: { object } })) as CallToolResult;
    const { objects } = JSON.parse((described.content[0] as { text: string }).text) as { objects: { createFields?: unknown }[] };
    const { $schema: _, ...expected } = z.toJSONSchema(writeBodySchema(object), { target: 'draft-7', io: 'input' }) as Record<
      string,
      unknown
    >;
    assert.deepEqual(objects[0]!.createFields, expected, object);
  }
  const all = (await writer.callTool({ name: 'list_objects', arguments: {} })) as CallToolResult;
  assert.ok(
    (JSON.parse((all.content[0] as { text: string }).text) as { objects: object[] }).objects.every((o) => !('createFields' in o)),
    'every object at once stays short',
  );

  const reader = await connect(h.keys.reader, h.connections.hq.id);
  assert.deepEqual(
    (await reader.listTools()).tools.map((t) => t.name),
    ['list_objects', 'list_records', 'get_record', 'list_events'],
  );
  const refused = await call(reader, { object: 'customers', fields: { id: 'M0', name: 'No' } });
  assert.equal(refused.result.isError, true);
  assert.equal(refused.json.error.code, 'FORBIDDEN');
  assert.equal(agent.sent('write').length, 0);
});

test('created records come back as GP holds them, with the composite id where REST has none; a journal entry as its lines', async () => {
  const client = await connect(h.keys.writer, h.connections.hq.id);
  const address = await call(client, { object: 'customer-addresses', fields: { customerId: 'm1', code: 'primary', city: 'Oslo' } });
  assert.equal(address.result.isError, undefined);
  assert.deepEqual(address.json, { data: { id: 'M1:PRIMARY', customerId: 'M1', code: 'PRIMARY', city: 'Oslo' } });
  assert.equal(address.result.structuredContent, undefined, 'the record is sent once, as text');

  const lines = [
    { accountNumber: '000-1100-00', debit: '10.00' },
    { accountNumber: '000-2100-00', credit: '10.00' },
  ];
  const entry = await call(client, { object: 'gl-entries', fields: { reference: 'MCP', date: '2026-01-31', batchId: 'mcp', lines } });
  assert.deepEqual(entry.json, { data: lines });

  const validated = await call(client, { object: 'customers', fields: { id: 'm2', name: 'Tried' }, validateOnly: true });
  assert.deepEqual(validated.json, { data: { id: 'M2', name: 'Tried' } });
  assert.equal((agent.sent('write').at(-1)!.op as { validateOnly: boolean }).validateOnly, true);
});

test('an idempotencyKey replays the first answer, shared with REST; another body is IDEMPOTENCY_CONFLICT', async () => {
  const client = await connect(h.keys.writer, h.connections.hq.id);
  const key = `mcp-${process.pid}`;
  const before = agent.sent('write').length;
  const first = await call(client, { object: 'customers', fields: { id: 'm3', name: 'Once' }, idempotencyKey: key });
  const again = await call(client, { object: 'customers', fields: { name: 'Once', id: 'm3' }, idempotencyKey: key });
  assert.equal(again.text, first.text);
  const rest = await h.post('/v1/customers', { id: 'm3', name: 'Once' }, { 'idempotency-key': key });
  assert.equal(rest.status, 201);
  assert.equal(rest.text, first.text, 'REST replays the answer MCP got');
  assert.equal(agent.sent('write').length, before + 1);
  const other = await call(client, { object: 'customers', fields: { id: 'm3', name: 'Twice' }, idempotencyKey: key });
  assert.equal(other.result.isError, true);
  assert.deepEqual([other.json.error.code, other.json.error.details], ['IDEMPOTENCY_CONFLICT', { reason: 'body_mismatch' }]);
});

test('refusals are tool errors with the API code, naming the arguments', async () => {
  const client = await connect(h.keys.writer, h.connections.hq.id);
  const bad = await call(client, { object: 'customers', fields: { id: 'x'.repeat(16), extra: 1 }, idempotencyKey: '' });
  assert.equal(bad.result.isError, true);
  assert.equal(bad.json.error.code, 'VALIDATION_ERROR');
  assert.deepEqual((bad.json.error.details.issues as { path: string }[]).map((i) => i.path).sort(), [
    'fields',
    'fields.id',
    'fields.name',
    'idempotencyKey',
  ]);
  const notWhitelisted = await call(client, { object: 'vendors', fields: { id: 'V1', name: 'V' } });
  assert.equal(notWhitelisted.json.error.code, 'FORBIDDEN');
  const readOnly = await call(client, { object: 'items', fields: {} });
  assert.equal(readOnly.json.error.code, 'VALIDATION_ERROR');
  assert.match(readOnly.json.error.details.issues[0].message, /items cannot be created/);
  const company = await call(client, { object: 'customers', fields: { id: 'M9', name: 'N' }, company: 'NOPE' });
  assert.deepEqual(company.json.error.details.issues, [{ path: 'company', message: 'the connection has no such company' }]);

  const sandbox = await connect(h.keys.tester);
  const live = await call(sandbox, { object: 'customers', fields: { id: 'S1', name: 'Sandbox' } });
  assert.equal(live.json.error.code, 'FORBIDDEN');
  assert.match(live.json.error.message, /MCP create_record: validateOnly: true/, 'names the tool argument, not only the REST query');
});

test('a created record’s id is kept in the usage row of its MCP request, as a REST write’s is; a validation and a refusal keep none', async () => {
  const client = await connect(h.keys.writer, h.connections.hq.id);
  await call(client, { object: 'customer-addresses', fields: { customerId: 'u1', code: 'ship', city: 'Bergen' } });
  await call(client, { object: 'customers', fields: { id: 'u2', name: 'Checked' }, validateOnly: true });
  await call(client, { object: 'vendors', fields: { id: 'V2', name: 'Not whitelisted' } });
  await h.gateway.usage.flush();
  const rows = (await h.store.listRecentRequests(h.orgId, { limit: 10 })).filter((r) => r.object === 'mcp' && r.method === 'POST');
  // Newest first: the refusal, the validation, the creation (the client's initialize and notices come before).
  assert.deepEqual(
    rows.slice(0, 3).map((r) => r.recordId ?? null),
    [null, null, 'U1:SHIP'],
  );
});
