import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AdminService, openStore } from '@gp-gateway/gateway';
import { startSilentGateway } from './silentGateway.ts';

/**
 * `pnpm bench:events`: events read per second through `GET /v1/events`, following the feed with
 * its cursor in pages of 1,000, from a gateway on the embedded SQLite store holding EVENTS
 * (EVENTS_BENCH_COUNT, default 50,000) customer events with their records.
 */
const COUNT = Number(process.env.EVENTS_BENCH_COUNT ?? 50_000);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'events-bench-'));
try {
  const store = await openStore({ dataDir: dir, databaseUrl: null });
  const admin = new AdminService(store);
  const org = await admin.createOrganisation('Events bench');
  await admin.setLimits(org.id, { requestsPerWindow: 1_000_000 });
  const { secret } = await admin.issueApiKey({ orgId: org.id, name: 'bench', mode: 'live', scopes: ['read'] });
  const record = (id: string) => ({ id, name: `Customer ${id}`, creditLimit: '1000.00', phone: '555-0100', inactive: false, hold: false });
  for (let i = 0; i < COUNT; i += 1_000) {
    const events = Array.from({ length: Math.min(1_000, COUNT - i) }, (_, n) => {
      const id = `C${String(i + n).padStart(8, '0')}`;
      const at = new Date(Date.UTC(2026, 0, 1) + (i + n) * 1000).toISOString();
      return {
        orgId: org.id,
        connectionId: 'conn_bench',
        company: 'TWO',
        type: 'customer.updated',
        object: 'customers',
        recordId: id,
        version: `changed:${at}`,
        changedAt: at,
        data: record(id),
      };
    });
    await store.appendEvents(events, new Date());
  }
  const gateway = await startSilentGateway(store, 30_000);
  try {
    let cursor: string | null = null;
    let read = 0;
    const started = performance.now();
    for (;;) {
      const query = new URLSearchParams({ limit: '1000', ...(cursor ? { cursor } : {}) });
      const res = await fetch(`${gateway.url}/v1/events?${query}`, { headers: { authorization: `Bearer ${secret}` } });
      const page = (await res.json()) as { data: unknown[]; nextCursor: string };
      cursor = page.nextCursor;
      if (!page.data.length) break;
      read += page.data.length;
    }
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `read ${read.toLocaleString('en')} events in ${seconds.toFixed(2)} s: ${Math.round(read / seconds).toLocaleString('en')} events/s`,
    );
  } finally {
    await gateway.close();
    await store.close();
  }
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
