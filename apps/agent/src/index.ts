// What other workspace packages (the gateway, e2e tests) use of the agent.
export { SANDBOX_WORKER_PATH } from './embedded/sandboxWorkerPath.ts';
export type { SandboxWorkerData } from './embedded/sandboxWorker.ts';
export type { SandboxChangeOptions } from './embedded/sandboxChanges.ts';
export { SqliteExecutor } from './db/sqliteExecutor.ts';
// e2e/mssql.test.ts runs change detection on SQL Server in-process.
export { MssqlExecutor } from './db/mssqlExecutor.ts';
export { ReadService } from './service/readService.ts';
// The write bench's floor (bench/writeFloorServer.ts) runs the agent's writes in-process.
export { SqliteWriter } from './writes/sqliteWriter.ts';
export { WriteService } from './writes/writeService.ts';
export { sandboxWrites } from './embedded/sandboxWrites.ts';
export { AgentSession } from './connection/agentSession.ts';
export { AGENT_VERSION } from './version.ts';
export { DEFAULT_TIMINGS, dialGateway, type DialOptions } from './connection/dialGateway.ts';
export { nextReconnect, type ConnectionEnd } from './connection/reconnectPolicy.ts';
// The change-poll bench (bench/changePoll.ts) measures detection in-process.
export { ChangeDetector } from './changes/changeDetector.ts';
export { catalogueRecords } from './changes/catalogueRecords.ts';
export { changedSinceQuery, rangeAggregateQuery, rangeRowsQuery } from './changes/statements.ts';
export { TRACKED_OBJECTS } from './changes/trackedObjects.ts';
export { VALUE_TRACKED_OBJECTS } from './changes/valueTracked.ts';
export { parentStampedQuery, valueRowsQuery } from './changes/valueStatements.ts';
// e2e/sandboxFeed.test.ts waits for the sandbox to learn every object.
export { ALL_TRACKED } from './changes/allTracked.ts';
