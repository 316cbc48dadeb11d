import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import pino from 'pino';
import { encodeFrame, PROTOCOL_VERSION } from '@gp-gateway/protocol';
import { tempStore } from '../../testing/tempStore.ts';
import { AgentPresenceRecorder } from './agentPresence.ts';
import { AgentLink } from './agentLink.ts';
import { LocalAgentRouter } from './agentRouter.ts';

/** What a gateway writes about its agents, for the operator CLI in another process to read. */
const { store, dispose } = await tempStore();
after(dispose);

const log = pino({ level: 'silent' });
function agentLink(host: string, companies: string[]): AgentLink {
  const hello = {
    agent: { version: '0.1.0', host, platform: 'linux', dialect: 'sqlite' as const },
    companies: companies.map((id) => ({ id, name: null, number: null })),
  };
  return new AgentLink({ send: () => {}, close: () => {} }, hello, log);
}

async function setUp() {
  const router = new LocalAgentRouter();
  const presence = new AgentPresenceRecorder({ store, gatewayId: 'gw_test', log });
  router.listen(presence);
  return { router, presence };
}

test('agents joining and leaving a connection show in its presence, version and host of the newest one', async () => {
  const org = await store.createOrganisation('Presence');
  const conn = await store.createConnection({ orgId: org.id, name: 'HQ', agentTokenHash: 'a'.repeat(64), defaultCompany: 'TWO' });
  const presenceOf = async () => (await store.listConnections(org.id)).find((c) => c.id === conn.id)!.presence;
  const { router, presence } = await setUp();

  const first = agentLink('gp01', ['TWO']);
  const second = agentLink('gp02', ['TWO', 'NWIND']);
  router.add(conn.id, first);
  router.add(conn.id, second);
  await presence.settled();
  const both = await presenceOf();
  assert.deepEqual(
    { ...both, lastSeenAt: null },
    { connectedAgents: 2, lastSeenAt: null, agentVersion: '0.1.0', agentHost: 'gp02', companies: ['TWO', 'NWIND'] },
  );

  const left = new Date().toISOString();
  router.remove(conn.id, second);
  router.remove(conn.id, first);
  router.remove(conn.id, first);
  await presence.settled();
  const none = await presenceOf();
  assert.deepEqual(
    { ...none, lastSeenAt: null },
    { connectedAgents: 0, lastSeenAt: null, agentVersion: '0.1.0', agentHost: 'gp01', companies: [] },
  );
  assert.ok(none.lastSeenAt! >= left, `last seen ${none.lastSeenAt} is when the agent left`);
});

test("the built-in agent shows on every organisation's sandbox; a stopping gateway takes its agents out", async () => {
  const sandbox = { name: 'Demo sandbox', defaultCompany: 'TWO' };
  const a = await store.createOrganisation('Sandbox A', { sandbox });
  const b = await store.createOrganisation('Sandbox B', { sandbox });
  const { router, presence } = await setUp();
  router.add('sandbox', agentLink('gateway-host', ['TWO', 'NWIND']));
  await presence.settled();
  for (const org of [a, b]) assert.equal((await store.listConnections(org.id))[0]?.presence.connectedAgents, 1);
  await presence.stop();
  for (const org of [a, b]) assert.equal((await store.listConnections(org.id))[0]?.presence.connectedAgents, 0);
});

test("an agent's write check, sent in its status, is kept with its details for the dashboard", async () => {
  const org = await store.createOrganisation('Write check');
  const conn = await store.createConnection({ orgId: org.id, name: 'HQ', agentTokenHash: 'b'.repeat(64), defaultCompany: 'TWO' });
  const { router, presence } = await setUp();
  const link = agentLink('gp03', ['TWO']);
  router.add(conn.id, link);
  const writeCheck = {
    checkedAt: '2026-11-26T12:00:00.000Z',
    companies: [
      {
        company: 'TWO',
        objects: [
          { object: 'customers' as const, status: 'works' as const },
          { object: 'ap-invoices' as const, status: 'forbidden' as const, message: 'lacks EXECUTE on DYNAMICS..smGetConstantInt' },
        ],
      },
    ],
  };
  const health = { database: 'ok', databaseMessage: null, gpVersion: 'demo', checkedAt: '2026-11-26T12:00:00.000Z', writeCheck };
  link.receive(encodeFrame({ v: PROTOCOL_VERSION, type: 'status', companies: [{ id: 'TWO', name: null, number: null }], health }));
  await presence.settled();
  const [agent] = (await store.listConnections(org.id)).find((c) => c.id === conn.id)!.agents;
  assert.deepEqual(agent!.details!.writeCheck, writeCheck);
  await presence.stop();
});
