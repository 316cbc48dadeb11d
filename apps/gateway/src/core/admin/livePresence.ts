import type { PresenceEntry } from '../agents/redisPresence.ts';
import { SANDBOX_CONNECTION_ID, type ConnectionWithPresence } from '../../infrastructure/store/store.ts';

/** Which instances hold a connection's agents now (Redis presence, agents/redisPresence.ts). */
export interface LiveAgents {
  holders(connectionId: string): Promise<PresenceEntry[]>;
}

/**
 * A connection's status as operators see it, with Redis presence over the store's sessions when the
 * gateway runs as several instances: Redis knows within a few heartbeats that an instance died
 * (its announcements expire), while the store counts a dead instance's sessions until they go
 * stale (AGENT_PRESENCE_STALE_MS, a minute). So the agents connected now are those Redis names;
 * the store keeps what it alone knows (details, last seen, the most recent agent). When Redis
 * cannot be read, the store's view is shown as it is: status is for people and must not fail.
 */
export async function withLivePresence(connections: ConnectionWithPresence[], live: LiveAgents): Promise<ConnectionWithPresence[]> {
  return Promise.all(
    connections.map(async (c) => {
      // Every instance runs its own built-in sandbox agent; it is not announced.
      if (c.id === SANDBOX_CONNECTION_ID) return c;
      let holders: PresenceEntry[];
      try {
        holders = await live.holders(c.id);
      } catch {
        return c;
      }
      const instances = new Set(holders.map((h) => h.instanceId));
      const connectedAgents = holders.reduce((n, h) => n + h.agents.length, 0);
      const agents = c.agents.filter((a) => instances.has(a.gatewayId));
      const companies = connectedAgents ? [...new Set(agents.flatMap((a) => a.companies))] : [];
      return { ...c, agents, presence: { ...c.presence, connectedAgents, companies } };
    }),
  );
}
