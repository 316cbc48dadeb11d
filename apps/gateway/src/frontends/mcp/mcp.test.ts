import http from 'node:http';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, LATEST_PROTOCOL_VERSION, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ErrorBodySchema, OBJECT_NAMES, OBJECTS } from '@gp-gateway/protocol';
import { newApiKeySecret } from '../../core/auth/secrets.ts';
import { startInProcessGateway, type InProcessGateway } from '../../testing/inProcessGateway.ts';
import { slotKey } from '../../core/agents/inFlightLimitedRouter.ts';
import { SANDBOX_AGENT_KEY } from '../../core/routing/connectionRouting.ts';
import { RESULT_BUDGET_BYTES } from './budget.ts';

/**
 * POST /mcp with the SDK's own client over real HTTP, against the in-process gateway and its sandbox
 * agent: the protocol, authentication and limits as HTTP errors, the three tools, and every failure
 * as a tool error carrying the API's code.
 */
let t: InProcessGateway;
const keys: Record<string, string> = {};
let liveConnectionId = '';
let foreignConnectionId = '';
const clients: Client[] = [];

before(async () => {
  t = await startInProcessGateway({ limits: { inFlightWaitMs: 100 } });
  const org = await t.admin.createOrganisation('MCP');
  await t.admin.setLimits(org.id, { requestsPerWindow: 1_000_000 });
  const other = await t.admin.createOrganisation('Other');
  keys.test = (await t.makeKey(org.id, 'test', ['read', 'mcp'])).secret;
  keys.live = (await t.makeKey(org.id, 'live', ['read', 'mcp'])).secret;
  keys.readOnly = (await t.makeKey(org.id, 'test', ['read'])).secret;
  liveConnectionId = (await t.admin.createConnection({ orgId: org.id, name: 'HQ', defaultCompany: 'TWO' })).connection.id;
  foreignConnectionId = (await t.admin.createConnection({ orgId: other.id, name: 'Theirs', defaultCompany: 'TWO' })).connection.id;
});

after(async () => {
  for (const client of clients) await client.close();
  const logText = t.logs.join('');
  assert.ok(logText.includes('"msg":"mcp tool call"'), 'tool calls are logged');
  for (const secret of Object.values(keys)) assert.equal(logText.includes(secret), false, 'a secret reached the logs');
  assert.equal(logText.includes('Filter-Value-Never-Logged'), false, 'a filter value reached the logs');
  await t.close();
});

const bearer = (secret: string, extra: Record<string, string> = {}) => ({ authorization: `Bearer ${secret}`, ...extra });

async function connect(secret: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'gateway-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${t.gateway.url}/mcp`), {
    requestInit: { headers: bearer(secret, headers) },
  });
  await client.connect(transport);
  clients.push(client);
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

function textOf(result: CallToolResult): string {
  assert.equal(result.content.length, 1);
  const [block] = result.content;
  assert.equal(block?.type, 'text');
  return (block as { text: string }).text;
}

/** A successful result: the JSON of its text, which carries the records once (no structuredContent beside it). */
function ok(result: CallToolResult): any {
  assert.equal(result.isError, undefined, textOf(result));
  assert.equal(result.structuredContent, undefined, 'the records are sent twice');
  return JSON.parse(textOf(result));
}

/** A failed call: a tool error whose text is the REST error body. */
function failed(result: CallToolResult, code: string): { code: string; message: string; requestId: string; details: any } {
  assert.equal(result.isError, true);
  assert.equal(result.structuredContent, undefined);
  const body = JSON.parse(textOf(result));
  assert.equal(ErrorBodySchema.safeParse(body).success, true, textOf(result));
  assert.equal(body.error.code, code, textOf(result));
  assert.match(body.error.requestId, /^req_/);
  return body.error;
}

async function until(what: string, condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

const pathsOf = (error: { details: any }) => error.details.issues.map((i: { path: string }) => i.path);

/** One raw JSON-RPC POST, to see what the SDK client hides: status, headers, body. */
async function post(body: unknown, headers: Record<string, string>) {
  const res = await fetch(`${t.gateway.url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}

const initialize = (protocolVersion: string) => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

describe('protocol', () => {
  test('initialize: server, tools capability and instructions, stateless (no session id), JSON answers', async () => {
    const client = await connect(keys.test!);
    assert.deepEqual(client.getServerVersion(), { name: 'gp-gateway', title: 'GP gateway', version: '1.0.0' });
    assert.deepEqual(client.getServerCapabilities(), { tools: {} });
    assert.match(client.getInstructions() ?? '', /list_objects/);
    const res = await post(initialize(LATEST_PROTOCOL_VERSION), bearer(keys.test!));
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('mcp-session-id'), null);
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    assert.match(res.headers.get('x-request-id') ?? '', /^req_/);
  });

  test('the protocol versions current clients speak are each answered in kind', async () => {
    for (const version of ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05']) {
      const res = await post(initialize(version), bearer(keys.test!));
      assert.equal(res.body.result.protocolVersion, version);
      const list = await post({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, bearer(keys.test!, { 'mcp-protocol-version': version }));
      assert.equal(list.body.result.tools.length, 4, version);
    }
    const newer = await post(initialize('2099-01-01'), bearer(keys.test!));
    assert.equal(newer.body.result.protocolVersion, LATEST_PROTOCOL_VERSION, 'an unknown version gets the latest we speak');
    const unsupported = await post(
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      bearer(keys.test!, { 'mcp-protocol-version': '1999-01-01' }),
    );
    assert.equal(unsupported.status, 400);
  });

  test('tools/list: the read-only tools, short: objects are named by list_objects, and a wrong one is refused with the nearest', async () => {
    const client = await connect(keys.test!);
    const { tools } = await client.listTools();
    assert.deepEqual(
      tools.map((tool) => tool.name),
      ['list_objects', 'list_records', 'get_record', 'list_events'],
    );
    for (const tool of tools) {
      assert.equal(tool.annotations?.readOnlyHint, true, tool.name);
      assert.equal(tool.annotations?.destructiveHint, false, tool.name);
      assert.equal(tool.inputSchema.type, 'object');
      assert.equal(
        tool.outputSchema,
        undefined,
        `${tool.name}: an output schema asks for structuredContent, which would carry the records a second time`,
      );
    }
    const list = tools[1]!.inputSchema as any;
    assert.equal(list.properties.object.type, 'string');
    assert.deepEqual([list.properties.limit.minimum, list.properties.limit.maximum], [1, 100]);
    assert.deepEqual(list.required, ['object']);
    assert.equal(list.additionalProperties, false);
    const get = tools[2]!.inputSchema as any;
    assert.deepEqual(get.required, ['object', 'id']);
    // The names are still checked: every one list_objects gives is taken, any other refused with the nearest.
    const named = failed(await call(client, 'list_records', { object: 'customer' }), 'VALIDATION_ERROR');
    assert.match(named.message, /did you mean customers\?/);
    const noGet = failed(await call(client, 'get_record', { object: 'gl-entries', id: '1' }), 'VALIDATION_ERROR');
    assert.match(noGet.message, /gl-entries has no get by id/);
  });

  test('GET and DELETE are 405 with Allow: POST; an unknown tool is a protocol error', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(`${t.gateway.url}/mcp`, { method, headers: bearer(keys.test!, { accept: 'text/event-stream' }) });
      assert.equal(res.status, 405, method);
      assert.equal(res.headers.get('allow'), 'POST');
      assert.equal(((await res.json()) as any).jsonrpc, '2.0');
    }
    const client = await connect(keys.test!);
    await assert.rejects(
      call(client, 'drop_tables', {}),
      (error: unknown) => error instanceof McpError && error.code === ErrorCode.InvalidParams,
    );
  });
});

describe('one JSON-RPC message per request; every refusal carries the API code and the request id', () => {
  const raw = async (body: string) => {
    const res = await fetch(`${t.gateway.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...bearer(keys.test!) },
      body,
    });
    return { status: res.status, requestId: res.headers.get('x-request-id'), body: (await res.json()) as any };
  };
  const list = { jsonrpc: '2.0', method: 'tools/list', id: 7 };

  test('a batch is refused whole (-32600), and nothing in it runs', async () => {
    const batch = await raw(JSON.stringify(Array.from({ length: 100 }, (_, i) => ({ ...list, id: i }))));
    assert.equal(batch.status, 400);
    assert.deepEqual(batch.body.error, {
      code: -32600,
      message: 'Batches are not supported: send one JSON-RPC message per request.',
      data: { code: 'VALIDATION_ERROR', requestId: batch.requestId },
    });
    assert.equal(batch.body.id, null);
  });

  test('JSON that is no JSON-RPC message is -32600; a body that is not JSON -32700; one too large 413', async () => {
    for (const body of ['{"method":"tools/list","id":1}', '"tools/list"', '{"jsonrpc":"1.0","method":"x","id":1}']) {
      const refused = await raw(body);
      assert.equal(refused.status, 400, body);
      assert.equal(refused.body.error.code, -32600, body);
      assert.deepEqual(refused.body.error.data, { code: 'VALIDATION_ERROR', requestId: refused.requestId });
    }
    const broken = await raw('{"jsonrpc":"2.0",');
    assert.deepEqual([broken.status, broken.body.error.code, broken.body.error.data.code], [400, -32700, 'VALIDATION_ERROR']);
    const large = await raw(JSON.stringify({ ...list, params: { padding: 'x'.repeat(70_000) } }));
    assert.deepEqual(
      [large.status, large.body.error.data.code, large.body.error.data.requestId],
      [413, 'VALIDATION_ERROR', large.requestId],
    );
    assert.equal((await raw(JSON.stringify(list))).status, 200, 'one message is served');
  });
});

describe('a gateway bound to loopback serves /mcp only to loopback Host names (DNS rebinding)', () => {
  test('another Host is 403 before the key is looked at; localhost and 127.0.0.1 pass', async () => {
    const bound = await startInProcessGateway({ mcpAllowedHosts: ['localhost', '127.0.0.1', '[::1]'] });
    try {
      const org = await bound.admin.createOrganisation('Rebinding');
      const key = (await bound.makeKey(org.id, 'test', ['read', 'mcp'])).secret;
      const send = (host: string) =>
        new Promise<{ status: number; body: any }>((resolve, reject) => {
          const url = new URL(`${bound.gateway.url}/mcp`);
          const req = http.request(
            {
              host: '127.0.0.1',
              port: url.port,
              path: '/mcp',
              method: 'POST',
              headers: { host, 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${key}` },
            },
            (res) => {
              let text = '';
              res.on('data', (d) => (text += d));
              res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
            },
          );
          req.on('error', reject);
          req.end(JSON.stringify({ jsonrpc: '2.0', method: 'tools/list', id: 1 }));
        });
      const evil = await send(`attacker.example:${new URL(bound.gateway.url).port}`);
      assert.equal(evil.status, 403);
      assert.equal(evil.body.error.data.code, 'FORBIDDEN');
      assert.match(evil.body.error.message, /attacker\.example/);
      for (const host of [`localhost:${new URL(bound.gateway.url).port}`, `127.0.0.1:${new URL(bound.gateway.url).port}`]) {
        assert.equal((await send(host)).status, 200, host);
      }
    } finally {
      await bound.close();
    }
  });
});

describe('keys, scope and limits: the HTTP status, with a JSON-RPC error naming the request', () => {
  test('no valid key: 401 with WWW-Authenticate: Bearer, without quota headers', async () => {
    for (const headers of [{}, bearer(newApiKeySecret('test')), { authorization: 'Basic abc' }]) {
      const res = await post(initialize(LATEST_PROTOCOL_VERSION), headers);
      assert.equal(res.status, 401);
      // resource_metadata: where an OAuth client finds how to sign in (RFC 9728, frontends/mcp/oauth.test.ts).
      assert.equal(
        res.headers.get('www-authenticate'),
        `Bearer realm="gp-gateway", resource_metadata="${t.gateway.url}/.well-known/oauth-protected-resource/mcp"`,
      );
      assert.deepEqual(res.body, {
        jsonrpc: '2.0',
        id: 1,
        error: {
          code: -32000,
          message: 'Missing or invalid API key. Send it as: Authorization: Bearer <API_KEY>.',
          data: { code: 'UNAUTHORIZED', requestId: res.headers.get('x-request-id') },
        },
      });
      assert.equal(res.headers.get('x-ratelimit-limit'), null);
    }
    await assert.rejects(connect(newApiKeySecret('test')), (error: unknown) => error instanceof StreamableHTTPError && error.code === 401);
  });

  test('a key without the mcp scope: 403 with quota headers', async () => {
    const res = await post({ jsonrpc: '2.0', id: 'req-7', method: 'tools/list' }, bearer(keys.readOnly!));
    assert.equal(res.status, 403);
    assert.equal(res.body.id, 'req-7');
    assert.deepEqual(res.body.error.data.code, 'FORBIDDEN');
    assert.equal(res.body.error.message, 'This API key lacks the mcp scope.');
    assert.ok(res.headers.get('x-ratelimit-remaining'));
    await assert.rejects(connect(keys.readOnly!), (error: unknown) => error instanceof StreamableHTTPError && error.code === 403);
  });

  test('every POST spends one request of the key’s bucket; an empty bucket is HTTP 429 with Retry-After, in the error too', async () => {
    const org = await t.admin.createOrganisation('Tight');
    await t.admin.setLimits(org.id, { requestsPerWindow: 3, windowSeconds: 600 });
    const { secret } = await t.makeKey(org.id, 'test', ['read', 'mcp']);
    keys.tight = secret;
    const client = await connect(secret); // initialize and notifications/initialized
    ok(await call(client, 'list_objects', {}));
    const res = await post(
      { jsonrpc: '2.0', id: 9, method: 'tools/list' },
      bearer(secret, { 'mcp-protocol-version': LATEST_PROTOCOL_VERSION }),
    );
    assert.equal(res.status, 429);
    assert.equal(res.body.id, 9);
    assert.equal(res.body.error.data.code, 'RATE_LIMITED');
    assert.equal(res.headers.get('x-ratelimit-remaining'), '0');
    const retryAfter = Number(res.headers.get('retry-after'));
    assert.ok(retryAfter >= 1);
    assert.equal(res.body.error.data.retryAfterSeconds, retryAfter);
    assert.match(res.body.error.message, new RegExp(`Retry after ${retryAfter} s\\.$`));
    await assert.rejects(call(client, 'list_objects', {}), (error: unknown) => error instanceof StreamableHTTPError && error.code === 429);
  });

  test('tool calls take the connection’s in-flight slots (docs/api.md#in-flight-cap) like REST calls do', async () => {
    const org = await t.admin.createOrganisation('One at a time');
    await t.admin.setLimits(org.id, { maxInFlightPerConnection: 1 });
    const { secret } = await t.makeKey(org.id, 'test', ['read', 'mcp']);
    keys.single = secret;
    const slot = slotKey(org.id, SANDBOX_AGENT_KEY);
    const client = await connect(secret);

    let hold = t.holdAgentAnswers();
    const toolCall = call(client, 'list_records', { object: 'customers', limit: 1 });
    await until('the tool call holds the slot', () => t.gateway.inFlight.active(slot) === 1);
    assert.equal((await t.get('/v1/customers?limit=1', bearer(secret))).status, 429);
    hold.release();
    ok(await toolCall);

    hold = t.holdAgentAnswers();
    const restCall = t.get('/v1/customers?limit=1', bearer(secret));
    await until('the REST call holds the slot', () => t.gateway.inFlight.active(slot) === 1);
    const error = failed(await call(client, 'list_records', { object: 'customers' }), 'RATE_LIMITED');
    assert.equal(error.details.retryAfterSeconds, 1);
    hold.release();
    assert.equal((await restCall).status, 200);
  });
});

describe('tools', () => {
  test('list_objects: every object with its fields, filters and id form, within the budget', async () => {
    const result = await call(await connect(keys.test!), 'list_objects', {});
    const catalogue = ok(result);
    assert.ok(Buffer.byteLength(textOf(result)) <= RESULT_BUDGET_BYTES);
    assert.deepEqual(
      catalogue.objects.map((o: any) => o.name),
      OBJECT_NAMES,
    );
    const customers = catalogue.objects.find((o: any) => o.name === 'customers');
    assert.deepEqual(Object.keys(customers.fields), Object.keys(OBJECTS.customers.resource.shape));
    assert.equal(customers.fields.creditLimit, 'decimal|null');
    assert.equal(customers.fields.modifiedAt, 'timestamp|date|null');
    assert.deepEqual(Object.keys(customers.filters), Object.keys(OBJECTS.customers.filters));
    assert.equal(customers.filters.inactive, 'boolean: inactive customers only (true) or active only (false)');
    assert.equal(customers.filters.classId, 'string ≤31: customer class id');
    assert.equal(customers.idForm, '<id>');
    const addresses = catalogue.objects.find((o: any) => o.name === 'customer-addresses');
    assert.equal(addresses.idForm, '<customerId>:<code>');
    assert.match(addresses.filters.customerId, /^string ≤\d+, required: /);
    assert.equal(addresses.idExample, 'AARONACA0001:PRIMARY');
    // Every example is a record of the sandbox: a model that tries one gets it.
    const examples = catalogue.objects.filter((o: any) => o.idForm !== null);
    assert.ok(
      examples.every((o: any) => typeof o.idExample === 'string'),
      'an example for every object with get-by-id',
    );
    const client = await connect(keys.test!);
    for (const { name, idExample } of examples) ok(await call(client, 'get_record', { object: name, id: idExample }));
    const lines = catalogue.objects.find((o: any) => o.name === 'sales-order-lines');
    assert.deepEqual([lines.idForm, lines.linesOf], [null, 'sales-orders']);
    assert.match(lines.filters.documentId, /, required: /);
    const one = ok(await call(await connect(keys.test!), 'list_objects', { object: 'gl-entries' }));
    assert.deepEqual(
      one.objects.map((o: any) => o.name),
      ['gl-entries'],
    );
    assert.ok(textOf(result).length < 20_000, `list_objects is ${textOf(result).length} bytes`);
  });

  test('list_records pages through customers with cursors: each page’s text is the REST page, byte for byte', async () => {
    const client = await connect(keys.test!);
    let cursor: string | null = null;
    let pages = 0;
    const seen: string[] = [];
    do {
      const args: Record<string, unknown> = { object: 'customers', limit: 100, ...(cursor ? { cursor } : {}) };
      const result = await call(client, 'list_records', args);
      const page = ok(result);
      const rest = await fetch(`${t.gateway.url}/v1/customers?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, {
        headers: bearer(keys.test!),
      });
      assert.equal(textOf(result), await rest.text());
      assert.ok(page.data.length <= 100);
      seen.push(...page.data.map((c: any) => c.id));
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor);
    assert.ok(pages > 2);
    assert.equal(new Set(seen).size, seen.length, 'no customer twice');
  });

  test('list_records: 25 records unless a limit is given; filters as JSON values', async () => {
    const client = await connect(keys.test!);
    const page = ok(await call(client, 'list_records', { object: 'customers' }));
    assert.equal(page.data.length, 25);
    assert.equal(typeof page.nextCursor, 'string');
    const inactive = ok(await call(client, 'list_records', { object: 'customers', filters: { inactive: true, q: null }, limit: 100 }));
    const rest = await t.get('/v1/customers?inactive=true&limit=100', bearer(keys.test!));
    assert.deepEqual(inactive, rest.body);
    assert.ok(inactive.data.length > 0 && inactive.data.every((c: any) => c.inactive === true));
    const ids = inactive.data.slice(0, 2).map((c: any) => c.id);
    assert.deepEqual(
      ok(await call(client, 'list_records', { object: 'customers', filters: { id: ids } })).data.map((c: any) => c.id),
      ids,
    );
  });

  test('get_record returns what REST returns; records with a composite id carry it as id, in lists and gets', async () => {
    const client = await connect(keys.test!);
    const customer = (await t.get('/v1/customers?limit=1', bearer(keys.test!))).body.data[0];
    assert.deepEqual(ok(await call(client, 'get_record', { object: 'customers', id: customer.id })), { data: customer });
    const address = ok(await call(client, 'list_records', { object: 'customer-addresses', filters: { customerId: customer.id } })).data[0];
    const id = `${address.customerId}:${address.code}`;
    assert.equal(address.id, id);
    const result = await call(client, 'get_record', { object: 'customer-addresses', id });
    const rest = await t.get(`/v1/customer-addresses/${encodeURIComponent(id)}`, bearer(keys.test!));
    assert.equal(rest.body.data.id, undefined, 'REST has no id field there');
    assert.deepEqual(JSON.parse(textOf(result)), { data: { id, ...rest.body.data } });
    assert.deepEqual(Object.keys(ok(result).data)[0], 'id');
    const order = ok(await call(client, 'list_records', { object: 'sales-orders', limit: 1 })).data[0];
    assert.equal(order.id, `${order.type}:${order.number}`);
    ok(await call(client, 'get_record', { object: 'sales-orders', id: order.id }));
  });

  test('a composite id not found says the form of the ids, with an example', async () => {
    const client = await connect(keys.test!);
    const missing = failed(await call(client, 'get_record', { object: 'customer-addresses', id: 'AARONFIT0001' }), 'NOT_FOUND');
    assert.equal(
      missing.message,
      'No record of customer-addresses has the id "AARONFIT0001". Its ids have the form <customerId>:<code>, e.g. AARONACA0001:PRIMARY; list_records gives each record\'s id.',
    );
    const invoice = failed(await call(client, 'get_record', { object: 'ar-invoices', id: 'STDINV2261' }), 'NOT_FOUND');
    assert.match(invoice.message, /the form <type>:<documentNumber>, e\.g\. invoice:INV00001047;/);
  });

  test('the lines of a document are listed with filters.documentId', async () => {
    const client = await connect(keys.test!);
    const order = ok(await call(client, 'list_records', { object: 'sales-orders', limit: 1 })).data[0];
    const id = `${order.type}:${order.number}`;
    const lines = ok(await call(client, 'list_records', { object: 'sales-order-lines', filters: { documentId: id } }));
    const rest = await t.get(`/v1/sales-orders/${encodeURIComponent(id)}/lines?limit=25`, bearer(keys.test!));
    assert.deepEqual(lines, rest.body);
    assert.ok(lines.data.length > 0);
    failed(await call(client, 'list_records', { object: 'sales-order-lines', filters: { documentId: 'invoice:NOPE' } }), 'NOT_FOUND');
    failed(await call(client, 'list_records', { object: 'sales-order-lines', filters: { documentId: 'x'.repeat(65) } }), 'NOT_FOUND');
  });

  test('X-Company and the company argument choose the company; companies ignore the header', async () => {
    const viaHeader = await connect(keys.test!, { 'x-company': 'NWIND' });
    const nwind = ok(await call(viaHeader, 'list_records', { object: 'customers', limit: 3 }));
    assert.deepEqual(nwind, (await t.get('/v1/customers?limit=3', bearer(keys.test!, { 'x-company': 'NWIND' }))).body);
    const two = ok(await call(viaHeader, 'list_records', { object: 'customers', limit: 3, company: 'two' }));
    assert.deepEqual(two, (await t.get('/v1/customers?limit=3', bearer(keys.test!))).body);
    assert.notDeepEqual(two, nwind);
    const companies = ok(await call(viaHeader, 'list_records', { object: 'companies' }));
    assert.deepEqual(
      companies.data.map((c: any) => c.id),
      ['TWO', 'NWIND'],
    );
    const error = failed(await call(viaHeader, 'list_records', { object: 'companies', company: 'TWO' }), 'VALIDATION_ERROR');
    assert.deepEqual(pathsOf(error), ['company']);
    assert.deepEqual(
      pathsOf(failed(await call(viaHeader, 'get_record', { object: 'customers', id: 'X', company: 'NOPE' }), 'VALIDATION_ERROR')),
      ['company'],
    );
    const unknownHeader = await connect(keys.test!, { 'x-company': 'NOPE' });
    assert.deepEqual(pathsOf(failed(await call(unknownHeader, 'list_records', { object: 'customers' }), 'VALIDATION_ERROR')), [
      'X-Company',
    ]);
  });
});

describe('failures are tool errors carrying the API code', () => {
  test('bad object, bad arguments and a record that does not exist', async () => {
    const client = await connect(keys.test!);
    const widgets = failed(await call(client, 'list_records', { object: 'widgets' }), 'VALIDATION_ERROR');
    assert.deepEqual(widgets.details.issues, [
      { path: 'object', message: `is not an object of this API; objects are ${OBJECT_NAMES.join(', ')}` },
    ]);
    const near = failed(await call(client, 'list_records', { object: 'customer' }), 'VALIDATION_ERROR');
    assert.deepEqual(near.details.issues, [
      { path: 'object', message: 'is not an object of this API; did you mean customers? list_objects lists them' },
    ]);
    const none = failed(await call(client, 'list_records', {}), 'VALIDATION_ERROR');
    assert.deepEqual(none.details.issues, [{ path: 'object', message: `is required: one of ${OBJECT_NAMES.join(', ')}` }]);
    const gl = failed(await call(client, 'get_record', { object: 'gl-entries', id: '1' }), 'VALIDATION_ERROR');
    assert.match(gl.message, /gl-entries has no get by id/);
    const args = failed(
      await call(client, 'list_records', { object: 'customers', limit: 101, colour: 'red', filters: 'x' }),
      'VALIDATION_ERROR',
    );
    assert.deepEqual(pathsOf(args).sort(), ['colour', 'filters', 'limit']);
    assert.equal(args.details.issues.find((i: any) => i.path === 'limit').message, 'must be an integer from 1 to 100');
    failed(await call(client, 'get_record', { object: 'customers', id: 'NO-SUCH-CUSTOMER' }), 'NOT_FOUND');
    failed(await call(client, 'get_record', { object: 'customers', id: 12345 }), 'NOT_FOUND');
    failed(await call(client, 'get_record', { object: 'customers' }), 'VALIDATION_ERROR');
    failed(await call(client, 'list_objects', { verbose: true }), 'VALIDATION_ERROR');
  });

  test('filters sent as a JSON string are read as the object it holds; an unknown tool is named once', async () => {
    const client = await connect(keys.test!);
    const asString = ok(await call(client, 'list_records', { object: 'customers', limit: 2, filters: '{"inactive": false}' }));
    const asObject = ok(await call(client, 'list_records', { object: 'customers', limit: 2, filters: { inactive: false } }));
    assert.deepEqual(asString, asObject);
    const notJson = failed(await call(client, 'list_records', { object: 'customers', filters: 'inactive=false' }), 'VALIDATION_ERROR');
    assert.deepEqual(notJson.details.issues, [{ path: 'filters', message: 'must be an object of filters, e.g. {"inactive": false}' }]);
    const res = await post(
      { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'nope', arguments: {} } },
      bearer(keys.test!, { 'mcp-protocol-version': LATEST_PROTOCOL_VERSION }),
    );
    assert.deepEqual(res.body.error, {
      code: -32602,
      message: 'Unknown tool: nope; the tools are list_objects, list_records, get_record, list_events',
    });
  });

  test('bad filters: the issues REST reports, under filters.<name>', async () => {
    const client = await connect(keys.test!);
    const mcp = failed(
      await call(client, 'list_records', {
        object: 'customers',
        filters: { inactive: 'maybe', updatedSince: 'Filter-Value-Never-Logged', shoeSize: 9 },
      }),
      'VALIDATION_ERROR',
    );
    const rest = await t.get('/v1/customers?inactive=maybe&updatedSince=yesterday', bearer(keys.test!));
    assert.deepEqual(mcp.details.issues, [
      { path: 'filters.shoeSize', message: `unknown filter; customers filters are ${Object.keys(OBJECTS.customers.filters).join(', ')}` },
      ...rest.body.error.details.issues.map((i: any) => ({ path: `filters.${i.path}`, message: i.message })),
    ]);
    failed(await call(client, 'list_records', { object: 'customer-addresses' }), 'VALIDATION_ERROR');
  });

  test('bad cursors: altered, of other filters or another company, or not a cursor at all', async () => {
    const client = await connect(keys.test!);
    const cursor: string = ok(await call(client, 'list_records', { object: 'customers', limit: 2 })).nextCursor;
    const tampered = cursor.slice(0, -2) + (cursor.endsWith('A') ? 'BB' : 'AA');
    const rest = await t.get(`/v1/customers?cursor=${encodeURIComponent(tampered)}`, bearer(keys.test!));
    for (const args of [
      { cursor: tampered },
      { cursor, filters: { classId: 'USA-ILMO-T1' } },
      { cursor, company: 'NWIND' },
      { cursor: 'not-a-cursor' },
      { cursor, object: 'vendors' },
    ]) {
      const error = failed(await call(client, 'list_records', { object: 'customers', ...args }), 'VALIDATION_ERROR');
      assert.deepEqual(error.details.issues, rest.body.error.details.issues, JSON.stringify(args));
    }
    ok(await call(client, 'list_records', { object: 'customers', cursor }));
  });

  test('an offline connection is CONNECTION_OFFLINE; a foreign or missing one is the REST 400', async () => {
    const offline = await connect(keys.live!, { 'x-connection-id': liveConnectionId });
    failed(await call(offline, 'list_records', { object: 'customers' }), 'CONNECTION_OFFLINE');
    failed(await call(offline, 'get_record', { object: 'customers', id: 'A' }), 'CONNECTION_OFFLINE');
    ok(await call(offline, 'list_objects', {}));
    const foreign = await connect(keys.live!, { 'x-connection-id': foreignConnectionId });
    const error = failed(await call(foreign, 'list_records', { object: 'customers' }), 'VALIDATION_ERROR');
    const rest = await t.get('/v1/customers', bearer(keys.live!, { 'x-connection-id': foreignConnectionId }));
    assert.equal(error.message, rest.body.error.message);
    assert.deepEqual(error.details.issues, [{ path: 'X-Connection-Id', message: 'no such connection' }]);
    const missing = await connect(keys.live!);
    assert.deepEqual(pathsOf(failed(await call(missing, 'list_records', { object: 'customers' }), 'VALIDATION_ERROR')), [
      'X-Connection-Id',
    ]);
    const testKeyElsewhere = await connect(keys.test!, { 'x-connection-id': liveConnectionId });
    assert.deepEqual(pathsOf(failed(await call(testKeyElsewhere, 'list_records', { object: 'customers' }), 'VALIDATION_ERROR')), [
      'X-Connection-Id',
    ]);
  });
});
