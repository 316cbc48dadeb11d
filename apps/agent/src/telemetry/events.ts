import diagnostics_channel from 'node:diagnostics_channel';

/**
 * What the agent tells its metrics (promMetrics.ts), as events on node:diagnostics_channel: the
 * session, the executors and the connection publish without being handed anything through the
 * layers, and publishing costs a check while nobody subscribes (metrics off, tests, `gp-agent
 * query`). One agent runs per process, so process-wide channels count exactly its work. Events of
 * worker threads (the embedded SQLite readers) stay in their thread: SQL timings are SQL Server's.
 */
const operations = diagnostics_channel.channel('gp-agent:operation');
const statements = diagnostics_channel.channel('gp-agent:sql');
const connection = diagnostics_channel.channel('gp-agent:connection');
const changePolls = diagnostics_channel.channel('gp-agent:change-poll');

export interface OperationEvent {
  /** list, get, write or outcome. */
  kind: string;
  /** The API object (`customers`), from the catalogue: a bounded set. */
  object: string;
  /** `ok`, or the error code answered (ERP_UNAVAILABLE, UPSTREAM_TIMEOUT …). */
  outcome: string;
  seconds: number;
}

export interface SqlEvent {
  seconds: number;
  /** SQL Server's error number when the statement failed with one; null when it succeeded or failed otherwise. */
  errorNumber: number | null;
  failed: boolean;
}

/** One poll of change detection (changes/changeReporter.ts): one object of one company. */
export interface ChangePollEvent {
  /** The API object (`customers`): a bounded set. */
  object: string;
  seconds: number;
  /** Changes found (0 for a quiet poll, and for the first poll that learns the table). */
  changes: number;
}

export type ConnectionEvent =
  | { event: 'welcomed'; reconnect: boolean }
  /** `code`: the WebSocket close code, null when the socket never opened (refused, unreachable). */
  | { event: 'closed'; code: number | null };

export function publishOperation(event: OperationEvent): void {
  if (operations.hasSubscribers) operations.publish(event);
}

export function publishSql(event: SqlEvent): void {
  if (statements.hasSubscribers) statements.publish(event);
}

export function publishConnection(event: ConnectionEvent): void {
  if (connection.hasSubscribers) connection.publish(event);
}

export function publishChangePoll(event: ChangePollEvent): void {
  if (changePolls.hasSubscribers) changePolls.publish(event);
}

/** Subscribes to every agent event; returns the unsubscribe. */
export function subscribeAgentEvents(handlers: {
  operation(event: OperationEvent): void;
  sql(event: SqlEvent): void;
  connection(event: ConnectionEvent): void;
  changePoll(event: ChangePollEvent): void;
}): () => void {
  const onOperation = (message: unknown) => handlers.operation(message as OperationEvent);
  const onSql = (message: unknown) => handlers.sql(message as SqlEvent);
  const onConnection = (message: unknown) => handlers.connection(message as ConnectionEvent);
  const onChangePoll = (message: unknown) => handlers.changePoll(message as ChangePollEvent);
  operations.subscribe(onOperation);
  changePolls.subscribe(onChangePoll);
  statements.subscribe(onSql);
  connection.subscribe(onConnection);
  return () => {
    operations.unsubscribe(onOperation);
    statements.unsubscribe(onSql);
    connection.unsubscribe(onConnection);
    changePolls.unsubscribe(onChangePoll);
  };
}
