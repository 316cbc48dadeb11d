import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { generateDemo } from '@gp-gateway/gp-demo';
import { log, startGatewayAndAgent } from './system.ts';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * `pnpm bench:change-latency`: from a change committed in the embedded database to its event
 * readable on /v1/events, at the agent's default interval (15 s), for SAMPLES updates
 * (CHANGE_LATENCY_SAMPLES, default 12) made at random moments while a client follows the feed.
 */
const SAMPLES = Number(process.env.CHANGE_LATENCY_SAMPLES ?? 12);
const INTERVAL_MS = 15_000;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'change-latency-'));
generateDemo({ dir, scale: 1 });
const system = await startGatewayAndAgent([], { dir, changesIntervalMs: INTERVAL_MS });
const gp = new Database(path.join(dir, 'TWO.sqlite'));
try {
  let cursor: string | null = null;
  /** Customer ids of the events that came since the last call. */
  const next = async (): Promise<string[]> => {
    const query = new URLSearchParams({ type: 'customer.updated', limit: '1000', ...(cursor ? { cursor } : {}) });
    const res = await fetch(`${system.url}/v1/events?${query}`, { headers: { authorization: system.auth.authorization! } });
    const page = (await res.json()) as { data: { recordId: string }[]; nextCursor: string };
    cursor = page.nextCursor;
    return page.data.map((e) => e.recordId);
  };
  const ids = gp
    .prepare('SELECT rtrim(CUSTNMBR) FROM RM00101 ORDER BY CUSTNMBR LIMIT ?')
    .pluck()
    .all(SAMPLES + 1) as string[];
  const touch = (id: string) => gp.prepare('UPDATE RM00101 SET CUSTNAME = ? WHERE rtrim(CUSTNMBR) = ?').run(`Changed ${Date.now()}`, id);
  // The agent reports nothing until it has learnt the table: change one customer until its event comes.
  for (let seen = false; !seen;) {
    touch(ids[0]!);
    const until = Date.now() + INTERVAL_MS * 2;
    while (!seen && Date.now() < until) {
      seen = (await next()).includes(ids[0]!);
      await sleep(50);
    }
  }
  log('the agent reports changes; measuring');
  const committed = new Map<string, number>();
  const latencies: number[] = [];
  const follow = (async () => {
    while (latencies.length < SAMPLES) {
      for (const id of await next()) {
        const at = committed.get(id);
        if (at !== undefined) latencies.push(Date.now() - at);
      }
      await sleep(20);
    }
  })();
  for (const id of ids.slice(1)) {
    await sleep(Math.random() * INTERVAL_MS);
    touch(id);
    committed.set(id, Date.now());
  }
  await follow;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!;
  console.log(
    `change committed → event readable, ${SAMPLES} updates at a ${INTERVAL_MS / 1000} s interval: p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, min ${latencies[0]} ms`,
  );
} finally {
  gp.close();
  await system.stop();
  fs.rmSync(dir, { recursive: true, force: true });
}
