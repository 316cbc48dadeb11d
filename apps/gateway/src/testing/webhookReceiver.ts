import { fork, type ChildProcess } from 'node:child_process';
import { EventEmitter, once } from 'node:events';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { Webhook } from 'standardwebhooks';
import { untilAnnounced } from '@gp-gateway/testing';

/**
 * A webhook receiver in a process of its own, on a loopback port, as an integrator would run one:
 * it verifies every delivery with the Standard Webhooks library (`standardwebhooks`) against the
 * secrets it was given and answers 401 to one that does not verify. Tests and the bench drive it.
 *
 * URLs are `/<name>/<behaviour>`; `name` picks the secrets (`secrets(name, […])`), the behaviour
 * what it answers once verified:
 * - `ok`: 204;
 * - `status/<code>`: that status;
 * - `retry-after/<code>/<seconds>`: that status with Retry-After;
 * - `fail/<n>`: 500 to the first n requests of each webhook-id, then 204;
 * - `hang`: no answer until `release()` (then 204);
 * - `redirect?to=<url>`: 302 to that URL.
 */

/** What the receiver saw of one request. */
export interface ReceivedDelivery {
  name: string;
  behaviour: string;
  webhookId: string;
  timestamp: string;
  signature: string;
  body: string;
  verified: boolean;
  /** Requests of this name being answered at that moment, this one included. */
  concurrent: number;
  /** When the request had arrived whole (ms since the epoch, the receiver's clock: this machine's). */
  at: number;
  /** The sender's port: which process sent it, when several could have (e2e/support/sockets.ts). */
  remotePort: number;
}

type FromChild = { listening: number } | { received: ReceivedDelivery } | { ack: number };
type ToChild = { secrets: Record<string, string[]>; seq: number } | { release: string; seq: number };

export interface WebhookReceiver {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  received: ReceivedDelivery[];
  /** Verifies deliveries to `/<name>/…` with these secrets (those given before are forgotten). */
  secrets(name: string, secrets: string[]): Promise<void>;
  /** Answers every hanging request to `/<name>/hang`, and those that arrive after, 204. */
  release(name: string): Promise<void>;
  /** Resolves once `check` holds of what was received (checked on each request). */
  until(check: (received: readonly ReceivedDelivery[]) => boolean): Promise<void>;
  stop(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const child = fork(fileURLToPath(import.meta.url), ['serve'], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const events = new EventEmitter();
  const received: ReceivedDelivery[] = [];
  child.on('message', (message: FromChild) => {
    if ('received' in message) {
      received.push(message.received);
      events.emit('received');
    } else events.emit('message', message);
  });
  const [first] = (await once(child, 'message')) as [FromChild];
  if (!('listening' in first)) throw new Error('the receiver did not start');
  let seq = 0;
  const send = async (message: Omit<ToChild, 'seq'>) => {
    const mine = ++seq;
    const acked = new Promise<void>((resolve) => {
      const onMessage = (m: FromChild) => {
        if ('ack' in m && m.ack === mine) {
          events.off('message', onMessage);
          resolve();
        }
      };
      events.on('message', onMessage);
    });
    child.send({ ...message, seq: mine } as ToChild);
    await acked;
  };
  const exited = once(child, 'exit');
  return {
    origin: `http://127.0.0.1:${first.listening}`,
    received,
    secrets: (name, secrets) => send({ secrets: { [name]: secrets } }),
    release: (name) => send({ release: name }),
    until: (check) => untilAnnounced(events, 'received', () => check(received)),
    async stop() {
      stopChild(child);
      await exited;
    },
  };
}

function stopChild(child: ChildProcess): void {
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
}

/** The receiver process itself. */
function serve(): void {
  const secrets = new Map<string, string[]>();
  const failures = new Map<string, number>();
  const concurrent = new Map<string, number>();
  const hanging = new Map<string, (() => void)[]>();
  const released = new Set<string>();
  const report = (message: FromChild) => process.send!(message);

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://receiver');
      const [, name = '', ...rest] = url.pathname.split('/');
      const behaviour = rest.join('/');
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = {
        'webhook-id': String(req.headers['webhook-id'] ?? ''),
        'webhook-timestamp': String(req.headers['webhook-timestamp'] ?? ''),
        'webhook-signature': String(req.headers['webhook-signature'] ?? ''),
      };
      // Verified as any receiver would: with the library, against each secret it holds.
      const verified = (secrets.get(name) ?? []).some((secret) => {
        try {
          new Webhook(secret).verify(body, headers);
          return true;
        } catch {
          return false;
        }
      });
      concurrent.set(name, (concurrent.get(name) ?? 0) + 1);
      const answer = (status: number, extra: Record<string, string> = {}) => {
        concurrent.set(name, concurrent.get(name)! - 1);
        res
          .writeHead(status, { 'content-type': 'text/plain', ...extra })
          .end(status < 300 ? '' : `answered ${status} by the test receiver`);
      };
      report({
        received: {
          name,
          behaviour,
          webhookId: headers['webhook-id'],
          timestamp: headers['webhook-timestamp'],
          signature: headers['webhook-signature'],
          body,
          verified,
          concurrent: concurrent.get(name)!,
          at: Date.now(),
          remotePort: req.socket.remotePort ?? 0,
        },
      });
      if (!verified) return answer(401);
      const [kind, a, b] = behaviour.split('/');
      if (kind === 'ok') return answer(204);
      if (kind === 'status') return answer(Number(a));
      if (kind === 'retry-after') return answer(Number(a), { 'retry-after': String(b) });
      if (kind === 'fail') {
        const seen = (failures.get(headers['webhook-id']) ?? 0) + 1;
        failures.set(headers['webhook-id'], seen);
        return answer(seen <= Number(a) ? 500 : 204);
      }
      if (kind === 'hang') {
        if (released.has(name)) return answer(204);
        hanging.set(name, [...(hanging.get(name) ?? []), () => answer(204)]);
        return;
      }
      if (kind === 'redirect') return answer(302, { location: url.searchParams.get('to') ?? '/' });
      return answer(404);
    });
  });
  server.keepAliveTimeout = 60_000;
  process.on('message', (message: ToChild) => {
    if ('secrets' in message) for (const [name, list] of Object.entries(message.secrets)) secrets.set(name, list);
    if ('release' in message) {
      released.add(message.release);
      for (const answer of hanging.get(message.release) ?? []) answer();
      hanging.delete(message.release);
    }
    report({ ack: message.seq });
  });
  process.on('SIGTERM', () => process.exit(0));
  process.on('disconnect', () => process.exit(0));
  server.listen(0, '127.0.0.1', () => report({ listening: (server.address() as { port: number }).port }));
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2] === 'serve') serve();
