import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { PresenceEntry } from '../agents/redisPresence.ts';
import { tempStore } from '../../testing/tempStore.ts';
import { AdminService } from './adminService.ts';

/**
 * Agent status with Redis presence (admin/livePresence.ts): the agents connected now are those the
 * instances announce; a session the store still counts for an instance that died is not; a Redis
 * that cannot be read leaves the store's view.
 */
test('connection status counts the agents Redis names, and falls back to the store when Redis fails', async () => {
  const { store, admin, dispose } = await tempStore();
  try {
    const org = await admin.createOrganisation('Presence Co');
    const { connection } = await admin.createConnection({ orgId: org.id, name: 'hq', defaultCompany: 'TWO' });
    const session = (id: string, gatewayId: string, companies: string[]) =>
      store.recordAgentConnected({
        id,
        connectionId: connection.id,
        gatewayId,
        agentVersion: '0.1.0',
        agentHost: `host-${gatewayId}`,
        companies,
        details: { platform: 'linux', dialect: 'mssql', gpVersion: null, database: 'ok', databaseMessage: null, draining: false },
        at: new Date(),
      });
    // A's session is the one of an instance killed a moment ago; B holds the agent now.
    await session('as_a', 'A', ['TWO']);
    await session('as_b', 'B', ['TWO', 'NWIND']);
    let holders: PresenceEntry[] | Error = [{ instanceId: 'B', agents: [{ host: 'host-B', version: '0.1.0', draining: false }] }];
    const live = new AdminService(store, undefined, {
      holders: async () => {
        if (holders instanceof Error) throw holders;
        return holders;
      },
    });
    const hq = async (service: AdminService) => (await service.listConnections(org.id)).find((c) => c.id === connection.id)!;

    assert.equal((await hq(admin)).presence.connectedAgents, 2, 'the store alone counts both sessions');
    for (const service of [live, live.by({ name: 'a dashboard user', address: null })]) {
      const seen = await hq(service);
      assert.equal(seen.presence.connectedAgents, 1);
      assert.deepEqual(
        seen.agents.map((a) => a.gatewayId),
        ['B'],
      );
      assert.deepEqual(seen.presence.companies.sort(), ['NWIND', 'TWO']);
    }
    holders = [];
    assert.deepEqual(
      [(await hq(live)).presence.connectedAgents, (await hq(live)).agents, (await hq(live)).presence.companies],
      [0, [], []],
    );
    holders = new Error('Connection is closed.');
    assert.equal((await hq(live)).presence.connectedAgents, 2, 'Redis unreadable: the store’s view');
  } finally {
    await dispose();
  }
});
