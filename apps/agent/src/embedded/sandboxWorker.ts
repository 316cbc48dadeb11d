import { parentPort, workerData } from 'node:worker_threads';
import os from 'node:os';
import pino from 'pino';
import { ReadAhead } from '../service/readAhead.ts';
import { ThreadedReadService } from '../service/threadedReadService.ts';
import { AgentSession } from '../connection/agentSession.ts';
import { sandboxWrites } from './sandboxWrites.ts';
import { sandboxChanges, type SandboxChangeOptions } from './sandboxChanges.ts';
import { AGENT_VERSION } from '../version.ts';

/**
 * The gateway's built-in sandbox agent. It runs in a worker thread and talks the same frames as a
 * remote agent, over the worker's message port instead of a WebSocket. Its SQLite statements run
 * in threads of their own (ThreadedReadService), so that a request past its deadline is cancelled
 * as on a remote agent and one slow statement does not hold up every organisation's sandbox.
 */
export interface SandboxWorkerData {
  dir: string;
  logLevel: string;
  /** SQLite threads (default 2). */
  threads?: number;
  /** Change detection over the demo, reported when the gateway offers the feed; none unless given. */
  changes?: SandboxChangeOptions;
}

if (!parentPort) throw new Error('sandboxWorker must run as a worker thread');
const port = parentPort;
const { dir, logLevel, threads, changes: changeOptions } = workerData as SandboxWorkerData;
const log = pino({ level: logLevel, base: { component: 'sandbox-agent' } });
const reads = new ThreadedReadService({ dir, readonly: true, workers: threads ?? 2 });
const service = new ReadAhead(reads);
const writes = sandboxWrites(dir);
// The demo's changes, found as a remote agent finds them in its embedded database (docs/decisions.md#change-feed).
const changes = changeOptions && changeOptions.intervalMs > 0 ? sandboxChanges(dir, reads, changeOptions, log) : null;
const send = (text: string) => port.postMessage(text);
const session = new AgentSession({ send }, service, log, {
  writes,
  onWelcome: (_connectionId, features) => {
    if (features.includes('changes')) changes?.reporter.attach(send);
  },
  onChangesAck: (frame) => changes?.reporter.acked(frame),
});
port.on('message', (text: string) => session.receive(text));
await session.hello({ version: AGENT_VERSION, host: os.hostname(), platform: process.platform, dialect: 'sqlite', allowWrites: false });
