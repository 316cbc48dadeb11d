import { setTimeout as sleep } from 'node:timers/promises';
import { randomBytes } from 'node:crypto';
import {
  checkWriteBody,
  objectSpec,
  WRITABLE_OBJECT_NAMES,
  writeSpec,
  type ValidationIssue,
  type WritableObjectName,
} from '@gp-gateway/protocol';
import type { Logger } from 'pino';
import type { AgentAnswer } from '../agents/agentLink.ts';
import type { AgentRouter, Tenant } from '../agents/agentRouter.ts';
import { AgentLostError, ApiError } from '../../errors/apiError.ts';
import type { ReadTarget } from '../reads/recordReader.ts';
import { agentKeyOf, checkCompany, requestedCompany, resolveConnection } from '../routing/connectionRouting.ts';
import {
  IDEMPOTENCY_TTL_MS,
  SANDBOX_CONNECTION_ID,
  type Connection,
  type Store,
  type StoredRefusal,
  type StoredWriteResult,
} from '../../infrastructure/store/store.ts';
import { idempotencyKeyIssue, writeFingerprint } from './idempotencyKey.ts';
import { apiKeyActor, createdRecordId, RECORD_CREATED, type WriteAuditDetails } from './writeAudit.ts';

/** Where a write goes, as the front end received it: checked by `place` before the body is read. */
export interface WriteDestination {
  target: ReadTarget;
  /** The object named, unchecked. */
  object: string;
  validateOnly: boolean;
}

/** The rest of one `POST /v1/{object}` or MCP `create_record`. */
export interface WriteRequest {
  /** The parsed JSON body (MCP: the `fields` argument). */
  body: unknown;
  idempotencyKey: string | undefined;
  requestId: string;
}

/** A destination whose object, connection, company, sandbox rule and whitelist passed (the first checks of docs/api.md#writes). */
export interface WritePlace {
  readonly object: WritableObjectName;
  readonly validateOnly: boolean;
  readonly route: Route;
}

/**
 * What a write came to, in no protocol's form (REST and MCP render it): the record GP now holds
 * (`created`), or would (`validated`), as the agent's JSON bytes (an object; a journal entry's
 * array of lines); or GP's refusal (400 VALIDATION_ERROR, 409 ALREADY_EXISTS) with the request
 * that met it. A refusal is an answer, not an error: it is kept under the Idempotency-Key like a
 * record and replayed the same (docs/api.md#idempotency). `replayed`: the result of an earlier
 * request with the same key.
 */
export type WriteResult = Outcome & { replayed: boolean };
type Outcome = { kind: 'created' | 'validated'; record: Buffer } | { kind: 'refused'; error: ApiError; requestId: string };

export interface RecordWriterOptions {
  agents: AgentRouter;
  store: Store;
  /** How long a write may take end to end, the outcome of a dropped link included, before 504. */
  requestTimeoutMs: number;
  log: Logger;
  /** Where a committed write becomes an event (the change feed's `written`). */
  events?: WriteEvents;
}

/** What the change feed takes of a committed write: the created record as the agent answered it. */
export interface WriteEvents {
  written(orgId: string, connectionId: string, company: string, object: string, record: Buffer): Promise<void>;
}

/** A claim's lease outlives the request's deadline by this much, for the store write that settles it. */
const LEASE_MARGIN_MS = 2_000;
/** Between two outcome requests whose agent went away or refused. */
const SETTLE_PAUSE_MS = 50;

/** Where a write goes, once the routing headers are checked. */
interface Route {
  connection: Connection;
  company: string;
  agentKey: string;
  tenant: Tenant;
  /** The API key (or OAuth grant) that writes, as the audit log names it. */
  key: { id: string; name: string };
}

/** The claim a request holds on its Idempotency-Key, when it sent one. */
interface Held {
  orgId: string;
  key: string;
}

/** Errors that mean the agent never started the write: it can never commit, so the key is free again. */
function neverStarted(error: unknown): boolean {
  if (error instanceof AgentLostError) return !error.dropped;
  return error instanceof ApiError && ['CONNECTION_OFFLINE', 'RATE_LIMITED', 'FORBIDDEN'].includes(error.code);
}

/** GP's own refusals: answers, stored and replayed like a 201 (docs/api.md#idempotency). */
function isGpRefusal(error: unknown): error is ApiError {
  return error instanceof ApiError && (error.code === 'VALIDATION_ERROR' || error.code === 'ALREADY_EXISTS');
}

const newOperationId = () => `op_${randomBytes(16).toString('base64url')}`;

const unknownOutcome = (operationId: string) =>
  new ApiError(
    'UPSTREAM_TIMEOUT',
    'The write did not finish within the deadline, and whether GP recorded it is not known yet. Retry with the same Idempotency-Key: the gateway asks the agent and answers as the write did, or runs it if it never happened.',
    { operationId, outcome: 'unknown' },
  );

/**
 * Writes one record (docs/api.md#writes, docs/decisions.md#writes): the checks in the order docs/api.md#writes gives, the
 * Idempotency-Key, and exactly once across a dropped agent link. A write is sent to an agent once;
 * when its link drops before the answer, an agent of the connection (the same one back, or another)
 * is asked for the operation's outcome until the deadline.
 */
export class RecordWriter {
  private readonly agents: AgentRouter;
  private readonly store: Store;
  private readonly requestTimeoutMs: number;
  private readonly log: Logger;
  private readonly events: WriteEvents | null;

  constructor(options: RecordWriterOptions) {
    this.agents = options.agents;
    this.store = options.store;
    this.requestTimeoutMs = options.requestTimeoutMs;
    this.log = options.log;
    this.events = options.events ?? null;
  }

  /**
   * The checks of docs/api.md#writes up to the body: the object (404 none), the routing headers (400), the sandbox (403
   * unless validate-only), the object writable and on the connection's write whitelist (403).
   */
  place(destination: WriteDestination): WritePlace {
    const name = this.writableObject(destination.object);
    const route = this.route(destination.target);
    const object = this.checkAllowed(destination.validateOnly, route, name);
    return { object, validateOnly: destination.validateOnly, route };
  }

  /** The rest, in order: the body and Idempotency-Key (400), the agents (503, 400 company, 403 writes off), the write. */
  async write(place: WritePlace, request: WriteRequest): Promise<WriteResult> {
    const deadline = Date.now() + this.requestTimeoutMs;
    const { object, route } = place;
    const issues: ValidationIssue[] = [];
    const keyIssue = idempotencyKeyIssue(request.idempotencyKey);
    if (keyIssue) issues.push(keyIssue);
    const checked = checkWriteBody(object, request.body);
    if (!checked.ok) issues.push(...checked.issues);
    if (issues.length) throw ApiError.validation(issues);

    const op = {
      kind: 'write' as const,
      object,
      company: route.company,
      body: checked.ok ? checked.body : {},
      validateOnly: place.validateOnly,
    };
    // Validate-only changes nothing: there is nothing for a key to protect, so none is recorded.
    if (place.validateOnly || request.idempotencyKey === undefined) {
      await this.checkAgents(route);
      return await this.run(route, { ...op, operationId: newOperationId() }, deadline, null, request.requestId);
    }
    const held = { orgId: route.connection.orgId, key: request.idempotencyKey };
    const fingerprint = writeFingerprint({ object, connectionId: route.connection.id, company: route.company, body: request.body });
    // Twice at most: a resumed write that never happened is released and claimed afresh.
    for (let attempt = 0; ; attempt++) {
      const operationId = newOperationId();
      const at = new Date();
      const claim = await this.store.claimIdempotencyKey({
        ...held,
        fingerprint,
        operationId,
        at,
        leaseUntil: new Date(deadline + LEASE_MARGIN_MS),
        expiresAt: new Date(at.getTime() + IDEMPOTENCY_TTL_MS),
      });
      if (claim.kind === 'completed') return { ...replayOf(claim.result), replayed: true };
      if (claim.kind === 'in_flight') {
        throw new ApiError('IDEMPOTENCY_CONFLICT', 'A request with this Idempotency-Key is still running; retry once it has its answer.', {
          reason: 'in_flight',
        });
      }
      if (claim.kind === 'body_mismatch') {
        throw new ApiError(
          'IDEMPOTENCY_CONFLICT',
          'This Idempotency-Key was used with another request (another body, object, connection or company) in the last 24 hours; use a new key for a new write.',
          { reason: 'body_mismatch' },
        );
      }
      const ownId = claim.kind === 'resumed' ? claim.operationId : operationId;
      try {
        await this.checkAgents(route);
      } catch (error) {
        await (claim.kind === 'resumed'
          ? this.store.suspendIdempotencyKey(held.orgId, held.key, ownId, new Date())
          : this.release(held, ownId));
        throw error;
      }
      if (claim.kind === 'claimed') return await this.run(route, { ...op, operationId }, deadline, held, request.requestId);
      // An earlier request with this key gave up without knowing what became of its write: ask first.
      this.log.info({ operationId: ownId, object }, 'resuming a write of unknown outcome: asking the agent');
      const settled = await this.settle(route, ownId, deadline, held);
      if (settled.outcome !== 'not_executed') return await this.answered(route, object, ownId, settled, held, request.requestId);
      await this.release(held, ownId);
      if (attempt > 0) throw notExecuted(ownId);
    }
  }

  /** A top-level object of the catalogue, or 404 as for any other unknown route. */
  private writableObject(name: string): string {
    const spec = objectSpec(name);
    if (!spec || spec.parent) throw new ApiError('NOT_FOUND', 'No such route.');
    return name;
  }

  private route(target: ReadTarget): Route {
    const connection = resolveConnection(target.headers, target.key, target.connection);
    const company = requestedCompany(target.headers, connection, true)!;
    return {
      connection,
      company,
      agentKey: agentKeyOf(connection),
      tenant: { orgId: target.key.orgId, maxInFlight: target.maxInFlight },
      key: { id: target.key.id, name: target.key.name },
    };
  }

  /** The 403s of docs/api.md#writes that the gateway decides: the sandbox, then the object (read-only, or not on the connection's write whitelist). */
  private checkAllowed(validateOnly: boolean, route: Route, object: string): WritableObjectName {
    const sandbox = route.connection.id === SANDBOX_CONNECTION_ID;
    if (sandbox && !validateOnly) {
      throw new ApiError(
        'FORBIDDEN',
        'The sandbox is read-only: with a test key, writes can only be validated, which changes nothing (REST: ?validateOnly=true; MCP create_record: validateOnly: true).',
      );
    }
    if (!writeSpec(object)) throw new ApiError('FORBIDDEN', `${object} is read-only: v1 writes ${WRITABLE_OBJECT_NAMES.join(', ')}.`);
    // The sandbox validates every writable object: nothing changes there.
    if (!sandbox && !route.connection.writeWhitelist.includes(object)) {
      throw new ApiError(
        'FORBIDDEN',
        `${object} is not writable on this connection: an admin of the organisation adds it to the connection's write whitelist (dashboard, or gateway connection set-write-whitelist).`,
      );
    }
    return object as WritableObjectName;
  }

  /** The connection's agents: one connected, the company theirs, and (off the sandbox) writes turned on. */
  private async checkAgents(route: Route): Promise<void> {
    const sandbox = route.connection.id === SANDBOX_CONNECTION_ID;
    const reach = await this.agents.reach(route.agentKey, !sandbox);
    if (!reach) throw new ApiError('CONNECTION_OFFLINE', 'The connection’s agent is offline.');
    checkCompany(route.company, reach.companies);
    // The sandbox's read-only-ness is the gateway's to enforce (validate-only), whatever its agent says.
    if (!sandbox && !reach.allowsWrites) {
      throw new ApiError(
        'FORBIDDEN',
        'The connection’s agent has writes turned off. Whether it allows writes is decided by the IT of the company that runs it, on the agent (allowWrites), not by the API caller.',
      );
    }
  }

  /** Sends the write once and turns what comes back into the answer, settling a dropped link through the outcome. */
  private async run(
    route: Route,
    op: {
      kind: 'write';
      object: WritableObjectName;
      company: string;
      operationId: string;
      body: Record<string, unknown>;
      validateOnly: boolean;
    },
    deadline: number,
    held: Held | null,
    requestId: string,
  ): Promise<WriteResult> {
    let answer: AgentAnswer;
    try {
      answer = await this.agents.request(route.agentKey, op, Math.max(1, deadline - Date.now()), route.tenant);
    } catch (error) {
      if (error instanceof AgentLostError && error.dropped && !op.validateOnly) {
        this.log.warn({ operationId: op.operationId, object: op.object }, 'agent link dropped during a write; asking for its outcome');
        const settled = await this.settle(route, op.operationId, deadline, held);
        if (settled.outcome === 'not_executed') {
          if (held) await this.release(held, op.operationId);
          throw notExecuted(op.operationId);
        }
        return await this.answered(route, op.object, op.operationId, settled, held, requestId);
      }
      if (held && neverStarted(error)) await this.release(held, op.operationId);
      else if (held && isGpRefusal(error)) return await this.keep(held, op.operationId, { kind: 'refused', error, requestId });
      else if (held) await this.store.suspendIdempotencyKey(held.orgId, held.key, op.operationId, new Date());
      if (error instanceof ApiError && error.code === 'UPSTREAM_TIMEOUT' && !op.validateOnly) throw unknownOutcome(op.operationId);
      if (isGpRefusal(error)) return { kind: 'refused', error, requestId, replayed: false };
      throw error;
    }
    return await this.answered(route, op.object, op.operationId, answer, held, requestId);
  }

  /**
   * Asks an agent of the connection what became of an operation (the journal, docs/decisions.md#writes),
   * waiting for one to be connected, until the deadline; past it, 504 with the outcome unknown and the
   * key kept, so that a later retry asks again.
   */
  private async settle(route: Route, operationId: string, deadline: number, held: Held | null): Promise<AgentAnswer> {
    const op = { kind: 'outcome' as const, company: route.company, operationId };
    for (;;) {
      const remaining = deadline - Date.now();
      if (remaining <= 0 || !(await this.agents.waitForAgent(route.agentKey, remaining))) break;
      try {
        return await this.agents.request(route.agentKey, op, Math.max(1, deadline - Date.now()), route.tenant);
      } catch (error) {
        // Gone again, gone between the wait and the pick, or stopping: wait for the next one, a
        // moment first, so that an agent that keeps refusing is not asked in a tight loop.
        if (error instanceof AgentLostError || (error instanceof ApiError && error.code === 'CONNECTION_OFFLINE')) {
          await sleep(Math.min(SETTLE_PAUSE_MS, Math.max(0, deadline - Date.now())));
          continue;
        }
        if (error instanceof ApiError && error.code === 'UPSTREAM_TIMEOUT') break;
        if (held) await this.store.suspendIdempotencyKey(held.orgId, held.key, operationId, new Date());
        throw error;
      }
    }
    if (held) await this.store.suspendIdempotencyKey(held.orgId, held.key, operationId, new Date());
    throw unknownOutcome(operationId);
  }

  /** The agent's record as the answer: `{"data":…}` around its bytes, kept under the key. */
  private async answered(
    route: Route,
    object: WritableObjectName,
    operationId: string,
    answer: AgentAnswer,
    held: Held | null,
    requestId: string,
  ): Promise<WriteResult> {
    // A journal entry is the array of its lines; every other record one object (payloadShape checked the rest).
    // The sandbox's validate-only answers a preview instead, one object for every object (the body as
    // checked, with the ids and numbers GP would give it: docs/api.md#writes), so either shape is valid there.
    const first = answer.payload.find((byte) => byte !== 0x20 && byte !== 0x0a && byte !== 0x0d && byte !== 0x09);
    const shapeOk = answer.outcome === 'validated' ? first === 0x5b || first === 0x7b : (first === 0x5b) === (object === 'gl-entries');
    if (!shapeOk) {
      this.log.warn({ operationId, object, connectionId: route.connection.id }, 'agent answered a write with a record of the wrong shape');
      if (held) await this.store.suspendIdempotencyKey(held.orgId, held.key, operationId, new Date());
      throw new ApiError('UPSTREAM_ERROR', 'The connection’s agent sent an answer that is not valid data.');
    }
    const outcome: Outcome = { kind: answer.outcome === 'validated' ? 'validated' : 'created', record: answer.payload };
    // Committed in GP (now, or by an earlier request the journal replays): an event, kept once however often it is recorded.
    if (outcome.kind === 'created') {
      this.audit(route, object, answer.payload, requestId);
      await this.events?.written(route.connection.orgId, route.connection.id, route.company, object, answer.payload);
    }
    return held ? await this.keep(held, operationId, outcome) : { ...outcome, replayed: false };
  }

  /** Keeps an outcome under the key (only writes that change something hold one: created, or refused). */
  private async keep(held: Held, operationId: string, outcome: Outcome): Promise<WriteResult> {
    await this.store.completeIdempotencyKey(held.orgId, held.key, operationId, storedOf(outcome));
    return { ...outcome, replayed: false };
  }

  /**
   * Records a committed write in the organisation's audit log: which key, object and record. Not
   * awaited, and a failure only logged: the write is done in GP, and its answer is never held up or
   * lost for the log. A replay is not recorded again (it never reaches here), nor a validate-only
   * request (it changes nothing).
   */
  private audit(route: Route, object: string, record: Buffer, requestId: string): void {
    const recordId = createdRecordId(object, record);
    const details: WriteAuditDetails = {
      keyId: route.key.id,
      keyName: route.key.name,
      object,
      recordId,
      connectionId: route.connection.id,
      company: route.company,
      requestId,
    };
    this.store
      .recordAudit({
        orgId: route.connection.orgId,
        at: new Date().toISOString(),
        actor: apiKeyActor(route.key.id),
        action: RECORD_CREATED,
        target: recordId === null ? object : `${object} ${recordId}`,
        details: { ...details },
        address: null,
      })
      .catch((error: unknown) =>
        this.log.warn(
          { err: error, object, recordId, requestId, connectionId: route.connection.id },
          'could not record the write in the audit log',
        ),
      );
  }

  private release(held: Held, operationId: string): Promise<void> {
    return this.store.releaseIdempotencyKey(held.orgId, held.key, operationId);
  }
}

/** An outcome as the store keeps it. */
function storedOf(outcome: Outcome): StoredWriteResult {
  if (outcome.kind !== 'refused') return { kind: 'created', record: outcome.record };
  const { code, message, details } = outcome.error;
  return { kind: 'refused', refusal: { code: code as StoredRefusal['code'], message, details, requestId: outcome.requestId } };
}

/** A kept result, as it was first answered. */
function replayOf(stored: StoredWriteResult): Outcome {
  if (stored.kind === 'created') return { kind: 'created', record: stored.record };
  const { code, message, details, requestId } = stored.refusal;
  return { kind: 'refused', error: new ApiError(code, message, details), requestId };
}

/** The link dropped and the agent's journal says the write never committed (and now never will): safe to retry. */
function notExecuted(operationId: string): ApiError {
  return new ApiError(
    'CONNECTION_OFFLINE',
    'The connection’s agent went away before the write committed; GP did not record it, and that operation never will. Retry the request.',
    { operationId, outcome: 'not_executed' },
    { retryAfterSeconds: 1 },
  );
}
