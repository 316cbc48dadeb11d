import pg from 'pg';
import type { Logger } from 'pino';
import type { KeyWithConnection } from '../roles/keys.ts';
import type { KeyMemory } from '../sql/engine.ts';
import { frozen } from '../sql/rows.ts';
import { clientConfig, type PostgresOptions } from './postgresClient.ts';

/** The channel the migrations' triggers notify on when a key or a connection changes (sql/schemaOfOneStore.ts). */
export const KEYS_CHANGED_CHANNEL = 'gateway_keys_changed';

/** Keys remembered at most; more, and memory starts over (as on SQLite). */
const MAX_KEYS_REMEMBERED = 10_000;

/** How long the listener waits before connecting again after losing its connection. */
const RECONNECT_MS = 1_000;

/**
 * The PostgreSQL store's key memory (KeyMemory). Every gateway instance sharing the database must
 * forget at once when a key is
 * revoked or rotated, or a connection changes, anywhere (by another instance, or the operator CLI):
 * a dedicated connection LISTENs on KEYS_CHANGED_CHANNEL, which the tables' triggers notify at every
 * commit that changes them, and each notification empties the memo.
 *
 * Nothing is answered from memory while the listener is not connected (a notification could be
 * missed then), and a read that was in flight when a notification came is not remembered (it may
 * have read the row before the change): `generation` counts what was heard.
 */
export class PostgresKeyMemory implements KeyMemory {
  private readonly found = new Map<string, KeyWithConnection>();
  private generation = 0;
  private listener: pg.Client | null = null;
  private reconnect: NodeJS.Timeout | null = null;
  private closed = false;
  private readonly options: PostgresOptions;
  private readonly log: Logger | undefined;

  constructor(options: PostgresOptions) {
    this.options = options;
    this.log = options.log;
  }

  /** Connects the listener; resolves once it listens (or rejects when the database cannot be reached). */
  async start(): Promise<void> {
    const client = new pg.Client(clientConfig(this.options));
    client.on('notification', () => this.forget());
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client, null));
    await client.connect();
    try {
      await client.query(`LISTEN ${KEYS_CHANGED_CHANNEL}`);
    } catch (error) {
      await client.end().catch(() => {});
      throw error;
    }
    if (this.closed) {
      await client.end();
      return;
    }
    // Whatever changed while no one listened is unknown: start from nothing.
    this.forget();
    this.listener = client;
  }

  private lost(client: pg.Client, error: Error | null): void {
    if (this.listener !== client) return;
    this.listener = null;
    this.forget();
    client.end().catch(() => {});
    if (this.closed) return;
    this.log?.warn(
      { err: error ?? undefined },
      'lost the PostgreSQL listener for key changes; keys are read from the database until it is back',
    );
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    this.reconnect = setTimeout(() => {
      this.reconnect = null;
      if (this.closed) return;
      this.start().then(
        () => this.log?.info('listening for key changes again'),
        () => this.scheduleReconnect(),
      );
    }, RECONNECT_MS);
    this.reconnect.unref();
  }

  /** The key remembered under `memoKey`, if the listener is connected. */
  get(memoKey: string): KeyWithConnection | undefined {
    return this.listener ? this.found.get(memoKey) : undefined;
  }

  /** What `remember` needs from before the read. */
  readStarted(): number {
    return this.generation;
  }

  /** Remembers a key read since `generation`, unless a change was heard meanwhile. */
  remember(memoKey: string, value: KeyWithConnection, generation: number): void {
    if (!this.listener || generation !== this.generation) return;
    if (this.found.size >= MAX_KEYS_REMEMBERED) this.found.clear();
    this.found.set(memoKey, frozen(value));
  }

  /** A key or connection changed (here, or as heard from PostgreSQL). */
  forget(): void {
    this.generation++;
    this.found.clear();
  }

  /** Whether keys are answered from memory now (the listener is connected). */
  get listening(): boolean {
    return this.listener !== null;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.reconnect) clearTimeout(this.reconnect);
    const client = this.listener;
    this.listener = null;
    this.forget();
    await client?.end();
  }
}
