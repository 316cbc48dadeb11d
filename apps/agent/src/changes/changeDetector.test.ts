import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { CustomerSchema, type Change } from '@gp-gateway/protocol';
import { demoGp } from '../testing/demoGp.ts';
import { catalogueRecords } from './catalogueRecords.ts';
import { ChangeDetector, type DetectorOptions } from './changeDetector.ts';
import { TRACKED_OBJECTS } from './trackedObjects.ts';
import { SqliteDetectionState, STATE_FILE_NAME } from './detectionState.ts';

/**
 * Change detection on the embedded GP database, changed as GP changes it: rows inserted with
 * DEX_ROW_TS stamped by its default, updated with it stamped by GP's trigger, deleted; and rows that
 * commit late, whose stamp is older than the last poll. Each change is found exactly once.
 */
const demo = demoGp('changes-');
const customers = TRACKED_OBJECTS.find((t) => t.object === 'customers')!;
const items = TRACKED_OBJECTS.find((t) => t.object === 'items')!;

/** Every range checked every poll, in ranges of 20 rows: the sweep is then deterministic. */
const detector = (options: DetectorOptions = {}) =>
  new ChangeDetector(demo.executor, catalogueRecords(demo.service), { rangeRows: 20, rangesPerPoll: 10_000, ...options });

async function poll(d: ChangeDetector, tracked = customers): Promise<Change[]> {
  const found = await d.poll('TWO', tracked);
  found.commit();
  return found.changes;
}
const summary = (changes: Change[]) => changes.map((c) => `${c.kind} ${c.id}`).sort();
/** DEX_ROW_TS as GP writes it, `ms` from now. */
const stamp = (ms: number) => new Date(Date.now() + ms).toISOString().replace('T', ' ').replace('Z', '');

test('inserts, updates and deletes made as GP makes them are found once each, with the record as the API serves it', async () => {
  const d = detector();
  assert.deepEqual(await poll(d), [], 'the first poll learns the table: its rows are not changes');
  assert.deepEqual(await poll(d), [], 'nothing changed');

  demo.gp.prepare('INSERT INTO RM00101 (CUSTNMBR, CUSTNAME) VALUES (?, ?)').run('NEWCUST0001', 'New Customer');
  demo.gp.prepare("UPDATE RM00101 SET CUSTNAME = 'Renamed' WHERE rtrim(CUSTNMBR) = 'AARONACA0001'").run();
  const victim = demo.gp.prepare('SELECT rtrim(CUSTNMBR) FROM RM00101 ORDER BY CUSTNMBR LIMIT 1 OFFSET 40').pluck().get() as string;
  demo.gp.prepare('DELETE FROM RM00101 WHERE rtrim(CUSTNMBR) = ?').run(victim);

  const changes = await poll(d);
  assert.deepEqual(summary(changes), [`deleted ${victim}`, 'created NEWCUST0001', 'updated AARONACA0001'].sort());
  const updated = changes.find((c) => c.id === 'AARONACA0001')!;
  assert.equal(CustomerSchema.parse(updated.record).name, 'Renamed');
  assert.equal(updated.changedAt, (updated.record as { modifiedAt: string }).modifiedAt, 'changedAt is the row’s DEX_ROW_TS');
  assert.equal(changes.find((c) => c.kind === 'deleted')!.record, null);

  assert.deepEqual(await poll(d), [], 'the overlap reads those rows again, and repeats none of them');
});

test('a row committed late, stamped before the last poll, is found once: within the overlap by its stamp, beyond it by its range', async () => {
  const d = detector({ overlapMs: 60_000 });
  await poll(d);
  // The watermark is now the newest stamp; GP commits a row it stamped 30 s before that poll...
  const newest = demo.gp.prepare('SELECT max(DEX_ROW_TS) FROM RM00101').pluck().get() as string;
  const older = new Date(Date.parse(`${newest.replace(' ', 'T')}Z`) - 30_000).toISOString().replace('T', ' ').replace('Z', '');
  demo.gp.prepare('INSERT INTO RM00101 (CUSTNMBR, CUSTNAME, DEX_ROW_TS) VALUES (?, ?, ?)').run('LATE0001', 'Late', older);
  // ... and one it stamped a day before, far beyond the overlap (a transaction held open that long).
  demo.gp.prepare('INSERT INTO RM00101 (CUSTNMBR, CUSTNAME, DEX_ROW_TS) VALUES (?, ?, ?)').run('LATE0002', 'Later', stamp(-86_400_000));
  // An update stamped a day back too: only the range's sum of stamps shows it.
  demo.gp.prepare("UPDATE RM00101 SET CUSTNAME = 'Quietly', DEX_ROW_TS = ? WHERE rtrim(CUSTNMBR) = 'AARONBUI0001'").run(stamp(-86_400_000));

  assert.deepEqual(summary(await poll(d)), ['created LATE0001', 'created LATE0002', 'updated AARONBUI0001']);
  assert.deepEqual(await poll(d), []);
});

test('two agents of one connection find the same changes with the same versions; changes not acknowledged are found again alike', async () => {
  const [a, b] = [detector(), detector()];
  await poll(a, items);
  await poll(b, items);
  demo.gp.prepare("UPDATE IV00101 SET ITEMDESC = 'Changed twice over' WHERE rowid = 3").run();
  const first = await poll(a, items);
  assert.equal(first.length, 1);
  assert.deepEqual(await poll(b, items), first, 'the same change, the same version: the gateway keeps one event');

  demo.gp.prepare("UPDATE IV00101 SET ITEMDESC = 'Not acknowledged' WHERE rowid = 4").run();
  const lost = await a.poll('TWO', items);
  assert.equal(lost.changes.length, 1);
  // The gateway never acknowledged: nothing was committed, so the next poll finds it again.
  assert.deepEqual(
    (await poll(a, items)).map((c) => c.version),
    lost.changes.map((c) => c.version),
  );
  assert.deepEqual(await poll(a, items), []);
});

test('an unchanged range costs one aggregate query; only a range that differs is read', async () => {
  const d = detector({ rangeRows: 10 });
  await poll(d);
  const queries: string[] = [];
  const original = demo.executor.query.bind(demo.executor);
  demo.executor.query = async (company, query, signal) => {
    queries.push(query.sql);
    return original(company, query, signal);
  };
  try {
    await poll(d);
    const ranges = queries.filter((q) => q.includes('COUNT(*)')).length;
    assert.ok(ranges > 5, `every range was checked (${ranges})`);
    assert.equal(queries.filter((q) => q.includes('ORDER BY')).length, 0, 'no range was read row by row');
    queries.length = 0;
    const victim = demo.gp.prepare('SELECT rtrim(CUSTNMBR) FROM RM00101 ORDER BY CUSTNMBR LIMIT 1 OFFSET 25').pluck().get() as string;
    demo.gp.prepare('DELETE FROM RM00101 WHERE rtrim(CUSTNMBR) = ?').run(victim);
    assert.deepEqual(summary(await poll(d)), [`deleted ${victim}`]);
    assert.equal(queries.filter((q) => q.includes('ORDER BY')).length, 1, 'one range read: the one that lost a row');
  } finally {
    demo.executor.query = original;
  }
});

test('receivables documents: a new unposted one is created, posting and moving to history are one update each, a deleted one is deleted', async () => {
  const arInvoices = TRACKED_OBJECTS.find((t) => t.object === 'ar-invoices')!;
  const d = detector();
  assert.deepEqual(await poll(d, arInvoices), []);
  const [posted, dropped] = demo.gp
    .prepare('SELECT rtrim(DOCNUMBR) FROM RM10301 WHERE RMDTYPAL = 1 ORDER BY RMDNUMWK LIMIT 2')
    .pluck()
    .all() as string[];
  const open = demo.gp.prepare('SELECT rtrim(DOCNUMBR) FROM RM20101 WHERE RMDTYPAL = 1 ORDER BY DOCNUMBR LIMIT 1').pluck().get() as string;

  demo.gp
    .prepare("INSERT INTO RM10301 (RMDTYPAL, RMDNUMWK, DOCNUMBR, CUSTNMBR) VALUES (1, 'INVFEED01', 'INVFEED01', 'AARONACA0001')")
    .run();
  const created = await poll(d, arInvoices);
  assert.deepEqual(summary(created), ['created invoice:INVFEED01']);
  assert.equal((created[0]!.record as { documentNumber: string }).documentNumber, 'INVFEED01');

  // Posting, as GP does it in one transaction: the document leaves the work table for the open one.
  demo.gp.transaction(() => {
    demo.gp
      .prepare(
        'INSERT INTO RM20101 (CUSTNMBR, RMDTYPAL, DOCNUMBR, DOCDATE, ORTRXAMT, CURTRXAM) SELECT CUSTNMBR, RMDTYPAL, DOCNUMBR, DOCDATE, DOCAMNT, DOCAMNT FROM RM10301 WHERE rtrim(DOCNUMBR) = ?',
      )
      .run(posted);
    demo.gp.prepare('DELETE FROM RM10301 WHERE rtrim(DOCNUMBR) = ?').run(posted);
  })();
  assert.deepEqual(summary(await poll(d, arInvoices)), [`updated invoice:${posted}`], 'posted: one update, no delete');

  demo.gp.transaction(() => {
    demo.gp
      .prepare(
        'INSERT INTO RM30101 (CUSTNMBR, RMDTYPAL, DOCNUMBR, DOCDATE, ORTRXAMT, CURTRXAM) SELECT CUSTNMBR, RMDTYPAL, DOCNUMBR, DOCDATE, ORTRXAMT, 0 FROM RM20101 WHERE RMDTYPAL = 1 AND rtrim(DOCNUMBR) = ?',
      )
      .run(open);
    demo.gp.prepare('DELETE FROM RM20101 WHERE RMDTYPAL = 1 AND rtrim(DOCNUMBR) = ?').run(open);
  })();
  demo.gp.prepare('DELETE FROM RM10301 WHERE rtrim(DOCNUMBR) = ?').run(dropped);
  assert.deepEqual(summary(await poll(d, arInvoices)), [`deleted invoice:${dropped}`, `updated invoice:${open}`].sort());
  assert.deepEqual(await poll(d, arInvoices), []);
});

test('a restart goes on from the state file: what was reported is not reported again, what changed while down or was not acknowledged is found once', async () => {
  const file = path.join(demo.dir, 'state', STATE_FILE_NAME);
  const reported = new Map<string, number>();
  const report = (changes: Change[]) => {
    for (const c of changes) reported.set(`${c.kind} ${c.id} ${c.version}`, (reported.get(`${c.kind} ${c.id} ${c.version}`) ?? 0) + 1);
  };
  let state = new SqliteDetectionState(file);
  let d = detector({ state });
  assert.deepEqual(await poll(d), [], 'learns the table, and saves it');
  demo.gp.prepare("UPDATE RM00101 SET CUSTNAME = 'Before restart' WHERE rtrim(CUSTNMBR) = 'AARONACA0001'").run();
  report(await poll(d));

  // A poll whose changes the gateway stores but whose acknowledgement never arrives: the agent dies before commit.
  demo.gp.prepare('INSERT INTO RM00101 (CUSTNMBR, CUSTNAME) VALUES (?, ?)').run('RESTART0001', 'Unacknowledged');
  const unacknowledged = await d.poll('TWO', customers);
  report(unacknowledged.changes);
  state.close();

  // While the agent is down: an insert, an update and a delete.
  demo.gp.prepare('INSERT INTO RM00101 (CUSTNMBR, CUSTNAME) VALUES (?, ?)').run('RESTART0002', 'While down');
  demo.gp.prepare("UPDATE RM00101 SET CUSTNAME = 'While down' WHERE rtrim(CUSTNMBR) = 'AARONBUI0001'").run();
  const victim = demo.gp.prepare('SELECT rtrim(CUSTNMBR) FROM RM00101 ORDER BY CUSTNMBR LIMIT 1 OFFSET 60').pluck().get() as string;
  demo.gp.prepare('DELETE FROM RM00101 WHERE rtrim(CUSTNMBR) = ?').run(victim);

  state = new SqliteDetectionState(file);
  d = detector({ state });
  assert.ok(d.knows('TWO', customers), 'the restarted agent knows the table: no new learning, no blind spot');
  const afterRestart = await poll(d);
  report(afterRestart);
  assert.deepEqual(
    summary(afterRestart),
    ['created RESTART0001', 'created RESTART0002', `deleted ${victim}`, 'updated AARONBUI0001'].sort(),
  );
  assert.deepEqual(
    afterRestart.find((c) => c.id === 'RESTART0001')!.version,
    unacknowledged.changes[0]!.version,
    'the unacknowledged change comes again with its version, which the gateway keeps once',
  );
  assert.deepEqual(await poll(d), []);
  state.close();

  // As the gateway keeps them (one event per kind, id and version): every change once, none lost.
  assert.deepEqual(
    [...reported.keys()].map((k) => k.split(' ').slice(0, 2).join(' ')).sort(),
    ['created RESTART0001', 'created RESTART0002', `deleted ${victim}`, 'updated AARONACA0001', 'updated AARONBUI0001'].sort(),
  );
});

test('a state saved for another shape of the object is not used: the object is learnt again', async () => {
  const file = path.join(demo.dir, 'shape', STATE_FILE_NAME);
  const first = new SqliteDetectionState(file);
  await poll(detector({ state: first }));
  first.close();
  const second = new SqliteDetectionState(file);
  try {
    assert.ok(detector({ state: second }).knows('TWO', customers));
    assert.ok(!detector({ state: second, rangeRows: 30 }).knows('TWO', customers), 'ranges cut otherwise: learnt again');
  } finally {
    second.close();
  }
});
