import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Change } from '@gp-gateway/protocol';
import { pollUntil, type ScriptedAgent } from '@gp-gateway/testing';
import { startWriteHarness, type WriteHarness } from '../../../testing/writeHarness.ts';

/**
 * The change feed end to end in the gateway (docs/api.md#events): agents over real WebSockets report
 * changes, the gateway stores them once each and acknowledges, and `GET /v1/events` (and MCP's
 * list_events) reads them with a cursor that follows the feed.
 */
let h: WriteHarness;

before(async () => {
  h = await startWriteHarness();
});
after(() => h.close());

const customer = (id: string, name: string) => ({
  id,
  name,
  statementName: null,
  shortName: null,
  classId: null,
  contactPerson: null,
  primaryAddressCode: null,
  paymentTermsId: null,
  salespersonId: null,
  salesTerritoryId: null,
  currencyId: null,
  creditLimit: '0.00',
  phone: null,
  taxScheduleId: null,
  inactive: false,
  hold: false,
  createdAt: '2026-03-01',
  modifiedAt: '2026-03-01T09:00:00.000Z',
});
const change = (kind: Change['kind'], id: string, at: string): Change => ({
  kind,
  id,
  version: at,
  changedAt: at,
  record: kind === 'deleted' ? null : customer(id, `Customer ${id}`),
});

async function get(path: string, key = h.keys.reader) {
  const res = await fetch(`${h.gateway.url}${path}`, { headers: { authorization: `Bearer ${key}` } });
  return { status: res.status, body: (await res.json()) as any, headers: res.headers };
}

/** Every event the key reads from `cursor` on, following nextCursor until a page is empty; and the cursor to continue from. */
async function readAll(query = '', cursor: string | null = null, key = h.keys.reader) {
  const events: any[] = [];
  for (;;) {
    const sep = query ? '&' : '';
    const page = await get(`/v1/events?limit=2${sep}${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, key);
    assert.equal(page.status, 200, JSON.stringify(page.body));
    assert.equal(typeof page.body.nextCursor, 'string', 'a feed always has a cursor to continue from');
    cursor = page.body.nextCursor;
    if (page.body.data.length === 0) return { events, cursor };
    events.push(...page.body.data);
  }
}

test('an agent is offered the feed, its changes are stored once each however many agents report them, and read in order with a cursor', async () => {
  const first: ScriptedAgent = await h.agent('hq', { host: 'gp-1' });
  assert.deepEqual(first.features, ['changes'], 'the welcome offers the change feed');
  const second: ScriptedAgent = await h.agent('hq', { host: 'gp-2' });

  const changes = [
    change('created', 'ALPHA', '2026-03-01T09:00:00.000Z'),
    change('updated', 'BRAVO', '2026-03-01T09:00:01.000Z'),
    change('deleted', 'CHARLIE', '2026-03-01T09:00:02.000Z'),
  ];
  assert.deepEqual(await first.reportChanges('customers', 'TWO', changes), { stored: 3 });
  assert.deepEqual(await second.reportChanges('customers', 'TWO', changes), { stored: 0 }, 'the second agent finds the same changes');
  assert.deepEqual(
    await first.reportChanges('customers', 'TWO', changes.slice(0, 1)),
    { stored: 0 },
    'a resend after a lost acknowledgement',
  );

  const { events, cursor } = await readAll('type=customer.*');
  assert.deepEqual(
    events.map((e) => [e.type, e.recordId, e.company, e.connectionId]),
    [
      ['customer.created', 'ALPHA', 'TWO', h.connections.hq.id],
      ['customer.updated', 'BRAVO', 'TWO', h.connections.hq.id],
      ['customer.deleted', 'CHARLIE', 'TWO', h.connections.hq.id],
    ],
  );
  assert.deepEqual(events[0].data, customer('ALPHA', 'Customer ALPHA'), 'the record as the API serves it');
  assert.deepEqual(events[2].data, { id: 'CHARLIE' }, 'a delete carries the id only');
  assert.equal(events[1].changedAt, '2026-03-01T09:00:01.000Z');
  assert.match(events[0].id, /^evt_/);

  // Following: the cursor of the last (empty) page reads exactly what came since.
  await first.reportChanges('customers', 'TWO', [change('updated', 'ALPHA', '2026-03-01T09:05:00.000Z')]);
  const since = await readAll('type=customer.*', cursor);
  assert.deepEqual(
    since.events.map((e) => [e.type, e.recordId]),
    [['customer.updated', 'ALPHA']],
  );

  const one = await get(`/v1/events/${events[1].id}`);
  assert.equal(one.status, 200);
  assert.deepEqual(one.body.data, events[1]);
  assert.ok(one.headers.get('x-ratelimit-limit'), 'the same limits and headers as lists');

  const online = await pollUntil('the connection.online event', async () => {
    const read = await readAll('type=connection.online');
    return read.events.length > 0 && read;
  });
  assert.equal(online.events.length, 1, "the connection's first agent brought it online; the second did not again");
  assert.deepEqual(online.events[0].data, { agentVersion: 'scripted', agentHost: 'gp-1' });

  await h.dropAgents();
  const offline = await pollUntil('the connection.offline event', async () => {
    const read = await readAll('type=connection.offline');
    return read.events.length > 0 && read;
  });
  assert.equal(offline.events.length, 1, 'offline once, when its last agent left');
});

test('a change whose record is not its resource is dropped; the rest of the frame is kept', async () => {
  const agent = await h.agent('hq');
  const bad = { ...change('updated', 'DELTA', '2026-03-02T09:00:00.000Z'), record: { id: 'DELTA', sql: 'DROP TABLE' } };
  assert.deepEqual(await agent.reportChanges('customers', 'TWO', [bad, change('created', 'ECHO', '2026-03-02T09:00:01.000Z')]), {
    stored: 1,
  });
  const { events } = await readAll('object=customers&company=two');
  assert.ok(events.some((e) => e.recordId === 'ECHO'));
  assert.ok(!events.some((e) => e.recordId === 'DELTA'));
  assert.ok(h.logs.some((l) => l.includes('not a valid resource')));
  await h.dropAgents();
});

test('bad filters, cursors and ids get the documented envelope; test keys do not see live connections', async () => {
  const bad = async (query: string, path: string) => {
    const res = await get(`/v1/events?${query}`);
    assert.equal(res.status, 400, query);
    assert.equal(res.body.error.code, 'VALIDATION_ERROR');
    assert.equal(res.body.error.details.issues[0].path, path, query);
  };
  await bad('type=customers.*', 'type');
  await bad('object=gl-entries', 'object');
  await bad('since=yesterday', 'since');
  await bad('limit=1001', 'limit');
  await bad('cursor=abc', 'cursor');
  await bad('connectionId=sandbox', 'connectionId');
  const { cursor } = await readAll('type=customer.*');
  await bad(`type=vendor.*&cursor=${encodeURIComponent(cursor!)}`, 'cursor');

  assert.equal((await get('/v1/events/evt_nothing')).status, 404);
  assert.equal((await get(`/v1/events/${'x'.repeat(600)}`)).body.error.code, 'NOT_FOUND');
  const tester = await readAll('', null, h.keys.tester);
  assert.deepEqual(tester.events, [], 'a test key reads the sandbox, which has no events of live connections');
  const live = (await readAll('')).events;
  assert.equal((await get(`/v1/events/${live[0].id}`, h.keys.tester)).status, 404);
  assert.equal((await fetch(`${h.gateway.url}/v1/events`)).status, 401);
});

test('MCP list_events reads the same feed with the same checks', async () => {
  const client = new Client({ name: 'events-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${h.gateway.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${h.keys.reader}` } },
    }),
  );
  try {
    const result = (await client.callTool({ name: 'list_events', arguments: { types: ['customer.created'] } })) as CallToolResult;
    const page = JSON.parse((result.content[0] as { text: string }).text) as { data: { recordId: string }[]; nextCursor: string };
    assert.deepEqual(
      page.data.map((e) => e.recordId),
      ['ALPHA', 'ECHO'],
    );
    const refused = (await client.callTool({ name: 'list_events', arguments: { types: ['customers.*'] } })) as CallToolResult;
    assert.equal(refused.isError, true);
    assert.equal(JSON.parse((refused.content[0] as { text: string }).text).error.details.issues[0].path, 'types');
  } finally {
    await client.close();
  }
});

test('a committed API write is an event at once; its later detection, with the same DEX_ROW_TS, is the same event', async () => {
  const written = { ...customer('WRITTEN1', 'Written by the API'), modifiedAt: '2026-03-03T10:00:00.123Z' };
  const agent = await h.agent('hq', {
    // As the real agent answers a write: the record read back from GP, DEX_ROW_TS as modifiedAt.
    script: ({ id, op }, a) =>
      op.kind === 'write'
        ? op.validateOnly
          ? a.respond(id, 'validated', JSON.stringify({ ...written, id: 'WRITTEN2', modifiedAt: '2026-03-03T11:00:00.000Z' }))
          : a.respond(id, 'created', JSON.stringify(written))
        : a.error(id, 'INTERNAL_ERROR', 'no reads'),
  });
  const { cursor } = await readAll('type=customer.*');
  const res = await h.post('/v1/customers', { id: 'WRITTEN1', name: 'Written by the API' });
  assert.equal(res.status, 201, res.text);
  const atOnce = await readAll('type=customer.*', cursor);
  assert.deepEqual(
    atOnce.events.map((e) => [e.type, e.recordId, e.changedAt]),
    [['customer.created', 'WRITTEN1', '2026-03-03T10:00:00.123Z']],
    'the write is in the feed before its answer is',
  );
  assert.deepEqual(atOnce.events[0].data, written);

  // The agent's detection finds the row it wrote, stamped as read back: nothing new.
  const detected: Change = {
    kind: 'created',
    id: 'WRITTEN1',
    version: '2026-03-03 10:00:00.123',
    changedAt: written.modifiedAt,
    record: written,
  };
  assert.deepEqual(await agent.reportChanges('customers', 'TWO', [detected]), { stored: 0 });
  // A later change of it is a change.
  const renamed = { ...written, name: 'Renamed in GP', modifiedAt: '2026-03-03T10:05:00.000Z' };
  const update: Change = {
    kind: 'updated',
    id: 'WRITTEN1',
    version: '2026-03-03 10:05:00.000',
    changedAt: renamed.modifiedAt,
    record: renamed,
  };
  assert.deepEqual(await agent.reportChanges('customers', 'TWO', [update]), { stored: 1 });
  assert.deepEqual(
    (await readAll('type=customer.*', atOnce.cursor)).events.map((e) => [e.type, e.recordId]),
    [['customer.updated', 'WRITTEN1']],
  );

  // Validate-only writes change nothing, so they are no event.
  const validated = await h.post('/v1/customers?validateOnly=true', { id: 'WRITTEN2', name: 'Only validated' });
  assert.ok(validated.status < 300, validated.text);
  assert.ok(!(await readAll('type=customer.*')).events.some((e) => e.recordId === 'WRITTEN2'));
  await h.dropAgents();
});
