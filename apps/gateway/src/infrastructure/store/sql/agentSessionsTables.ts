import { AGENT_PRESENCE_STALE_MS, type AgentDetails, type AgentSessionsStore, type NewAgentSession } from '../roles/agentSessions.ts';
import { chunks } from './chunks.ts';
import type { StoreEngine } from './engine.ts';
import { jsonText, parsedJson } from './rows.ts';

/**
 * The agents the gateways hold (AgentSessionsStore) on either engine: a row per agent link, and the
 * connection's last-known agent kept for when none is connected. Not what a key reads as, so no
 * change here makes anyone forget remembered keys.
 */
export class AgentSessionsTables implements AgentSessionsStore {
  private readonly engine: StoreEngine;

  constructor(engine: StoreEngine) {
    this.engine = engine;
  }

  async recordAgentConnected(session: NewAgentSession): Promise<void> {
    const at = session.at.toISOString();
    const details = session.details ? jsonText(session.details) : null;
    await this.engine.transaction(async (trx) => {
      // Sessions of gateways that died without saying so are dropped here rather than by a timer.
      await trx
        .deleteFrom('agent_sessions')
        .where('last_seen_at', '<', new Date(session.at.getTime() - AGENT_PRESENCE_STALE_MS).toISOString())
        .execute();
      await trx
        .insertInto('agent_sessions')
        .values({
          id: session.id,
          connection_id: session.connectionId,
          gateway_id: session.gatewayId,
          agent_version: session.agentVersion,
          agent_host: session.agentHost,
          companies: jsonText(session.companies),
          details,
          connected_at: at,
          last_seen_at: at,
        })
        .execute();
      await trx
        .updateTable('connections')
        .set({
          last_agent_seen_at: at,
          last_agent_version: session.agentVersion,
          last_agent_host: session.agentHost,
          last_agent_details: details,
        })
        .where('id', '=', session.connectionId)
        .execute();
    });
  }

  async recordAgentsSeen(sessionIds: string[], at: Date): Promise<void> {
    if (!sessionIds.length) return;
    const seen = at.toISOString();
    await this.engine.transaction(async (trx) => {
      const connections = new Set<string>();
      for (const some of chunks(sessionIds)) {
        const rows = await trx
          .updateTable('agent_sessions')
          .set({ last_seen_at: seen })
          .where('id', 'in', some)
          .returning('connection_id')
          .execute();
        for (const row of rows) connections.add(row.connection_id);
      }
      // Sorted, so two instances updating the same connections lock them in one order and cannot deadlock.
      for (const some of chunks([...connections].sort()))
        await trx.updateTable('connections').set({ last_agent_seen_at: seen }).where('id', 'in', some).execute();
    });
  }

  async recordAgentDetails(sessionId: string, update: { companies: string[]; details: AgentDetails }, at: Date): Promise<void> {
    const seen = at.toISOString();
    const details = jsonText(update.details);
    await this.engine.transaction(async (trx) => {
      const session = await trx
        .updateTable('agent_sessions')
        .set({ companies: jsonText(update.companies), details, last_seen_at: seen })
        .where('id', '=', sessionId)
        .returning('connection_id')
        .executeTakeFirst();
      if (session)
        await trx
          .updateTable('connections')
          .set({ last_agent_seen_at: seen, last_agent_details: details })
          .where('id', '=', session.connection_id)
          .execute();
    });
  }

  async recordAgentDisconnected(sessionId: string, at: Date): Promise<void> {
    await this.engine.transaction(async (trx) => {
      const gone = await trx
        .deleteFrom('agent_sessions')
        .where('id', '=', sessionId)
        .returning(['connection_id', 'agent_version', 'agent_host', 'details'])
        .executeTakeFirst();
      if (!gone) return;
      const details = gone.details === null ? null : jsonText(parsedJson(gone.details));
      await trx
        .updateTable('connections')
        .set((eb) => ({
          last_agent_seen_at: at.toISOString(),
          last_agent_version: gone.agent_version,
          last_agent_host: gone.agent_host,
          last_agent_details: eb.fn.coalesce(eb.val(details), 'last_agent_details'),
        }))
        .where('id', '=', gone.connection_id)
        .execute();
    });
  }
}
