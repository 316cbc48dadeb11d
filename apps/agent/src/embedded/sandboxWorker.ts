import { parentPort, workerData } from 'node:worker_threads';
import os from 'node:os';
import pino from 'pino';
import { SqliteExecutor } from '../db/sqliteExecutor.ts';
import { ReadService } from '../service/readService.ts';
import { AgentSession } from '../connection/agentSession.ts';
import { AGENT_VERSION } from '../version.ts';

/**
 * The gateway's built-in sandbox agent. It runs in a worker thread so that SQLite's synchronous
 * queries never block the gateway's event loop, and talks the same frames as a remote agent, over
 * the worker's message port instead of a WebSocket.
 */
export interface SandboxWorkerData {
  dir: string;
  logLevel: string;
}

if (!parentPort) throw new Error('sandboxWorker must run as a worker thread');
const port = parentPort;
const { dir, logLevel } = workerData as SandboxWorkerData;
const log = pino({ level: logLevel, base: { component: 'sandbox-agent' } });
const service = new ReadService(new SqliteExecutor({ dir, readonly: true }));
const session = new AgentSession({ send: (text) => port.postMessage(text) }, service, log);
port.on('message', (text: string) => session.receive(text));
await session.hello({ version: AGENT_VERSION, host: os.hostname(), platform: process.platform, dialect: 'sqlite' });
