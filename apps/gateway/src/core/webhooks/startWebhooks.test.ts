import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import pino from 'pino';
import { NO_METRICS } from '../../infrastructure/telemetry/metrics.ts';
import { tempStore } from '../../testing/tempStore.ts';
import { CursorCodec } from '../reads/cursor.ts';
import { startWebhooks } from './startWebhooks.ts';

const { store, dispose } = await tempStore();
after(dispose);

async function start(allowPrivateTargets: boolean): Promise<string[]> {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const webhooks = startWebhooks({
    store,
    log: pino({ level: 'info' }, sink),
    metrics: NO_METRICS,
    cursors: new CursorCodec(randomBytes(32)),
    secretsKey: randomBytes(32),
    allowPrivateTargets,
  });
  await webhooks.stop();
  return lines.map((l) => JSON.parse(l).msg as string);
}

test('private targets are off unless the operator allows them, and allowing them is logged as a warning at start', async () => {
  assert.deepEqual(await start(false), []);
  const [warning, ...rest] = await start(true);
  assert.match(
    warning!,
    /^WEBHOOKS_ALLOW_PRIVATE_TARGETS is on: webhooks may be sent over plain http and to loopback and private addresses \(development only\)$/,
  );
  assert.deepEqual(rest, []);
});
