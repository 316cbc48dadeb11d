import {
  agentVersionAdvice,
  decodeFrame,
  encodeFrame,
  GatewayToAgentFrameSchema,
  MAX_FRAME_BYTES,
  PROTOCOL_VERSION,
  type AgentHealth,
  type AgentInfo,
  type ChangesAckFrame,
  type Company,
  type ErrorCode,
  type Operation,
  type RequestFrame,
  operationObject,
} from '@gp-gateway/protocol';
import type { Logger } from 'pino';
import { QueryCancelledError } from '../db/executor.ts';
import { AgentError } from '../service/agentError.ts';
import type { HealthReport, OperationHandler } from '../service/readService.ts';
import { WRITES_OFF_MESSAGE, type WriteHandler } from '../writes/writeService.ts';
import { publishOperation } from '../telemetry/events.ts';
import { contextFrom, inSpan, SpanKind } from '@gp-gateway/telemetry';
import { trace } from '@opentelemetry/api';
import { AGENT_VERSION } from '../version.ts';

/** The smallest surface of a message channel: a WebSocket, or a worker's MessagePort for the built-in agent. */
export interface FrameChannel {
  /** A frame as text, or as bytes when its payload came as bytes. */
  send(frame: string | Buffer): void;
}

export interface AgentSessionOptions {
  /** How often the agent re-checks its database and tells the gateway when something changed (default 60 s; 0 = never). */
  statusIntervalMs?: number;
  /** Told when the gateway accepts the hello, with what it offers beyond protocol 1's first release (`changes`). */
  onWelcome?: (connectionId: string, features: readonly string[]) => void;
  /** Told when the gateway acknowledges a frame of changes (changes/changeReporter.ts). */
  onChangesAck?: (frame: ChangesAckFrame) => void;
  /** Answers write and outcome operations; without it they are refused (writes off). */
  writes?: WriteHandler;
}

/** Why a running request was stopped; each is answered with its own code and words. */
type StopReason = 'deadline' | 'abandoned' | 'drain' | 'closed';

interface Running {
  op: Operation;
  /** Null for work answered within the call (OperationHandler.answersOnCallingThread): nothing can stop it midway. */
  controller: AbortController | null;
  started: number;
  reason: StopReason | null;
}

const STOPPED: Record<StopReason, { code: ErrorCode; message: (ms: number) => string }> = {
  deadline: { code: 'UPSTREAM_TIMEOUT', message: (ms) => `The agent cancelled the query after ${ms} ms: its deadline passed.` },
  abandoned: { code: 'UPSTREAM_TIMEOUT', message: (ms) => `The agent cancelled the query after ${ms} ms: nobody waits for it any more.` },
  drain: { code: 'CONNECTION_OFFLINE', message: (ms) => `The agent stopped the query after ${ms} ms: it is shutting down.` },
  closed: { code: 'CONNECTION_OFFLINE', message: (ms) => `The agent stopped the query after ${ms} ms: its connection closed.` },
};

/**
 * The agent's half of one gateway connection: says hello, answers typed requests through the read
 * service, cancels them when the gateway says so or their deadline passes, drains on shutdown,
 * answers pings and keeps the gateway told about its health. Knows nothing about how the channel
 * was opened or how it is re-opened.
 */
export class AgentSession {
  private readonly channel: FrameChannel;
  private readonly service: OperationHandler;
  private readonly log: Logger;
  private readonly options: AgentSessionOptions;
  private readonly running = new Map<string, Running>();
  private readonly idle = new Set<() => void>();
  private draining = false;
  private lastReport: HealthReport | null = null;
  private statusTimer: NodeJS.Timeout | null = null;
  private refreshing: Promise<void> | null = null;
  /** Stops listening for write checks (set while the session says hello and lives). */
  private stopCheckListener: (() => void) | null = null;

  constructor(channel: FrameChannel, service: OperationHandler, log: Logger, options: AgentSessionOptions = {}) {
    this.channel = channel;
    this.service = service;
    this.log = log;
    this.options = options;
  }

  /** Reads the agent's health and says hello with it; resolves once the hello is sent. */
  async hello(agent: AgentInfo): Promise<HealthReport> {
    const report = this.withWriteCheck(await this.service.health());
    this.lastReport = report;
    if (report.health.database === 'unavailable') {
      this.log.error(
        { reason: report.health.databaseMessage },
        'the GP database is unavailable; connecting anyway so that the gateway can say so',
      );
    }
    this.channel.send(encodeFrame({ v: PROTOCOL_VERSION, type: 'hello', agent, companies: report.companies, health: report.health }));
    // A write check that finishes is reported at once, not with the next periodic status.
    this.stopCheckListener = this.options.writes?.onCheck?.(() => void this.refreshHealth()) ?? null;
    const every = this.options.statusIntervalMs ?? 60_000;
    if (every > 0) {
      this.statusTimer = setInterval(() => void this.refreshHealth(), every);
      this.statusTimer.unref();
    }
    return report;
  }

  get busy(): number {
    return this.running.size;
  }

  get health(): AgentHealth | null {
    return this.lastReport?.health ?? null;
  }

  receive(text: string): void {
    const decoded = decodeFrame(GatewayToAgentFrameSchema, text);
    if (!decoded.ok) {
      // A request refused here is still answered: the gateway would otherwise hold its client, and
      // an in-flight slot of the connection, until the deadline.
      const id = requestIdOf(text);
      this.log.warn({ reason: decoded.error, id }, 'refused a frame the agent does not understand');
      if (id !== null) this.sendError(id, 'VALIDATION_ERROR', `The agent refused the request (${decoded.error}).`);
      return;
    }
    const frame = decoded.frame;
    switch (frame.type) {
      case 'request':
        // Continues the gateway's trace when the frame carries one (docs/operations.md#traces).
        void inSpan(
          `gp-agent ${frame.op.kind}`,
          SpanKind.SERVER,
          { 'gp.operation': frame.op.kind, 'gp.object': operationObject(frame.op) ?? '' },
          () => this.answer(frame),
          contextFrom(frame.traceparent),
        );
        return;
      case 'cancel':
        this.stop(frame.id, frame.reason);
        return;
      case 'ping':
        this.channel.send(encodeFrame({ v: PROTOCOL_VERSION, type: 'pong', at: frame.at, now: Date.now() }));
        return;
      case 'welcome':
        this.log.info({ connectionId: frame.connectionId, features: frame.features ?? [] }, 'gateway accepted the agent');
        this.adviseOnVersion(frame.agentVersions);
        this.options.onWelcome?.(frame.connectionId, frame.features ?? []);
        return;
      case 'changes-ack':
        this.options.onChangesAck?.(frame);
        return;
      case 'pong':
        return;
    }
  }

  /** Says in the agent's own log when the gateway supports it no longer, or offers a newer release. */
  private adviseOnVersion(versions: Parameters<typeof agentVersionAdvice>[1]): void {
    const advice = agentVersionAdvice(AGENT_VERSION, versions);
    if (advice) this.log[advice.level]({ agentVersion: AGENT_VERSION, ...versions }, advice.message);
  }

  /**
   * Stops taking requests, tells the gateway, and resolves once the requests in flight have been
   * answered, or after `graceMs` when those still running are stopped and answered as such.
   */
  async drain(graceMs: number): Promise<{ finished: number; stopped: number }> {
    this.draining = true;
    this.stopStatus();
    try {
      this.channel.send(encodeFrame({ v: PROTOCOL_VERSION, type: 'draining', graceMs }));
    } catch {
      // The channel is already gone; the requests in flight can only be stopped.
    }
    const before = this.running.size;
    if (before === 0) return { finished: 0, stopped: 0 };
    this.log.info({ inFlight: before, graceMs }, 'draining: finishing the requests in flight, accepting no new ones');
    let timer: NodeJS.Timeout | undefined;
    const expired = await Promise.race([
      this.whenIdle().then(() => false),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), graceMs))),
    ]);
    clearTimeout(timer);
    let stopped = 0;
    if (expired) {
      stopped = this.running.size;
      this.log.warn({ stillRunning: stopped, graceMs }, 'grace period over: stopping the requests still running');
      for (const id of [...this.running.keys()]) this.stop(id, 'drain');
      await this.whenIdle();
    }
    return { finished: before - stopped, stopped };
  }

  /** The channel is gone: stop everything still running (its answers could not be delivered). */
  closed(): void {
    this.stopStatus();
    for (const id of [...this.running.keys()]) this.stop(id, 'closed');
  }

  /** Re-reads health and sends a status frame when anything an operator would see changed. */
  refreshHealth(): Promise<void> {
    this.refreshing ??= (async () => {
      try {
        const report = this.withWriteCheck(await this.service.health());
        const changed = !this.lastReport || summary(this.lastReport) !== summary(report);
        this.lastReport = report;
        if (!changed || this.draining) return;
        this.log.info(
          { database: report.health.database, gpVersion: report.health.gpVersion, companies: report.companies.length },
          'agent health changed',
        );
        this.channel.send(encodeFrame({ v: PROTOCOL_VERSION, type: 'status', companies: report.companies, health: report.health }));
      } catch (error) {
        this.log.warn({ err: error }, 'could not report the agent health');
      } finally {
        this.refreshing = null;
      }
    })();
    return this.refreshing;
  }

  /** The health to report: the database's, and the last write check when writes are on and one ran. */
  private withWriteCheck(report: HealthReport): HealthReport {
    const writeCheck = this.options.writes?.lastCheck?.() ?? null;
    return writeCheck ? { ...report, health: { ...report.health, writeCheck } } : report;
  }

  private stopStatus(): void {
    if (this.statusTimer) clearInterval(this.statusTimer);
    this.statusTimer = null;
    this.stopCheckListener?.();
    this.stopCheckListener = null;
  }

  private stop(id: string, reason: StopReason): void {
    const running = this.running.get(id);
    if (!running || running.reason) return;
    running.reason = reason;
    running.controller?.abort();
  }

  private whenIdle(): Promise<void> {
    if (this.running.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.add(resolve));
  }

  private async answer(frame: RequestFrame): Promise<void> {
    const { id } = frame;
    if (this.draining) {
      this.sendError(id, 'CONNECTION_OFFLINE', 'The agent is shutting down and takes no new requests.');
      return;
    }
    if (frame.op.kind === 'write' || frame.op.kind === 'outcome') {
      await this.answerWrite(id, frame.op);
      return;
    }
    const op = frame.op;
    if (this.running.has(id)) return;
    // Work answered on the calling thread ends within this call, before any cancel, deadline or
    // drain could reach it, so it gets no AbortController: one costs 3 us, 5% of the agent's CPU per get.
    const withinCall = this.service.answersOnCallingThread?.(op) === true;
    const running: Running = { op, controller: withinCall ? null : new AbortController(), started: performance.now(), reason: null };
    this.running.set(id, running);
    // The gateway sends a cancel at its deadline; this is the backstop should that frame not arrive.
    const deadline = withinCall ? undefined : setTimeout(() => this.stop(id, 'deadline'), frame.timeoutMs);
    this.log.debug({ id, op: op.kind, object: op.object, timeoutMs: frame.timeoutMs }, 'request started');
    try {
      const result = await this.service.handle(op, running.controller?.signal);
      if (byteLengthOver(result.payload, MAX_FRAME_BYTES - 1024)) {
        // The gateway would drop the whole socket for it (and every request on it): refuse this one instead.
        this.log.error({ id, object: op.object, limit: op.kind === 'list' ? op.limit : null }, 'page too large for a frame');
        this.sendError(id, 'INTERNAL_ERROR', 'the page is larger than a frame may be');
        this.counted(running, 'INTERNAL_ERROR');
        return;
      }
      this.channel.send(encodeFrame({ v: PROTOCOL_VERSION, type: 'response', id, next: result.next }, result.payload));
      this.counted(running, 'ok');
      this.log.debug({ id, op: op.kind, object: op.object, ms: this.elapsed(running) }, 'request answered');
      if (this.lastReport?.health.database === 'unavailable') void this.refreshHealth();
    } catch (error) {
      this.answerError(id, running, error);
    } finally {
      clearTimeout(deadline);
      this.finished(id);
    }
  }

  /**
   * A write or an outcome: never cancelled (a write that started runs to its COMMIT or ROLLBACK; the
   * gateway settles a lost answer with an outcome), but waited for when draining.
   */
  private async answerWrite(id: string, op: Extract<Operation, { kind: 'write' | 'outcome' }>): Promise<void> {
    const writes = this.options.writes;
    if (!writes) {
      this.sendError(id, 'FORBIDDEN', WRITES_OFF_MESSAGE);
      return;
    }
    if (this.running.has(id)) return;
    const running: Running = { op, controller: null, started: performance.now(), reason: null };
    this.running.set(id, running);
    try {
      const answer = op.kind === 'write' ? await writes.write(op) : await writes.outcome(op);
      this.channel.send(
        encodeFrame({ v: PROTOCOL_VERSION, type: 'response', id, next: null, outcome: answer.outcome }, answer.payload ?? undefined),
      );
      this.counted(running, 'ok');
      this.log.info(
        { id, op: op.kind, object: operationObject(op), operationId: op.operationId, outcome: answer.outcome, ms: this.elapsed(running) },
        op.kind === 'write' ? 'write answered' : 'outcome answered',
      );
    } catch (error) {
      this.answerError(id, running, error);
    } finally {
      this.finished(id);
    }
  }

  private finished(id: string): void {
    this.running.delete(id);
    if (this.running.size === 0) {
      for (const resolve of this.idle) resolve();
      this.idle.clear();
    }
  }

  private answerError(id: string, running: Running, error: unknown): void {
    const ms = this.elapsed(running);
    const { op } = running;
    if (running.reason && (error instanceof QueryCancelledError || running.controller?.signal.aborted)) {
      const stopped = STOPPED[running.reason];
      this.log.warn({ id, object: operationObject(op), company: op.company, reason: running.reason, ms }, 'request cancelled');
      this.sendError(id, stopped.code, stopped.message(ms));
      this.counted(running, stopped.code);
      return;
    }
    if (error instanceof AgentError) {
      if (error.code === 'ERP_UNAVAILABLE') {
        this.log.error({ id, object: operationObject(op), reason: error.detail }, 'the GP database is unavailable');
        void this.refreshHealth();
      }
      this.sendError(id, error.code, error.message, error.details);
      this.counted(running, error.code);
      return;
    }
    this.log.error({ err: error, id, object: operationObject(op) }, 'request failed');
    this.sendError(id, 'INTERNAL_ERROR', 'the agent failed to answer this request');
    this.counted(running, 'INTERNAL_ERROR');
  }

  /** Tells the metrics (telemetry/events.ts) how an operation ended. */
  private counted(running: Running, outcome: string): void {
    const { op } = running;
    const object = operationObject(op) ?? '';
    trace.getActiveSpan()?.setAttribute('gp.outcome', outcome);
    publishOperation({ kind: op.kind, object, outcome, seconds: (performance.now() - running.started) / 1000 });
  }

  private sendError(id: string, code: ErrorCode, message: string, details?: Record<string, unknown>): void {
    try {
      this.channel.send(encodeFrame({ v: PROTOCOL_VERSION, type: 'error', id, code, message, ...(details && { details }) }));
    } catch {
      // The channel closed meanwhile: nobody is waiting for this answer.
    }
  }

  private elapsed(running: Running): number {
    return Math.round(performance.now() - running.started);
  }
}

/** What operators see of a health report; a change in it is worth a status frame. */
function summary(report: HealthReport): string {
  const { database, databaseMessage, gpVersion, writeCheck } = report.health;
  return JSON.stringify([
    database,
    databaseMessage,
    gpVersion,
    report.companies.map((c: Company) => [c.id, c.name]),
    writeCheck?.checkedAt,
  ]);
}

/** The id of a frame that claims to be a request, if its header names one the gateway could match; else null. */
function requestIdOf(text: string): string | null {
  const newline = text.indexOf('\n');
  let header: unknown;
  try {
    header = JSON.parse(newline === -1 ? text : text.slice(0, newline));
  } catch {
    return null;
  }
  const { type, id } = (header ?? {}) as { type?: unknown; id?: unknown };
  return type === 'request' && typeof id === 'string' && id.length > 0 && id.length <= 64 ? id : null;
}

/** Whether the payload's UTF-8 exceeds `limit` bytes; the string is measured only when it could. */
function byteLengthOver(payload: string | Buffer, limit: number): boolean {
  if (typeof payload !== 'string') return payload.length > limit;
  return payload.length * 3 > limit && Buffer.byteLength(payload) > limit;
}
