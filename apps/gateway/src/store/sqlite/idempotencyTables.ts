import type Database from 'better-sqlite3';
import type { IdempotencyClaim, IdempotencyClaimResult, StoredResponse } from '../store.ts';

interface IdempotencyRow {
  fingerprint: string;
  operation_id: string;
  state: 'pending' | 'completed';
  lease_until: string;
  response_status: number | null;
  response_type: string | null;
  response_body: Buffer | null;
  expires_at: string;
}

/**
 * The SQLite side of the Store's idempotency keys (table of migration step 4). Times are ISO-8601
 * UTC strings, which compare as the instants they name. Each method is one statement or one
 * IMMEDIATE transaction, so a gateway and another process on the same file cannot interleave.
 */
export class SqliteIdempotencyTables {
  private readonly db: Database.Database;
  private readonly prepare: (sql: string) => Database.Statement;

  constructor(db: Database.Database, prepare: (sql: string) => Database.Statement) {
    this.db = db;
    this.prepare = prepare;
  }

  claim(claim: IdempotencyClaim): IdempotencyClaimResult {
    const at = claim.at.toISOString();
    const run = this.db.transaction((): IdempotencyClaimResult => {
      const row = this.prepare('SELECT * FROM idempotency_keys WHERE org_id = ? AND key = ?').get(claim.orgId, claim.key) as
        IdempotencyRow | undefined;
      if (!row || row.expires_at <= at) {
        this.prepare(
          `INSERT OR REPLACE INTO idempotency_keys (org_id, key, fingerprint, operation_id, state, lease_until, created_at, expires_at)
           VALUES (?, ?, ?, ?, 'pending', ?, ?, ?)`,
        ).run(
          claim.orgId,
          claim.key,
          claim.fingerprint,
          claim.operationId,
          claim.leaseUntil.toISOString(),
          at,
          claim.expiresAt.toISOString(),
        );
        return { kind: 'claimed' };
      }
      if (row.fingerprint !== claim.fingerprint) return { kind: 'body_mismatch' };
      if (row.state === 'completed') return { kind: 'completed', response: responseOf(row) };
      if (row.lease_until > at) return { kind: 'in_flight' };
      this.prepare('UPDATE idempotency_keys SET lease_until = ? WHERE org_id = ? AND key = ?').run(
        claim.leaseUntil.toISOString(),
        claim.orgId,
        claim.key,
      );
      return { kind: 'resumed', operationId: row.operation_id };
    });
    return run.immediate();
  }

  complete(orgId: string, key: string, operationId: string, response: StoredResponse): boolean {
    const result = this.prepare(
      `UPDATE idempotency_keys SET state = 'completed', response_status = ?, response_type = ?, response_body = ?
       WHERE org_id = ? AND key = ? AND operation_id = ? AND state = 'pending'`,
    ).run(response.status, response.contentType, response.body, orgId, key, operationId);
    return result.changes === 1;
  }

  release(orgId: string, key: string, operationId: string): void {
    this.prepare("DELETE FROM idempotency_keys WHERE org_id = ? AND key = ? AND operation_id = ? AND state = 'pending'").run(
      orgId,
      key,
      operationId,
    );
  }

  suspend(orgId: string, key: string, operationId: string, at: Date): void {
    this.prepare("UPDATE idempotency_keys SET lease_until = ? WHERE org_id = ? AND key = ? AND operation_id = ? AND state = 'pending'").run(
      at.toISOString(),
      orgId,
      key,
      operationId,
    );
  }

  deleteExpired(at: Date): number {
    return this.prepare('DELETE FROM idempotency_keys WHERE expires_at <= ?').run(at.toISOString()).changes;
  }
}

function responseOf(row: IdempotencyRow): StoredResponse {
  return { status: row.response_status!, contentType: row.response_type!, body: row.response_body! };
}
