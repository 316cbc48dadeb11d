import type { Transaction } from 'kysely';
import type { IdempotencyClaim, IdempotencyClaimResult, IdempotencyStore, StoredRefusal, StoredWriteResult } from '../roles/idempotency.ts';
import type { StoreEngine } from './engine.ts';
import type { StoreSchema } from './schema.ts';

/**
 * Idempotency keys on either engine (IdempotencyStore). A claim is one transaction that writes first:
 * an insert that does nothing when the key exists, else the row read (locked FOR UPDATE on
 * PostgreSQL; on SQLite the insert already holds the file's write lock) and decided on, so two
 * claims of one key, in one process or in two instances, never both run the write.
 */
export class IdempotencyTables implements IdempotencyStore {
  private readonly engine: StoreEngine;

  constructor(engine: StoreEngine) {
    this.engine = engine;
  }

  claimIdempotencyKey(claim: IdempotencyClaim): Promise<IdempotencyClaimResult> {
    const at = claim.at.toISOString();
    return this.engine.transaction(async (trx) => {
      // An expired row may be deleted (by the sweep, or below) between the insert and the read: insert again.
      for (;;) {
        if (await insertNew(trx, claim)) return { kind: 'claimed' };
        const row = await trx
          .selectFrom('idempotency_keys')
          .selectAll()
          .where('org_id', '=', claim.orgId)
          .where('key', '=', claim.key)
          .$if(this.engine.rowLocks, (q) => q.forUpdate())
          .executeTakeFirst();
        if (!row) continue;
        if (row.expires_at <= at) {
          await trx.deleteFrom('idempotency_keys').where('org_id', '=', claim.orgId).where('key', '=', claim.key).execute();
          continue;
        }
        if (row.fingerprint !== claim.fingerprint) return { kind: 'body_mismatch' };
        if (row.state === 'completed') return { kind: 'completed', result: resultOf(row.result_kind!, row.result_body!) };
        if (row.lease_until > at) return { kind: 'in_flight' };
        await trx
          .updateTable('idempotency_keys')
          .set({ lease_until: claim.leaseUntil.toISOString() })
          .where('org_id', '=', claim.orgId)
          .where('key', '=', claim.key)
          .execute();
        return { kind: 'resumed', operationId: row.operation_id };
      }
    });
  }

  async completeIdempotencyKey(orgId: string, key: string, operationId: string, stored: StoredWriteResult): Promise<boolean> {
    const body = stored.kind === 'created' ? stored.record : Buffer.from(JSON.stringify(stored.refusal));
    const result = await this.engine.db
      .updateTable('idempotency_keys')
      .set({ state: 'completed', result_kind: stored.kind, result_body: body })
      .where('org_id', '=', orgId)
      .where('key', '=', key)
      .where('operation_id', '=', operationId)
      .where('state', '=', 'pending')
      .executeTakeFirst();
    return result.numUpdatedRows === 1n;
  }

  async releaseIdempotencyKey(orgId: string, key: string, operationId: string): Promise<void> {
    await this.engine.db
      .deleteFrom('idempotency_keys')
      .where('org_id', '=', orgId)
      .where('key', '=', key)
      .where('operation_id', '=', operationId)
      .where('state', '=', 'pending')
      .execute();
  }

  async suspendIdempotencyKey(orgId: string, key: string, operationId: string, at: Date): Promise<void> {
    await this.engine.db
      .updateTable('idempotency_keys')
      .set({ lease_until: at.toISOString() })
      .where('org_id', '=', orgId)
      .where('key', '=', key)
      .where('operation_id', '=', operationId)
      .where('state', '=', 'pending')
      .execute();
  }

  async deleteExpiredIdempotencyKeys(at: Date): Promise<number> {
    const result = await this.engine.db.deleteFrom('idempotency_keys').where('expires_at', '<=', at.toISOString()).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}

/** Inserts the claim's record unless the key has one; whether it did. */
async function insertNew(trx: Transaction<StoreSchema>, claim: IdempotencyClaim): Promise<boolean> {
  const result = await trx
    .insertInto('idempotency_keys')
    .values({
      org_id: claim.orgId,
      key: claim.key,
      fingerprint: claim.fingerprint,
      operation_id: claim.operationId,
      state: 'pending',
      lease_until: claim.leaseUntil.toISOString(),
      created_at: claim.at.toISOString(),
      expires_at: claim.expiresAt.toISOString(),
    })
    .onConflict((conflict) => conflict.columns(['org_id', 'key']).doNothing())
    .executeTakeFirst();
  return (result.numInsertedOrUpdatedRows ?? 0n) === 1n;
}

/** A completed record's result from its two columns. */
function resultOf(kind: 'created' | 'refused', body: Buffer): StoredWriteResult {
  return kind === 'created' ? { kind, record: body } : { kind, refusal: JSON.parse(body.toString()) as StoredRefusal };
}
