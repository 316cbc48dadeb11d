import { Worker } from 'node:worker_threads';
import type { Logger } from 'pino';
import { SANDBOX_WORKER_PATH, type SandboxChangeOptions, type SandboxWorkerData } from '@gp-gateway/agent';
import { acceptAgent } from '../agents/acceptAgent.ts';
import type { AgentRegistry } from '../agents/agentRouter.ts';
import type { AgentLink, ChangeSink } from '../agents/agentLink.ts';
import { SANDBOX_AGENT_KEY } from '../routing/connectionRouting.ts';

export interface BuiltinAgent {
  stop(): Promise<void>;
}

/** The sandbox's change feed: how the agent detects the demo's changes, and where the gateway keeps them. */
export interface SandboxFeed {
  detection: SandboxChangeOptions;
  sink: ChangeSink;
}

/**
 * Starts the sandbox agent in a worker thread over the demo databases in `dir` and registers it with
 * the registry once it has said hello. Resolves when it is ready to serve. With `feed`, the welcome
 * offers it the change feed and it reports the demo's changes, as a remote agent does.
 */
export function startBuiltinAgent(dir: string, agents: AgentRegistry, log: Logger, feed: SandboxFeed | null = null): Promise<BuiltinAgent> {
  const data: SandboxWorkerData = { dir, logLevel: log.level, ...(feed && { changes: feed.detection }) };
  const worker = new Worker(SANDBOX_WORKER_PATH, { workerData: data });
  let link: AgentLink | null = null;
  let stopping = false;
  return new Promise((resolve, reject) => {
    const channel = {
      send: (text: string) => worker.postMessage(text),
      close: () => void worker.terminate(),
    };
    worker.on('message', (message: string | Uint8Array) => {
      // A frame with a byte payload crosses the thread boundary as a plain Uint8Array.
      if (link)
        return link.receive(typeof message === 'string' ? message : Buffer.from(message.buffer, message.byteOffset, message.byteLength));
      link = acceptAgent(channel, String(message), SANDBOX_AGENT_KEY, log, feed?.sink ?? null);
      if (!link) return reject(new Error('the built-in sandbox agent was refused'));
      agents.add(SANDBOX_AGENT_KEY, link);
      resolve({
        async stop() {
          stopping = true;
          await worker.terminate();
        },
      });
    });
    worker.on('error', (error) => {
      log.error({ err: error }, 'the built-in sandbox agent failed');
      reject(error);
    });
    worker.on('exit', (code) => {
      if (link) {
        agents.remove(SANDBOX_AGENT_KEY, link);
        link.closed();
      }
      if (!stopping) log.error({ code }, 'the built-in sandbox agent stopped');
    });
  });
}
