import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { generateDemo } from '@gp-gateway/gp-demo';
import { cpuMs, DATA, log, SCHEMA_VERSION, startGatewayAndAgent, startProcess, type BenchRequest, type Load } from './system.ts';
import { loadInTurns, sequential, TURN_SECONDS, type Latency, type Target } from './turns.ts';

/**
 * Issue 19's write benchmark: sales orders of 5 lines and journal entries of 4 lines, POSTed
 * through the gateway and an agent running with --allow-writes (separate processes over loopback,
 * a live key with the `write` scope, the objects on the connection's write whitelist, a unique
 * Idempotency-Key per write), side by side with the floor (bench/writeFloorServer.ts: the agent's
 * own write path in-process behind a bare node:http server). Each side writes to its own fresh
 * copy of the same demo database, so neither sees the other's documents or lock.
 *
 * The database is a demo of BENCH_WRITE_SCALE (default 20: 10,000 customers, 100,000 GL lines per
 * company), generated once into bench/.data and copied per run: writes grow it, and copying the
 * reads' 2.3 GB scale-200 company twice a run would cost more than the writes. Every lookup a write
 * makes is on one of GP's indexes, so a write's cost grows with the log of the tables' size only;
 * a smaller database makes the floor faster, if anything, and the ratios harder to meet.
 */
export const WRITE_SCALE = Number(process.env.BENCH_WRITE_SCALE ?? 20);
const writesDemoDir = path.join(DATA, `writes-scale-${WRITE_SCALE}-schema-${SCHEMA_VERSION}`);
export const WRITE_OBJECTS = ['sales-orders', 'gl-entries'] as const;
const OBJECTS = WRITE_OBJECTS;
export type Measured = (typeof OBJECTS)[number];

export interface CpuMs {
  gateway: number;
  agent: number;
  floor: number;
}

/** What one object's writes measured, each side. */
export interface WriteFigures {
  object: Measured;
  /** Throughput at concurrency 16 (autocannon, alternating turns). */
  c16: { gateway: Load; floor: Load };
  /** One write after another, the sides taking turns write by write. */
  c1: { gateway: Latency; floor: Latency };
}

export interface WriteResults {
  scale: number;
  secondsPerScenario: number;
  figures: WriteFigures[];
  /** CPU per write in ms, per process (the gateway and the agent of one side, the floor of the other), at 16 connections and at 1. */
  cpuMsPerWrite: Record<Measured, { c16: CpuMs; c1: CpuMs }>;
  /**
   * Per side and object: the writes answered 201 and the documents its database holds afterwards
   * (a few more than answered: autocannon ends a turn with writes in flight, uncounted).
   */
  counted: Record<'gateway' | 'floor', Record<Measured, { acknowledged: number; documents: number }>>;
}

export function ensureWritesDatabase(): void {
  if (fs.existsSync(path.join(writesDemoDir, 'DYNAMICS.sqlite'))) return;
  for (const stale of fs.existsSync(DATA) ? fs.readdirSync(DATA) : []) {
    if (stale.startsWith(`writes-scale-${WRITE_SCALE}-schema-`)) fs.rmSync(path.join(DATA, stale), { recursive: true, force: true });
  }
  log(`generating the scale-${WRITE_SCALE} database for writes in ${writesDemoDir} (once; copied per run)`);
  generateDemo({ dir: writesDemoDir, scale: WRITE_SCALE });
}

/** A fresh copy of the writes database in a temporary folder. */
export function freshCopy(label: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `bench-writes-${label}-`));
  for (const file of fs.readdirSync(writesDemoDir)) fs.copyFileSync(path.join(writesDemoDir, file), path.join(dir, file));
  return dir;
}

/** Real ids of the demo to refer to, as an integrator would take them from GP. */
export function references(dir: string) {
  const db = new Database(path.join(dir, 'TWO.sqlite'), { readonly: true });
  try {
    const column = (sql: string) => db.prepare(sql).pluck().all() as string[];
    const refs = {
      customers: column('SELECT rtrim(CUSTNMBR) FROM RM00101 WHERE INACTIVE = 0 ORDER BY random() LIMIT 500'),
      items: column('SELECT rtrim(ITEMNMBR) FROM IV00101 ORDER BY random() LIMIT 300'),
      sites: column('SELECT rtrim(LOCNCODE) FROM IV40700'),
      orderTypes: column('SELECT rtrim(DOCID) FROM SOP40200 WHERE SOPTYPE = 2'),
      // Journal lines take active posting accounts only (the agent refuses unit and allocation accounts).
      accounts: column(
        'SELECT rtrim(n.ACTNUMST) FROM GL00105 n JOIN GL00100 a ON a.ACTINDX = n.ACTINDX WHERE a.ACTIVE = 1 AND a.ACCTTYPE = 1',
      ),
    };
    for (const [name, ids] of Object.entries(refs)) if (!ids.length) throw new Error(`the writes database has no ${name}`);
    if (refs.accounts.length < 4) throw new Error('the writes database has fewer than 4 posting accounts');
    // New batches, one per kind of document: the agent refuses a batch id another kind uses.
    for (const batch of ['BENCHSO', 'BENCHGL'])
      if (db.prepare('SELECT 1 FROM SY00500 WHERE rtrim(BACHNUMB) = ?').get(batch)) throw new Error(`batch ${batch} exists already`);
    return refs;
  } finally {
    db.close();
  }
}

export type Refs = ReturnType<typeof references>;
const pick = <T>(values: readonly T[]): T => values[Math.floor(Math.random() * values.length)]!;
const cents = (n: number) => (n / 100).toFixed(2);
const today = new Date().toISOString().slice(0, 10);

/** A sales order of 5 lines, each a random item at a random quantity and price. */
function salesOrder(refs: Refs): Record<string, unknown> {
  return {
    docTypeId: refs.orderTypes[0],
    customerId: pick(refs.customers),
    date: today,
    batchId: 'BENCHSO',
    siteId: refs.sites[0],
    lines: Array.from({ length: 5 }, () => ({
      itemId: pick(refs.items),
      quantity: String(1 + Math.floor(Math.random() * 20)),
      unitPrice: cents(100 + Math.floor(Math.random() * 100_000)),
    })),
  };
}

let entries = 0;
/** A balanced journal entry of 4 lines on distinct posting accounts: two debits, two credits. */
function journalEntry(refs: Refs): Record<string, unknown> {
  const [a, b, c, d] = [...refs.accounts].sort(() => Math.random() - 0.5);
  const debits = [100 + Math.floor(Math.random() * 100_000), 100 + Math.floor(Math.random() * 100_000)];
  const total = debits[0]! + debits[1]!;
  const credit = 1 + Math.floor(Math.random() * (total - 1));
  return {
    reference: `BENCH ${++entries}`,
    date: today,
    batchId: 'BENCHGL',
    lines: [
      { accountNumber: a, debit: cents(debits[0]!) },
      { accountNumber: b, debit: cents(debits[1]!) },
      { accountNumber: c, credit: cents(credit) },
      { accountNumber: d, credit: cents(total - credit) },
    ],
  };
}

/** The next write of `object` as a request; through the gateway, with a new Idempotency-Key each. */
export function writes(object: Measured, refs: Refs, viaGateway: boolean): () => BenchRequest {
  const body = object === 'sales-orders' ? salesOrder : journalEntry;
  return () => ({
    path: `/v1/${object}`,
    method: 'POST',
    body: JSON.stringify(body(refs)),
    headers: { 'content-type': 'application/json', ...(viaGateway && { 'idempotency-key': `bench-${randomUUID()}` }) },
  });
}

/** Documents of each kind in a side's company database. */
function countDocuments(dir: string): { salesOrders: number; journalEntries: number } {
  const db = new Database(path.join(dir, 'TWO.sqlite'), { readonly: true });
  try {
    const count = (sql: string) => Number(db.prepare(sql).pluck().get());
    return {
      salesOrders: count("SELECT count(*) FROM SOP10100 WHERE rtrim(BACHNUMB) = 'BENCHSO'"),
      journalEntries: count("SELECT count(*) FROM GL10000 WHERE rtrim(BACHNUMB) = 'BENCHGL'"),
    };
  } finally {
    db.close();
  }
}

export async function measureWrites(seconds: number): Promise<WriteResults> {
  ensureWritesDatabase();
  const dirs = { gateway: freshCopy('gateway'), floor: freshCopy('floor') };
  const refs = references(dirs.gateway);
  const floor = await startProcess('bench/writeFloorServer.ts', [dirs.floor]);
  const system = await startGatewayAndAgent([], { dir: dirs.gateway, writes: OBJECTS });
  const fl = `http://127.0.0.1:${floor.port}`;
  const acknowledged = { gateway: { 'sales-orders': 0, 'gl-entries': 0 }, floor: { 'sales-orders': 0, 'gl-entries': 0 } };
  try {
    const target = (object: Measured, side: 'gateway' | 'floor'): Target =>
      side === 'gateway'
        ? { base: system.url, headers: system.auth, path: writes(object, refs, true) }
        : { base: fl, headers: {}, path: writes(object, refs, false) };

    // Both sides' first writes compile code and warm the caches of the pages writes touch.
    log('writes: warming up');
    for (const object of OBJECTS) {
      const [g, f] = await sequential([target(object, 'gateway'), target(object, 'floor')] as const, 1);
      acknowledged.gateway[object] += g.requests;
      acknowledged.floor[object] += f.requests;
    }

    const figures: WriteFigures[] = [];
    const cpuMsPerWrite = {} as WriteResults['cpuMsPerWrite'];
    // Each process serves one side only, so its CPU over a scenario divided by its side's writes is
    // its CPU per write (the other side's turns leave it idle but for heartbeats).
    const cpuNow = () => ({ ...system.cpu(), floor: cpuMs(floor.child.pid!) });
    const perWrite = (before: CpuMs, after: CpuMs, gateway: number, floorWrites: number): CpuMs => ({
      gateway: (after.gateway - before.gateway) / gateway,
      agent: (after.agent - before.agent) / gateway,
      floor: (after.floor - before.floor) / floorWrites,
    });
    for (const object of OBJECTS) {
      log(`writes: ${object}, 16 connections, ${seconds} s each in turns of ${TURN_SECONDS} s`);
      const start16 = cpuNow();
      const [g16, f16] = await loadInTurns([target(object, 'gateway'), target(object, 'floor')], 16, (run) => run(), seconds);
      const end16 = cpuNow();
      if (g16.errors || f16.errors) throw new Error(`${object} at 16 connections: ${g16.errors} gateway and ${f16.errors} floor errors`);
      log(`writes: ${object}, concurrency 1, ${seconds} s, the sides taking turns write by write`);
      const [g1, f1] = await sequential([target(object, 'gateway'), target(object, 'floor')] as const, seconds);
      const end1 = cpuNow();
      cpuMsPerWrite[object] = {
        c16: perWrite(start16, end16, g16.requests, f16.requests),
        c1: perWrite(end16, end1, g1.requests, f1.requests),
      };
      figures.push({ object, c16: { gateway: g16, floor: f16 }, c1: { gateway: g1, floor: f1 } });
      acknowledged.gateway[object] += g16.requests + g1.requests;
      acknowledged.floor[object] += f16.requests + f1.requests;
      log(
        `  ${object}: 16 connections ${g16.rps.toFixed(0)} vs ${f16.rps.toFixed(0)} writes/s; concurrency 1 p50 ${g1.p50.toFixed(2)} vs ${f1.p50.toFixed(2)} ms`,
      );
    }
    await system.stop();
    const counted = {} as WriteResults['counted'];
    for (const side of ['gateway', 'floor'] as const) {
      const documents = countDocuments(dirs[side]);
      counted[side] = {
        'sales-orders': { acknowledged: acknowledged[side]['sales-orders'], documents: documents.salesOrders },
        'gl-entries': { acknowledged: acknowledged[side]['gl-entries'], documents: documents.journalEntries },
      };
      // Exactly the writes answered, plus at most those in flight when a 16-connection turn ended.
      const inFlightAtTurnEnds = 16 * Math.max(1, Math.round(seconds / TURN_SECONDS));
      for (const object of OBJECTS) {
        const { acknowledged: answered, documents: held } = counted[side][object];
        if (held < answered || held > answered + inFlightAtTurnEnds)
          throw new Error(`${side}: ${answered} ${object} answered 201, but the database holds ${held}`);
      }
    }
    return { scale: WRITE_SCALE, secondsPerScenario: seconds, figures, cpuMsPerWrite, counted };
  } finally {
    await system.stop();
    floor.child.kill('SIGTERM');
    await new Promise((resolve) => (floor.child.exitCode !== null ? resolve(null) : floor.child.once('exit', resolve)));
    for (const dir of Object.values(dirs)) fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The writes' rows of the bench table: each figure with its ratio to the floor. */
export function writesTable(results: WriteResults): string[] {
  const lines: string[] = [];
  const row = (name: string, unit: string, g: number, f: number) => {
    const digits = unit === 'ms' ? 2 : 0;
    lines.push(`| ${name} | ${g.toFixed(digits)} ${unit} | ${f.toFixed(digits)} ${unit} | ${(g / f).toFixed(2)}× |`);
  };
  for (const { object, c16, c1 } of results.figures) {
    const name = object === 'sales-orders' ? 'write sales order (5 lines)' : 'write journal entry (4 lines)';
    row(`${name} throughput, 16 connections`, 'writes/s', c16.gateway.rps, c16.floor.rps);
    row(`${name} throughput, concurrency 1`, 'writes/s', c1.gateway.rps, c1.floor.rps);
    row(`${name} p50, concurrency 1`, 'ms', c1.gateway.p50, c1.floor.p50);
    row(`${name} p99, 16 connections`, 'ms', c16.gateway.p99, c16.floor.p99);
  }
  return lines;
}

/** Where each write's CPU went, per process, as list items. */
export function writesCpuLines(results: WriteResults): string[] {
  return Object.entries(results.cpuMsPerWrite).flatMap(([object, { c16, c1 }]) =>
    (
      [
        ['16 connections', c16],
        ['concurrency 1', c1],
      ] as const
    ).map(
      ([at, c]) =>
        `- CPU per ${object} write at ${at} (ms): gateway ${c.gateway.toFixed(2)} + agent ${c.agent.toFixed(2)} = ${(c.gateway + c.agent).toFixed(2)}; floor ${c.floor.toFixed(2)}`,
    ),
  );
}

/** Issue 19's write targets, each checked against this run. */
export function writeTargets(results: WriteResults): Array<{ name: string; met: boolean; value: string }> {
  const each = (value: (f: WriteFigures) => number, digits: number, unit: string) =>
    results.figures.map((f) => `${f.object} ${value(f).toFixed(digits)}${unit}`).join(', ');
  const ratio16 = (f: WriteFigures) => f.c16.gateway.rps / f.c16.floor.rps;
  const ratio1 = (f: WriteFigures) => f.c1.gateway.rps / f.c1.floor.rps;
  const added = (f: WriteFigures) => f.c1.gateway.p50 - f.c1.floor.p50;
  return [
    {
      name: 'write throughput at least 0.5x the floor at 16 connections (issue 19)',
      met: results.figures.every((f) => ratio16(f) >= 0.5),
      value: each(ratio16, 2, 'x'),
    },
    {
      name: 'write throughput at least 0.5x the floor at concurrency 1 (issue 19)',
      met: results.figures.every((f) => ratio1(f) >= 0.5),
      value: each(ratio1, 2, 'x'),
    },
    {
      name: 'write added p50 under 2 ms at concurrency 1 (issue 19)',
      met: results.figures.every((f) => added(f) < 2),
      value: each(added, 2, ' ms'),
    },
  ];
}
