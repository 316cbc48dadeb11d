import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { pollUntil, ScriptedAgent } from '@gp-gateway/testing';
import { AdminService } from '../../core/admin/adminService.ts';
import { sha256Hex } from '../../core/auth/secrets.ts';
import type { ApiKey, ConnectionWithPresence } from '../../infrastructure/store/store.ts';
import { startWriteHarness, type WriteHarness } from '../../testing/writeHarness.ts';
import { firstRunChecklist } from './firstRun.ts';

/** The keys page's first-run checklist (issue 36 item 7): its steps as the organisation's state says, and the page until all are done. */
const presence = (lastSeenAt: string | null, connectedAgents = 0) => ({
  connectedAgents,
  lastSeenAt,
  agentVersion: null,
  agentHost: null,
  companies: [],
});
const connection = (id: string, name: string, lastSeenAt: string | null): ConnectionWithPresence => ({
  id,
  orgId: 'org_1',
  name,
  agentTokenHash: id === 'sandbox' ? null : 'h',
  defaultCompany: null,
  writeWhitelist: [],
  createdAt: '2026-05-01T00:00:00.000Z',
  previousAgentTokenUntil: null,
  presence: presence(lastSeenAt),
  agents: [],
  lastAgentDetails: null,
});
const key = (id: string, mode: 'live' | 'test', extra: Partial<ApiKey> = {}): ApiKey => ({
  id,
  orgId: 'org_1',
  name: `${mode} key`,
  prefix: 'lb_x',
  mode,
  scopes: ['read'],
  secretHash: '',
  createdAt: '2026-05-01T00:00:00.000Z',
  revokedAt: null,
  rotatedAt: null,
  lastUsedAt: null,
  previousSecretHash: null,
  previousSecretUntil: null,
  ...extra,
});
const done = (c: ReturnType<typeof firstRunChecklist>) => c!.steps.map((s) => s.done);
const URL_ = 'https://gateway.example.com/';

test('each step is done by its own fact: an agent that connected once, an active live key, a request with a live key', () => {
  const sandboxOnly = firstRunChecklist({
    connections: [connection('sandbox', 'Sandbox', '2026-05-01T00:00:00Z')],
    keys: [key('k1', 'test', { lastUsedAt: 'x' })],
    daily: [],
    publicUrl: URL_,
  });
  assert.deepEqual(done(sandboxOnly), [false, false, false], 'the sandbox and a test key count for nothing');
  assert.equal(
    sandboxOnly!.curl,
    'curl -H "Authorization: Bearer $KEY" -H "X-Connection-Id: <your connection id>" "https://gateway.example.com/v1/companies"',
  );

  const neverConnected = firstRunChecklist({ connections: [connection('conn_a', 'Plant', null)], keys: [], daily: [], publicUrl: URL_ });
  assert.deepEqual(done(neverConnected), [false, false, false]);
  assert.match(neverConnected!.curl, /X-Connection-Id: conn_a/, 'the curl names the connection already');

  const connected = [connection('conn_a', 'Plant', null), connection('conn_b', 'HQ', '2026-05-01T00:00:00Z')];
  const keyed = firstRunChecklist({
    connections: connected,
    keys: [key('k1', 'live', { revokedAt: 'x' }), key('k2', 'live')],
    daily: [],
    publicUrl: URL_,
  });
  assert.deepEqual(done(keyed), [true, true, false]);
  assert.match(keyed!.curl, /X-Connection-Id: conn_b/, 'the connection whose agent connected');
  assert.equal(keyed!.connectionName, 'HQ');

  const counted = { orgId: 'org_1', keyId: 'k2', day: '2026-05-02', statusClass: '2xx', requests: 1 };
  assert.equal(
    firstRunChecklist({ connections: connected, keys: [key('k2', 'live')], daily: [counted], publicUrl: URL_ }),
    null,
    'all done: no checklist',
  );
  assert.equal(
    firstRunChecklist({
      connections: connected,
      keys: [key('k2', 'live', { lastUsedAt: '2026-05-02T00:00:00Z' })],
      daily: [],
      publicUrl: URL_,
    }),
    null,
  );
  const testKeyCalls = firstRunChecklist({
    connections: connected,
    keys: [key('k2', 'live'), key('k3', 'test')],
    daily: [{ ...counted, keyId: 'k3' }],
    publicUrl: URL_,
  });
  assert.deepEqual(done(testKeyCalls), [true, true, false], 'a test key’s requests are not a first call');
});

let h: WriteHarness;
let admin: AdminService;
let orgId = '';
let session = '';

before(async () => {
  h = await startWriteHarness();
  admin = new AdminService(h.store);
  orgId = (await admin.createOrganisation('First run')).id;
  const user = (await h.store.createUser({ orgId, email: 'ann@first.example', role: 'admin' }))!;
  session = randomBytes(24).toString('base64url');
  await h.store.createDashboardSession({ idHash: sha256Hex(session), userId: user.id, at: new Date() });
});
after(() => h.close());

async function keysPage(): Promise<string> {
  const res = await fetch(`${h.gateway.url}/dashboard/keys`, { headers: { cookie: `__Host-gp_session=${session}` }, redirect: 'manual' });
  assert.equal(res.status, 200);
  return res.text();
}
const stepsOf = (html: string) => [...html.matchAll(/<strong>([^<]+)<\/strong> · (done|to do)/g)].map((m) => `${m[1]}: ${m[2]}`);

test('the keys page shows the checklist with a ready curl until the agent connected, a live key exists and it made a call', async () => {
  let html = await keysPage();
  assert.deepEqual(stepsOf(html), ['Connect GP: to do', 'Create a key: to do', 'Make a first call: to do']);
  assert.match(html, /<section class="card checklist" aria-labelledby="first-run">/);

  const plant = await admin.createConnection({ orgId, name: 'Plant', defaultCompany: 'TWO' });
  const agent = await ScriptedAgent.connect(h.gateway.url, plant.agentToken);
  try {
    await pollUntil('the agent counted as connected', async () =>
      (await admin.listConnections(orgId)).some((c) => c.presence.connectedAgents > 0),
    );
    html = await keysPage();
    assert.deepEqual(stepsOf(html), ['Connect GP: done', 'Create a key: to do', 'Make a first call: to do']);
    assert.ok(
      html.includes(
        `curl -H &quot;Authorization: Bearer $KEY&quot; -H &quot;X-Connection-Id: ${plant.connection.id}&quot; &quot;${h.gateway.url}/v1/companies&quot;`,
      ),
      'the curl with the connection id and the public base URL',
    );

    const { secret } = await admin.issueApiKey({ orgId, name: 'ERP', mode: 'live', scopes: ['read'] });
    assert.deepEqual(stepsOf(await keysPage()), ['Connect GP: done', 'Create a key: done', 'Make a first call: to do']);

    const call = await fetch(`${h.gateway.url}/v1/companies`, {
      headers: { authorization: `Bearer ${secret}`, 'x-connection-id': plant.connection.id },
    });
    await call.arrayBuffer();
    await h.gateway.usage.flush();
    html = await keysPage();
    assert.deepEqual(stepsOf(html), [], 'all done: the checklist is gone');
    assert.doesNotMatch(html, /Getting started/);
  } finally {
    agent.drop();
  }
});
