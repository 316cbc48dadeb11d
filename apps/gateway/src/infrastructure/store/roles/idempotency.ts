/**
 * A write's result as it is kept under its key and replayed (docs/api.md#idempotency), in no
 * protocol's form: the record GP now holds (the agent's JSON bytes: an object, or a journal entry's
 * array of lines), or GP's refusal with the id of the request that met it. REST and MCP each
 * render it as they render a fresh one.
 */
export type StoredWriteResult = { kind: 'created'; record: Buffer } | { kind: 'refused'; refusal: StoredRefusal };

/** GP's refusal of a write (400 VALIDATION_ERROR, 409 ALREADY_EXISTS) as the error envelope names its parts. */
export interface StoredRefusal {
  code: 'VALIDATION_ERROR' | 'ALREADY_EXISTS';
  message: string;
  details: Record<string, unknown> | null;
  /** The request that met the refusal: a replay carries its id (docs/api.md#idempotency). */
  requestId: string;
}

export interface IdempotencyClaim {
  orgId: string;
  key: string;
  fingerprint: string;
  /** The operation id of a new write, used when the claim creates the record. */
  operationId: string;
  at: Date;
  /** Until when the claiming request may work on the write undisturbed (its deadline and a margin). */
  leaseUntil: Date;
  expiresAt: Date;
}

/**
 * What claiming a key found, decided in one atomic step:
 * - `claimed`: there was no live record (none, or one expired at `at`): a new pending one now holds
 *   the claim's operation id and lease; the caller runs the write.
 * - `resumed`: a pending record with the same fingerprint whose lease had lapsed: its lease is now the
 *   claim's, its operation id is kept, and the caller must settle that operation before anything else.
 * - `completed`: same fingerprint, answered: the caller replays `result`.
 * - `in_flight`: same fingerprint, pending, lease not lapsed: another request is running it.
 * - `body_mismatch`: a live record with another fingerprint (whatever its state).
 * Nothing is changed for the last three.
 */
export type IdempotencyClaimResult =
  | { kind: 'claimed' }
  | { kind: 'resumed'; operationId: string }
  | { kind: 'completed'; result: StoredWriteResult }
  | { kind: 'in_flight' }
  | { kind: 'body_mismatch' };

/** Idempotency records are kept this long (docs/api.md#idempotency). */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * Idempotency keys (docs/api.md#idempotency), per organisation: which write a key names (its operation
 * id, which the agent's journal knows it by, and the fingerprint that makes "the same request",
 * writes/idempotencyKey.ts, compared and never interpreted here) and, once known, its answer. A record is
 * `pending` while a request holds it until its lease ends, or after one gave up without knowing the
 * write's outcome (lease in the past: the next request with the key and body settles it through the
 * outcome operation); `completed` once its answer is stored. Every method is one atomic step even
 * when several gateway instances share the store: two claims of one key never both see `claimed` or
 * `resumed`.
 */
export interface IdempotencyStore {
  claimIdempotencyKey(claim: IdempotencyClaim): Promise<IdempotencyClaimResult>;
  /**
   * Stores the result of a pending record that still names `operationId` (state `completed`); false
   * and no change otherwise (the record expired, was released, or another operation now holds it).
   */
  completeIdempotencyKey(orgId: string, key: string, operationId: string, result: StoredWriteResult): Promise<boolean>;
  /** Deletes a pending record that names `operationId`: the write never ran and never will, so the key is free again. */
  releaseIdempotencyKey(orgId: string, key: string, operationId: string): Promise<void>;
  /**
   * Ends the lease of a pending record that names `operationId` at `at`, keeping it pending: the
   * write's outcome is unknown, and the next request with the key settles it (a `resumed` claim).
   */
  suspendIdempotencyKey(orgId: string, key: string, operationId: string, at: Date): Promise<void>;
  /** Deletes every record expired at `at`; how many. */
  deleteExpiredIdempotencyKeys(at: Date): Promise<number>;
}
