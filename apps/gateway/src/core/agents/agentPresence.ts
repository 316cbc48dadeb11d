import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { AGENT_PRESENCE_REFRESH_MS, type AgentDetails, type Store } from '../../infrastructure/store/store.ts';
import type { AgentLink } from './agentLink.ts';
import type { AgentLinkListener } from './agentRouter.ts';

export interface AgentPresenceOptions {
  store: Store;
  /** This gateway instance, so several instances' sessions can be told apart. */
  gatewayId: string;
  log: Logger;
  refreshMs?: number;
}

/**
 * Writes which agents this gateway holds into the store, so the operator CLI (another process)
 * and later the dashboard can show each connection's agents: a session row on connect, refreshed
 * every `refreshMs` while it lasts, removed on disconnect. If the gateway dies without saying so,
 * readers stop counting its sessions once they are stale (AGENT_PRESENCE_STALE_MS).
 *
 * Store failures are logged, never thrown: presence is for people, serving requests is not
 * allowed to depend on it.
 */
export class AgentPresenceRecorder implements AgentLinkListener {
  private readonly options: AgentPresenceOptions;
  private readonly sessions = new Map<AgentLink, string>();
  /** Writes run one after another, so a disconnect never overtakes its connect. */
  private queue: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(options: AgentPresenceOptions) {
    this.options = options;
  }

  start(): void {
    this.timer = setInterval(() => {
      const ids = [...this.sessions.values()];
      if (ids.length) this.write('refresh', () => this.options.store.recordAgentsSeen(ids, new Date()));
    }, this.options.refreshMs ?? AGENT_PRESENCE_REFRESH_MS);
    this.timer.unref();
  }

  added(agentKey: string, link: AgentLink): void {
    if (this.stopped) return;
    const id = `as_${randomBytes(12).toString('base64url')}`;
    this.sessions.set(link, id);
    this.write('connect', () =>
      this.options.store.recordAgentConnected({
        id,
        connectionId: agentKey,
        gatewayId: this.options.gatewayId,
        agentVersion: link.agent.version,
        agentHost: link.agent.host,
        companies: link.companies.map((c) => c.id),
        details: detailsOf(link),
        at: new Date(),
      }),
    );
  }

  updated(_agentKey: string, link: AgentLink): void {
    const id = this.sessions.get(link);
    if (id === undefined || this.stopped) return;
    const update = { companies: link.companies.map((c) => c.id), details: detailsOf(link) };
    this.write('details', () => this.options.store.recordAgentDetails(id, update, new Date()));
  }

  removed(_agentKey: string, link: AgentLink): void {
    const id = this.sessions.get(link);
    if (id === undefined || this.stopped) return;
    this.sessions.delete(link);
    this.write('disconnect', () => this.options.store.recordAgentDisconnected(id, new Date()));
  }

  /** Marks every agent of this gateway as gone (it is shutting down) and waits for the writes. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    const ids = [...this.sessions.values()];
    this.sessions.clear();
    for (const id of ids) this.write('disconnect', () => this.options.store.recordAgentDisconnected(id, new Date()));
    this.stopped = true;
    await this.queue;
  }

  /** Resolves once every presence write asked for so far has been made. */
  settled(): Promise<void> {
    return this.queue;
  }

  private write(what: string, run: () => Promise<void>): void {
    this.queue = this.queue.then(run).catch((error: unknown) => {
      this.options.log.warn({ err: error, what }, 'could not record agent presence');
    });
  }
}

/** What operators see of an agent beyond version and host. */
function detailsOf(link: AgentLink): AgentDetails {
  return {
    platform: link.agent.platform,
    dialect: link.agent.dialect,
    ...(link.agent.commit && { commit: link.agent.commit }),
    ...(link.agent.node && { node: link.agent.node }),
    gpVersion: link.health?.gpVersion ?? null,
    database: link.health?.database ?? 'unknown',
    databaseMessage: link.health?.databaseMessage ?? null,
    draining: link.draining,
    allowWrites: link.agent.allowWrites === true,
    ...(link.health?.writeCheck && { writeCheck: link.health.writeCheck }),
  };
}
