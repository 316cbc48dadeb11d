import { test } from 'node:test';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import type { Change } from '@gp-gateway/protocol';
import type { Executor } from '../db/executor.ts';
import { mssqlDialect } from '../sql/mssqlDialect.ts';
import type { CompiledQuery } from '../sql/model.ts';
import { ChangeDetector } from './changeDetector.ts';
import {
  changeTrackingFinding,
  changeTrackingStatements,
  changeTrackingStatusOf,
  enableChangeTrackingStatements,
  trackedTables,
} from './changeTracking.ts';
import { tsSeconds } from './statements.ts';
import { TRACKED_OBJECTS } from './trackedObjects.ts';

/**
 * Change detection from SQL Server Change Tracking, against a stand-in for SQL Server that keeps
 * GP's receivables tables and a change log as CHANGETABLE(CHANGES …) reports it (net changes per key
 * since a version, with the row as it is now): the merging of what it reports into events. That the
 * statements are T-SQL is tsqlParse.test.ts's job; that SQL Server answers them so, the gated
 * e2e/mssql.test.ts's (MSSQL_URL).
 */
type Row = Record<string, string | number>;
interface Logged {
  version: number;
  table: string;
  op: 'I' | 'U' | 'D';
  key: string;
}

const arInvoices = TRACKED_OBJECTS.find((t) => t.object === 'ar-invoices')!;
const keyColumns = (table: string) => arInvoices.sources.find((s) => s.table === table)!.key.map((k) => k.column);

/** GP's RM10301, RM20101 and RM30101 with Change Tracking on (or off, or purged past `minValid`). */
class TrackedGp implements Executor {
  readonly dialect = mssqlDialect;
  readonly systemDatabase = 'DYNAMICS';
  readonly tables = new Map<string, Map<string, Row>>(['RM10301', 'RM20101', 'RM30101'].map((t) => [t, new Map()]));
  readonly log: Logged[] = [];
  readonly statements: string[] = [];
  version = 10;
  on = true;
  minValid = 0;
  private stamp = Date.parse('2026-03-01T09:00:00Z');
  private rowId = 1;

  keyOf(table: string, row: Row): string {
    return JSON.stringify(keyColumns(table).map((c) => row[c]));
  }
  /** One transaction: its writes share one version, as in SQL Server. */
  transaction(write: (version: number) => void): void {
    this.version++;
    write(this.version);
  }
  insert(table: string, row: Row, version = this.version): void {
    const full = { ...row, DEX_ROW_TS: this.nextStamp(), DEX_ROW_ID: this.rowId++ };
    this.tables.get(table)!.set(this.keyOf(table, full), full);
    this.log.push({ version, table, op: 'I', key: this.keyOf(table, full) });
  }
  update(table: string, row: Row): void {
    const key = this.keyOf(table, row);
    const now = this.tables.get(table)!.get(key)!;
    now.DEX_ROW_TS = this.nextStamp();
    this.log.push({ version: this.version, table, op: 'U', key });
  }
  delete(table: string, row: Row): void {
    const key = this.keyOf(table, row);
    this.tables.get(table)!.delete(key);
    this.log.push({ version: this.version, table, op: 'D', key });
  }
  private nextStamp(): string {
    this.stamp += 1000;
    return new Date(this.stamp).toISOString().replace('T', ' ').replace('Z', '');
  }

  async query(_company: string | null, query: CompiledQuery): Promise<unknown[][]> {
    this.statements.push(query.sql);
    if (query.sql.includes('change_tracking_tables'))
      return trackedTables().map((t) => [t, this.on ? 1 : 0, this.on ? 1 : 0, this.on ? String(this.minValid) : null]);
    if (query.sql.includes('CHANGE_TRACKING_CURRENT_VERSION')) return [[String(this.version)]];
    const table = /\[dbo\]\.\[(\w+)\]/.exec(query.sql)![1]!;
    const source = arInvoices.sources.find((s) => s.table === table)!;
    const rowValues = (row: Row) => [...source.key, ...source.idColumns].map((c) => row[c.column]);
    const rows = [...this.tables.get(table)!.values()];
    if (query.sql.includes('CHANGETABLE')) {
      const [since, upto] = query.params.map((p) => Number(p.value));
      const byKey = new Map<string, Logged[]>();
      for (const entry of this.log.filter((e) => e.table === table && e.version > since! && e.version <= upto!))
        byKey.set(entry.key, [...(byKey.get(entry.key) ?? []), entry]);
      return [...byKey].map(([key, entries]) => {
        const now = this.tables.get(table)!.get(key);
        const inserted = entries.find((e) => e.op === 'I');
        const op = entries.at(-1)!.op === 'D' ? 'D' : inserted ? 'I' : 'U';
        const keyValues = JSON.parse(key) as unknown[];
        const rest = now
          ? [...source.idColumns.map((c) => now[c.column]), now.DEX_ROW_TS, now.DEX_ROW_ID]
          : source.idColumns.map(() => null).concat([null, null]);
        return [entries.at(-1)!.version, op, inserted ? inserted.version : null, ...keyValues, ...rest];
      });
    }
    if (query.sql.includes('COUNT(*)'))
      return [
        [rows.length, rows.reduce((n, r) => n + Number(r.DEX_ROW_ID), 0), rows.reduce((n, r) => n + tsSeconds(String(r.DEX_ROW_TS)), 0)],
      ];
    // The watermark's scan and a range's rows: every row (a superset of either is read the same).
    return rows.map((r) => [...rowValues(r), r.DEX_ROW_TS, r.DEX_ROW_ID]);
  }
  async forEachRow(): Promise<void> {
    throw new Error('not used');
  }
  async gpVersion(): Promise<string> {
    return 'stand-in';
  }
  async checkReadable(): Promise<void> {}
  async close(): Promise<void> {}
}

/** Records as the catalogue would read them: any document in one of the tables, by its API id. */
const records = (gp: TrackedGp) => async (_company: string, _object: string, ids: readonly string[]) => {
  const present = new Set([...gp.tables.values()].flatMap((rows) => [...rows.values()].map((r) => `invoice:${String(r.DOCNUMBR)}`)));
  return new Map(ids.filter((id) => present.has(id)).map((id) => [id, { id }]));
};

async function poll(d: ChangeDetector): Promise<Change[]> {
  const found = await d.poll('TWO', arInvoices);
  found.commit();
  return found.changes;
}
const summary = (changes: Change[]) => changes.map((c) => `${c.kind} ${c.id}`).sort();
const invoice = (number: string, customer = 'AARONFIT0001'): Row => ({
  CUSTNMBR: customer,
  RMDTYPAL: 1,
  DOCNUMBR: number,
  RMDNUMWK: number,
});

function standIn(): TrackedGp {
  const gp = new TrackedGp();
  gp.transaction(() => {
    for (const n of ['B', 'C', 'E']) gp.insert('RM20101', invoice(n));
    gp.insert('RM10301', invoice('D'));
  });
  return gp;
}

test('with Change Tracking on, each change is one event: inserts, updates, deletes, posting and history moves as updates, none for a row created and deleted between polls', async () => {
  const gp = standIn();
  const d = new ChangeDetector(gp, records(gp), { rangeRows: 500 });
  assert.deepEqual(await poll(d), [], 'the first poll learns the tables, at the current version');

  gp.transaction(() => gp.insert('RM10301', invoice('A')));
  gp.transaction(() => gp.update('RM20101', invoice('B')));
  gp.transaction(() => gp.delete('RM20101', invoice('C')));
  // Posting: one transaction leaves the work table and arrives in the open one.
  gp.transaction(() => {
    gp.insert('RM20101', invoice('D'));
    gp.delete('RM10301', invoice('D'));
  });
  gp.transaction(() => {
    gp.insert('RM30101', invoice('E'));
    gp.delete('RM20101', invoice('E'));
  });
  gp.transaction(() => gp.insert('RM10301', invoice('F')));
  gp.transaction(() => gp.delete('RM10301', invoice('F')));

  gp.statements.length = 0;
  const changes = await poll(d);
  assert.deepEqual(summary(changes), [
    'created invoice:A',
    'deleted invoice:C',
    'updated invoice:B',
    'updated invoice:D',
    'updated invoice:E',
  ]);
  assert.ok(
    !gp.statements.some((s) => s.includes('COUNT(*)') || s.includes('[DEX_ROW_TS] >=')),
    'no scans, no ranges: Change Tracking is exact',
  );
  assert.deepEqual(await poll(d), [], 'nothing twice');

  // An update made while the agent reads is read again with the next version, and is the same change.
  const b = changes.find((c) => c.id === 'invoice:B')!;
  gp.transaction(() => gp.update('RM20101', invoice('B')));
  const again = await poll(d);
  assert.equal(again.length, 1);
  assert.notEqual(again[0]!.version, b.version, 'a new stamp: a new change');
});

test('changes purged before the agent read them (it was down past the retention), or Change Tracking turned off: detection falls back to DEX_ROW_TS and key ranges', async () => {
  const gp = standIn();
  const d = new ChangeDetector(gp, records(gp), { rangeRows: 500, changeTracking: { statusTtlMs: 0 } });
  await poll(d);
  gp.transaction(() => gp.update('RM20101', invoice('B')));
  gp.transaction(() => gp.delete('RM20101', invoice('C')));
  gp.minValid = gp.version + 1;
  gp.statements.length = 0;
  assert.deepEqual(summary(await poll(d)), ['deleted invoice:C', 'updated invoice:B']);
  assert.ok(gp.statements.some((s) => s.includes('COUNT(*)')) && !gp.statements.some((s) => s.includes('CHANGETABLE')));

  gp.on = false;
  gp.transaction(() => gp.insert('RM10301', invoice('G')));
  assert.deepEqual(summary(await poll(d)), ['created invoice:G']);
});

test('diagnose says where Change Tracking is on, and prints what turns it on with its cost', () => {
  const tables = trackedTables();
  const on = changeTrackingStatusOf(
    'TWO',
    tables.map((t) => [t, 1, 1, '5']),
  );
  assert.equal(changeTrackingFinding([on]).status, 'ok');

  const partly = changeTrackingStatusOf(
    'TWO',
    tables.map((t) => [t, t === 'RM00101' ? 0 : 1, 1, '5']),
  );
  const off = changeTrackingStatusOf(
    'NWIND',
    tables.map((t) => [t, 0, 0, null]),
  );
  const finding = changeTrackingFinding([partly, off]);
  assert.equal(finding.status, 'warn', 'optional: detection works without it');
  assert.match(finding.summary, /TWO: on, but not for RM00101; NWIND: off/);
  assert.ok(finding.details!.includes('ALTER TABLE [TWO].[dbo].[RM00101] ENABLE CHANGE_TRACKING WITH (TRACK_COLUMNS_UPDATED = OFF);'));
  assert.ok(!finding.details!.some((l) => l.startsWith('ALTER DATABASE [TWO]')), 'TWO has it on already');
  assert.ok(finding.details!.includes('ALTER DATABASE [NWIND] SET CHANGE_TRACKING = ON (CHANGE_RETENTION = 2 DAYS, AUTO_CLEANUP = ON);'));
  assert.match(finding.details!.at(-1)!, /^Cost: /);
  assert.deepEqual(enableChangeTrackingStatements('TWO', ['RM00101']).length, 3);
});

/**
 * The Change Tracking statements as reviewed (golden/changeTracking.sql; UPDATE_GOLDEN=1 rewrites it,
 * then read the diff): the status query, the current version, each tracked table's changes, and
 * what a DBA runs. tsqlParse.test.ts parses every one of them with sqlfluff's T-SQL grammar.
 */
test('golden T-SQL of Change Tracking', () => {
  const file = path.join(path.dirname(fileURLToPath(import.meta.url)), 'golden', 'changeTracking.sql');
  const actual = `${changeTrackingStatements()
    .map((s) => `-- ${s.label}\n${s.sql}\n`)
    .join('\n')}`;
  if (process.env.UPDATE_GOLDEN === '1') fs.writeFileSync(file, actual);
  assert.ok(fs.existsSync(file), `missing ${file}; run with UPDATE_GOLDEN=1 and review it`);
  assert.equal(actual, fs.readFileSync(file, 'utf8'));
});
