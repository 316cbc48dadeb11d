import type { AgentSessionsStore } from './roles/agentSessions.ts';
import type { EventsStore } from './roles/events.ts';
import type { IdempotencyStore } from './roles/idempotency.ts';
import type { KeysStore } from './roles/keys.ts';
import type { OAuthStore } from './roles/oauth.ts';
import type { UsageStore } from './roles/usage.ts';
import type { UsersStore } from './roles/users.ts';
import type { WebhooksStore } from './roles/webhooks.ts';

export * from './roles/agentSessions.ts';
export * from './roles/events.ts';
export * from './roles/idempotency.ts';
export * from './roles/keys.ts';
export * from './roles/oauth.ts';
export * from './roles/usage.ts';
export * from './roles/users.ts';
export * from './roles/webhooks.ts';

/**
 * The gateway's persistent state, one interface per role (roles/). One implementation
 * (sql/sqlStore.ts) runs on the embedded SQLite file or on the PostgreSQL database several instances
 * share (docs/decisions.md#several-gateway-instances), through Kysely; testing/storeContract.ts is what it must do on both. Front ends change
 * it through the admin service, not directly.
 */
export interface Store
  extends KeysStore, AgentSessionsStore, UsersStore, UsageStore, IdempotencyStore, EventsStore, OAuthStore, WebhooksStore {
  /**
   * Resolves when the store answers within `timeoutMs`, else rejects (`/ready`). A store that can be
   * down on its own (PostgreSQL) also learns from a check that gets no answer: its requests are then
   * refused at once (503 SERVICE_UNAVAILABLE) rather than each waiting.
   */
  checkReachable(timeoutMs: number): Promise<void>;

  close(): Promise<void>;
}
