import type pg from 'pg';
import type { IdempotencyClaim, IdempotencyClaimResult, StoredResponse } from '../store.ts';
import type { Database } from './database.ts';

interface IdempotencyRow {
  fingerprint: string;
  operation_id: string;
  state: 'pending' | 'completed';
  /** ISO-8601 UTC, as the store's pool reads timestamptz (database.ts): compares as the instant it names. */
  lease_until: string;
  response_status: number | null;
  response_type: string | null;
  response_body: Buffer | null;
  expires_at: string;
}

/**
 * The PostgreSQL side of the Store's idempotency keys (migrations/0004_idempotency.sql). A claim is
 * one transaction: an insert that does nothing when the key exists, else the row locked FOR UPDATE
 * and decided on, so two instances claiming one key at once never both run the write.
 */
export class PostgresIdempotencyTables {
  private readonly db: Database;

  constructor(db: Database) {
    this.db = db;
  }

  claim(claim: IdempotencyClaim): Promise<IdempotencyClaimResult> {
    const at = claim.at.toISOString();
    return this.db.transaction(async (client) => {
      // The sweep may delete an expired row between the insert and the lock: then insert again.
      for (;;) {
        if (await this.insertNew(client, claim)) return { kind: 'claimed' };
        const { rows } = await client.query<IdempotencyRow>('SELECT * FROM idempotency_keys WHERE org_id = $1 AND key = $2 FOR UPDATE', [
          claim.orgId,
          claim.key,
        ]);
        const row = rows[0];
        if (!row) continue;
        if (row.expires_at <= at) {
          await client.query('DELETE FROM idempotency_keys WHERE org_id = $1 AND key = $2', [claim.orgId, claim.key]);
          continue;
        }
        if (row.fingerprint !== claim.fingerprint) return { kind: 'body_mismatch' };
        if (row.state === 'completed') return { kind: 'completed', response: responseOf(row) };
        if (row.lease_until > at) return { kind: 'in_flight' };
        await client.query('UPDATE idempotency_keys SET lease_until = $3 WHERE org_id = $1 AND key = $2', [
          claim.orgId,
          claim.key,
          claim.leaseUntil,
        ]);
        return { kind: 'resumed', operationId: row.operation_id };
      }
    });
  }

  private async insertNew(client: pg.PoolClient, claim: IdempotencyClaim): Promise<boolean> {
    const { rowCount } = await client.query(
      `INSERT INTO idempotency_keys (org_id, key, fingerprint, operation_id, state, lease_until, created_at, expires_at)
       VALUES ($1, $2, $3, $4, 'pending', $5, $6, $7)
       ON CONFLICT (org_id, key) DO NOTHING`,
      [claim.orgId, claim.key, claim.fingerprint, claim.operationId, claim.leaseUntil, claim.at, claim.expiresAt],
    );
    return rowCount === 1;
  }

  async complete(orgId: string, key: string, operationId: string, response: StoredResponse): Promise<boolean> {
    const { rowCount } = await this.db.query(
      `UPDATE idempotency_keys SET state = 'completed', response_status = $4, response_type = $5, response_body = $6
       WHERE org_id = $1 AND key = $2 AND operation_id = $3 AND state = 'pending'`,
      [orgId, key, operationId, response.status, response.contentType, response.body],
    );
    return rowCount === 1;
  }

  async release(orgId: string, key: string, operationId: string): Promise<void> {
    await this.db.query("DELETE FROM idempotency_keys WHERE org_id = $1 AND key = $2 AND operation_id = $3 AND state = 'pending'", [
      orgId,
      key,
      operationId,
    ]);
  }

  async suspend(orgId: string, key: string, operationId: string, at: Date): Promise<void> {
    await this.db.query(
      "UPDATE idempotency_keys SET lease_until = $4 WHERE org_id = $1 AND key = $2 AND operation_id = $3 AND state = 'pending'",
      [orgId, key, operationId, at],
    );
  }

  async deleteExpired(at: Date): Promise<number> {
    const { rowCount } = await this.db.query('DELETE FROM idempotency_keys WHERE expires_at <= $1', [at]);
    return rowCount ?? 0;
  }
}

function responseOf(row: IdempotencyRow): StoredResponse {
  return { status: row.response_status!, contentType: row.response_type!, body: row.response_body! };
}
