import { after } from 'node:test';
import type { Store } from '../infrastructure/store/store.ts';
import { eventsStoreContract } from './storeContract/events.ts';
import { idempotencyStoreContract } from './storeContract/idempotency.ts';
import { keysStoreContract } from './storeContract/keys.ts';
import { oauthStoreContract } from './storeContract/oauth.ts';
import type { StoreUnderTest } from './storeContract/support.ts';
import { usageStoreContract } from './storeContract/usage.ts';
import { usersStoreContract } from './storeContract/users.ts';
import { webhooksStoreContract } from './webhooksStoreContract.ts';

/**
 * The store contract: what the one store must do on each engine, role by role as the interface is
 * split (infrastructure/store/roles/), run by store/sqliteStore.test.ts and store/postgresStore.test.ts
 * inside the caller's describe block.
 */
export function storeContract(subject: StoreUnderTest): void {
  const opened: Store[] = [];
  const fresh = async () => {
    const store = await subject.fresh();
    opened.push(store);
    return store;
  };
  after(() => Promise.all(opened.map((s) => s.close())));

  const suite = {
    fresh,
    async twoOnOne() {
      const pair = await subject.twoOnOneDatabase();
      opened.push(...pair);
      return pair;
    },
    changeHeardWithinMs: subject.changeHeardWithinMs,
  };
  keysStoreContract(suite);
  usersStoreContract(suite);
  oauthStoreContract(suite);
  usageStoreContract(suite);
  idempotencyStoreContract(suite);
  eventsStoreContract(suite);
  // Its stores are closed by each test when it ends: a PostgreSQL server has only so many connections.
  webhooksStoreContract(subject.fresh, subject.twoOnOneDatabase);
}
