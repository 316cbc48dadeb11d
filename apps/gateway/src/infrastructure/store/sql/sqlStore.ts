import type {
  AgentSessionsStore,
  EventsStore,
  IdempotencyStore,
  KeysStore,
  OAuthStore,
  Store,
  UsageStore,
  UsersStore,
  WebhooksStore,
} from '../store.ts';
import { AgentSessionsTables } from './agentSessionsTables.ts';
import type { StoreEngine } from './engine.ts';
import { EventsTables } from './eventsTables.ts';
import { IdempotencyTables } from './idempotencyTables.ts';
import { KeysTables } from './keysTables.ts';
import { OAuthTables } from './oauthTables.ts';
import { UsageTables } from './usageTables.ts';
import { UsersTables } from './usersTables.ts';
import { WebhooksTables } from './webhooksTables.ts';

/** A part's public methods bound to it, to be spread into the store (its getters stay behind). */
function methodsOf<T extends object>(part: T): T {
  const methods: Record<string, unknown> = {};
  for (const [name, descriptor] of Object.entries(Object.getOwnPropertyDescriptors(Object.getPrototypeOf(part)))) {
    if (name !== 'constructor' && typeof descriptor.value === 'function') methods[name] = descriptor.value.bind(part);
  }
  return methods as T;
}

/**
 * The gateway's store: one implementation, whichever engine it runs on (engines/sqlite.ts, the
 * embedded default; engines/postgres.ts, shared by several instances), made of one part per role,
 * on a database already migrated (openStore.ts).
 */
export function storeOn(engine: StoreEngine): Store {
  return {
    ...methodsOf<KeysStore>(new KeysTables(engine)),
    ...methodsOf<AgentSessionsStore>(new AgentSessionsTables(engine)),
    ...methodsOf<UsersStore>(new UsersTables(engine)),
    ...methodsOf<UsageStore>(new UsageTables(engine)),
    ...methodsOf<IdempotencyStore>(new IdempotencyTables(engine)),
    ...methodsOf<EventsStore>(new EventsTables(engine)),
    ...methodsOf<OAuthStore>(new OAuthTables(engine)),
    ...methodsOf<WebhooksStore>(new WebhooksTables(engine)),
    checkReachable: (timeoutMs) => engine.checkReachable(timeoutMs),
    close: () => engine.close(),
  };
}
