import { parentPort, workerData } from 'node:worker_threads';
import os from 'node:os';
import pino from 'pino';
import { ReadAhead } from '../service/readAhead.ts';
import { ThreadedReadService } from '../service/threadedReadService.ts';
import { AgentSession } from '../connection/agentSession.ts';
import { sandboxWrites } from './sandboxWrites.ts';
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
}

if (!parentPort) throw new Error('sandboxWorker must run as a worker thread');
const port = parentPort;
const { dir, logLevel, threads } = workerData as SandboxWorkerData;
const log = pino({ level: logLevel, base: { component: 'sandbox-agent' } });
const service = new ReadAhead(new ThreadedReadService({ dir, readonly: true, workers: threads ?? 2 }));
const writes = sandboxWrites(dir);
const session = new AgentSession({ send: (text) => port.postMessage(text) }, service, log, { writes });
port.on('message', (text: string) => session.receive(text));
await session.hello({ version: AGENT_VERSION, host: os.hostname(), platform: process.platform, dialect: 'sqlite', allowWrites: false });
