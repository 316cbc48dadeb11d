import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { openStore } from '@gp-gateway/gateway';
import { customerChange, startWebhookReceiver, webhookRig, type ReceivedDelivery } from '@gp-gateway/gateway/testing';

/**
 * `pnpm bench:webhooks`: the webhook worker of one gateway instance on the embedded SQLite store,
 * delivering to a receiver process on loopback that verifies every signature (as an integrator's would):
 * 1. throughput: WEBHOOKS_BENCH_EVENTS (default 2,000) events fanned out to 10 endpoints, all sent
 *    and verified; then the same to a bare receiver in this process (the gateway's side alone);
 * 2. latency from an event stored to its delivery received, events stored one at a time at 50/s;
 * 3. the process's memory with 100,000 deliveries waiting (their endpoint answers nothing, holding its 4 slots).
 */
const EVENTS = Number(process.env.WEBHOOKS_BENCH_EVENTS ?? 2_000);
const ENDPOINTS = 10;
const WAITING = 100_000;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'webhooks-bench-'));
const receiver = await startWebhookReceiver();
const store = await openStore({ dataDir: dir, databaseUrl: null });
const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;
const gc = (globalThis as { gc?: () => void }).gc;

try {
  const orgId = (await store.createOrganisation('Webhooks bench')).id;
  const rig = webhookRig(store, { perEndpoint: 16 });
  const names: string[] = [];
  for (let i = 0; i < ENDPOINTS; i++) {
    const { secret } = await rig.endpoints.create(orgId, { url: `${receiver.origin}/t${i}/ok`, eventTypes: ['customer.*'] });
    await receiver.secrets(`t${i}`, [secret]);
    names.push(`t${i}`);
  }
  const verifiedOf = (prefix: (d: ReceivedDelivery) => boolean) => receiver.received.filter(prefix);

  // 1. Throughput.
  const total = EVENTS * ENDPOINTS;
  const started = performance.now();
  for (let i = 0; i < EVENTS; i += 500) {
    await rig.store(Array.from({ length: Math.min(500, EVENTS - i) }, () => customerChange(orgId)));
  }
  await receiver.until((r) => r.length >= total);
  const seconds = (performance.now() - started) / 1000;
  const throughput = verifiedOf((d) => names.includes(d.name));
  if (!throughput.every((d) => d.verified)) throw new Error('a delivery did not verify');
  console.log(
    `throughput: ${total.toLocaleString('en')} deliveries (${EVENTS.toLocaleString('en')} events x ${ENDPOINTS} endpoints) in ${seconds.toFixed(1)} s: ${Math.round(total / seconds)} deliveries/s, every one verified`,
  );
  for (let i = 1; i < ENDPOINTS; i++) await rig.endpoints.disable(orgId, (await rig.endpoints.list(orgId))[i]!.id);

  // 1b. The gateway's side alone: the same to a bare receiver in this process that checks nothing
  // and answers 204 (it shares this process's CPU with the worker, so the figure is conservative).
  let bareCount = 0;
  let allBare: () => void = () => {};
  const bare = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(204).end();
      if (++bareCount === total) allBare();
    });
  });
  await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', () => resolve()));
  const barePort = (bare.address() as AddressInfo).port;
  const bareEndpoints: string[] = [];
  for (let i = 0; i < ENDPOINTS; i++) {
    bareEndpoints.push(
      (await rig.endpoints.create(orgId, { url: `http://127.0.0.1:${barePort}/b${i}`, eventTypes: ['vendor.*'] })).endpoint.id,
    );
  }
  const bareDone = new Promise<void>((resolve) => (allBare = resolve));
  const bareStarted = performance.now();
  for (let i = 0; i < EVENTS; i += 500) {
    await rig.store(Array.from({ length: Math.min(500, EVENTS - i) }, () => customerChange(orgId, 'conn_1', 'vendor.updated')));
  }
  await bareDone;
  const bareSeconds = (performance.now() - bareStarted) / 1000;
  console.log(
    `gateway side: ${total.toLocaleString('en')} deliveries to a bare in-process receiver in ${bareSeconds.toFixed(1)} s: ${Math.round(total / bareSeconds)} deliveries/s (signed, not verified)`,
  );
  for (const id of bareEndpoints) await rig.endpoints.delete(orgId, id);
  bare.close();

  // 2. Latency from stored to received, one event at a time.
  const before = receiver.received.length;
  const storedAt = new Map<string, number>();
  for (let i = 0; i < 500; i++) {
    const [event] = await rig.store([customerChange(orgId)]);
    storedAt.set(event!.id, Date.parse(event!.recordedAt));
    await new Promise((r) => setTimeout(r, 20));
  }
  await receiver.until((r) => r.length >= before + 500);
  const latencies = receiver.received
    .slice(before)
    .map((d) => d.at - storedAt.get(d.webhookId)!)
    .sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))]!;
  console.log(
    `latency, event stored to delivery received (500 events at 50/s): p50 ${pct(50)} ms, p99 ${pct(99)} ms, max ${latencies.at(-1)} ms`,
  );
  await rig.endpoints.disable(orgId, (await rig.endpoints.list(orgId))[0]!.id);

  // 3. Memory with 100,000 deliveries waiting.
  gc?.();
  const idle = process.memoryUsage();
  const { endpoint, secret } = await rig.endpoints.create(orgId, { url: `${receiver.origin}/stuck/hang`, eventTypes: ['vendor.*'] });
  await receiver.secrets('stuck', [secret]);
  const body = JSON.stringify({ ...customerChange(orgId), id: 'evt_x', recordedAt: new Date().toISOString() });
  for (let i = 0; i < WAITING; i += 5_000) {
    const part = Array.from({ length: 5_000 }, (_, n) => ({
      orgId,
      endpointId: endpoint.id,
      eventId: `evt_wait${i + n}`,
      eventType: 'vendor.updated',
      body,
    }));
    await store.enqueueWebhookDeliveries(part, rig.clock.now());
  }
  rig.worker.nudge();
  await receiver.until((r) => r.filter((d) => d.name === 'stuck').length >= 4);
  const due = await store.countDueWebhookDeliveries(new Date(Date.now() + 1000));
  gc?.();
  const waiting = process.memoryUsage();
  console.log(
    `memory with ${due.toLocaleString('en')} deliveries waiting: heap ${mb(waiting.heapUsed)} (idle ${mb(idle.heapUsed)}), rss ${mb(waiting.rss)} (idle ${mb(idle.rss)})${gc ? '' : ' (without --expose-gc)'}`,
  );
  await receiver.release('stuck');
  await rig.endpoints.delete(orgId, endpoint.id);
  await rig.stop();
} finally {
  await receiver.stop();
  await store.close();
  fs.rmSync(dir, { recursive: true, force: true });
}
