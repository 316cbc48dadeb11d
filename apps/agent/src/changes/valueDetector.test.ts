import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import type { Change } from '@gp-gateway/protocol';
import { demoGp } from '../testing/demoGp.ts';
import { catalogueRecords } from './catalogueRecords.ts';
import { ChangeDetector } from './changeDetector.ts';
import { SqliteDetectionState } from './detectionState.ts';
import { VALUE_TRACKED_OBJECTS } from './valueTracked.ts';

/**
 * Item quantities (IV00102) and batches (SY00500), which have no DEX_ROW_TS in GP, changed as GP
 * changes them: each insert, update and delete is exactly one event with the record as the API
 * serves it; a value that comes back is a new event; a change of the item alone is none.
 */
const demo = demoGp('values-');

const tracked = (object: string) => VALUE_TRACKED_OBJECTS.find((t) => t.object === object)!;
/** The whole table read every fourth poll (the sweep); between, quantities are found through their items. */
const detector = (state?: SqliteDetectionState) =>
  new ChangeDetector(demo.executor, catalogueRecords(demo.service), { historyEvery: 4, ...(state && { state }) });
async function poll(d: ChangeDetector, object: string): Promise<Change[]> {
  const found = await d.poll('TWO', tracked(object));
  found.commit();
  return found.changes;
}
const summary = (changes: Change[]) => changes.map((c) => `${c.kind} ${c.id}`).sort();
/**
 * GP stamps DEX_ROW_TS with the time in milliseconds: two changes of an item in the same millisecond
 * share a stamp. Waits for the clock to pass the item's stamp, as any later change of GP's would.
 */
async function stampMovesOn(item: string): Promise<void> {
  const stamp = demo.gp.prepare('SELECT DEX_ROW_TS FROM IV00101 WHERE rtrim(ITEMNMBR) = ?').pluck().get(item) as string;
  while (new Date().toISOString().replace('T', ' ').replace('Z', '') <= stamp) await new Promise((resolve) => setImmediate(resolve));
}
/** Polls until the sweep's turn has passed: nothing more to report. */
async function quiet(d: ChangeDetector, object: string): Promise<void> {
  for (let i = 0; i < 4; i++) assert.deepEqual(summary(await poll(d, object)), [], `poll ${i + 1} after the changes`);
}

describe('item quantities: found through the item GP stamps', () => {
  test('an insert, an update and a delete are one event each; the item changing alone is none; a value that comes back is new', async () => {
    const d = detector();
    assert.deepEqual(await poll(d, 'item-quantities'), [], 'the first poll learns the table');
    const [updated, deleted, model] = demo.gp
      .prepare(
        'SELECT rowid, rtrim(ITEMNMBR), rtrim(LOCNCODE), QTYONHND FROM IV00102 WHERE RCRDTYPE = 2 ORDER BY ITEMNMBR, LOCNCODE LIMIT 3',
      )
      .raw()
      .all() as [number, string, string, number][];
    // Quantities are kept scaled by 10^5 in the embedded database (gp-schema's sqliteValues).
    demo.gp.prepare('UPDATE IV00102 SET QTYONHND = QTYONHND + 700000 WHERE rowid = ?').run(updated![0]);
    demo.gp.prepare('DELETE FROM IV00102 WHERE rowid = ?').run(deleted![0]);
    demo.gp
      .prepare(
        "INSERT INTO IV00102 (ITEMNMBR, RCRDTYPE, LOCNCODE, QTYONHND) SELECT ITEMNMBR, 2, 'CHGSITE', 300000 FROM IV00102 WHERE rowid = ?",
      )
      .run(model![0]);
    const first = await poll(d, 'item-quantities');
    const updatedId = `${updated![1]}:${updated![2]}`;
    assert.deepEqual(summary(first), [`created ${model![1]}:CHGSITE`, `deleted ${deleted![1]}:${deleted![2]}`, `updated ${updatedId}`]);
    assert.equal(Number(first.find((c) => c.kind === 'updated')!.record!.qtyOnHand), updated![3] / 1e5 + 7, 'the record as it now reads');
    assert.equal(Number(first.find((c) => c.kind === 'created')!.record!.qtyOnHand), 3);
    assert.deepEqual(first.find((c) => c.kind === 'deleted')!.record, null);

    // The item's own change stamps it too, and its quantities are read again: the same values, no event.
    demo.gp.prepare("UPDATE IV00101 SET ITEMDESC = 'Renamed by GP' WHERE rtrim(ITEMNMBR) = ?").run(updated![1]);
    await quiet(d, 'item-quantities');

    // One more and back: two changes, two versions (a version made of the values alone would repeat the first).
    demo.gp.prepare('UPDATE IV00102 SET QTYONHND = QTYONHND + 1 WHERE rowid = ?').run(updated![0]);
    const up = await poll(d, 'item-quantities');
    await stampMovesOn(updated![1]);
    demo.gp.prepare('UPDATE IV00102 SET QTYONHND = QTYONHND - 1 WHERE rowid = ?').run(updated![0]);
    const back = await poll(d, 'item-quantities');
    assert.deepEqual(summary([...up, ...back]), [`updated ${updatedId}`, `updated ${updatedId}`]);
    assert.notEqual(up[0]!.version, back[0]!.version);
    assert.notEqual(up[0]!.version, first.find((c) => c.kind === 'updated')!.version);
  });

  test('a change committed late, its item stamped before the last poll, is found; an item deleted with its quantities is found by the sweep', async () => {
    const d = detector();
    await poll(d, 'item-quantities');
    const [rowid, item, site] = demo.gp
      .prepare('SELECT rowid, rtrim(ITEMNMBR), rtrim(LOCNCODE) FROM IV00102 WHERE RCRDTYPE = 2 ORDER BY ITEMNMBR DESC LIMIT 1')
      .raw()
      .get() as [number, string, string];
    const newest = demo.gp.prepare('SELECT max(DEX_ROW_TS) FROM IV00101').pluck().get() as string;
    const older = new Date(Date.parse(`${newest.replace(' ', 'T')}Z`) - 30_000).toISOString().replace('T', ' ').replace('Z', '');
    demo.gp.transaction(() => {
      demo.gp.prepare('UPDATE IV00102 SET ATYALLOC = ATYALLOC + 2 WHERE rowid = ?').run(rowid);
      demo.gp.prepare('UPDATE IV00101 SET DEX_ROW_TS = ? WHERE rtrim(ITEMNMBR) = ?').run(older, item);
    })();
    assert.deepEqual(summary(await poll(d, 'item-quantities')), [`updated ${item}:${site}`]);

    const [gone, rows] = demo.gp
      .prepare(
        'SELECT rtrim(ITEMNMBR), count(*) FROM IV00102 WHERE RCRDTYPE = 2 GROUP BY ITEMNMBR HAVING count(*) > 1 ORDER BY ITEMNMBR LIMIT 1',
      )
      .raw()
      .get() as [string, number];
    const sites = demo.gp
      .prepare('SELECT rtrim(LOCNCODE) FROM IV00102 WHERE RCRDTYPE = 2 AND rtrim(ITEMNMBR) = ?')
      .pluck()
      .all(gone) as string[];
    // GP deletes an item with its quantities; the item's stamp goes with it, so only the sweep sees them gone.
    demo.gp.transaction(() => {
      demo.gp.prepare('DELETE FROM IV00102 WHERE rtrim(ITEMNMBR) = ?').run(gone);
      demo.gp.prepare('DELETE FROM IV00101 WHERE rtrim(ITEMNMBR) = ?').run(gone);
    })();
    const found: Change[] = [];
    for (let i = 0; i < 4; i++) found.push(...(await poll(d, 'item-quantities')));
    assert.equal(sites.length, rows);
    assert.deepEqual(summary(found), sites.map((s) => `deleted ${gone}:${s}`).sort());
    await quiet(d, 'item-quantities');
  });
});

describe('batches: the table read whole and compared', () => {
  test('an insert, an update and a delete are one event each; a value that comes back is new; a restart repeats nothing', async () => {
    const stateFile = path.join(demo.dir, 'state', 'change-detection.sqlite');
    let state = new SqliteDetectionState(stateFile);
    let d = detector(state);
    assert.deepEqual(await poll(d, 'batches'), [], 'the first poll learns the table');
    const [updated, deleted, model] = demo.gp
      .prepare('SELECT rowid, rtrim(BACHNUMB), NUMOFTRX FROM SY00500 ORDER BY BCHSOURC, BACHNUMB LIMIT 3')
      .raw()
      .all() as [number, string, number][];
    demo.gp.prepare('UPDATE SY00500 SET NUMOFTRX = NUMOFTRX + 1 WHERE rowid = ?').run(updated![0]);
    demo.gp.prepare('DELETE FROM SY00500 WHERE rowid = ?').run(deleted![0]);
    demo.gp
      .prepare(
        "INSERT INTO SY00500 (BCHSOURC, BACHNUMB, SERIES, NUMOFTRX) SELECT BCHSOURC, 'CHGBATCH', SERIES, 0 FROM SY00500 WHERE rowid = ?",
      )
      .run(model![0]);
    const first = await poll(d, 'batches');
    assert.deepEqual(summary(first), ['created CHGBATCH', `deleted ${deleted![1]}`, `updated ${updated![1]}`]);
    assert.equal(first.find((c) => c.kind === 'updated')!.record!.transactionCount, updated![2] + 1);
    await quiet(d, 'batches');

    // Restarted from the state file: nothing again, and the count going back is one more change.
    state.close();
    state = new SqliteDetectionState(stateFile);
    d = detector(state);
    await quiet(d, 'batches');
    demo.gp.prepare('UPDATE SY00500 SET NUMOFTRX = NUMOFTRX - 1 WHERE rowid = ?').run(updated![0]);
    const back = await poll(d, 'batches');
    assert.deepEqual(summary(back), [`updated ${updated![1]}`]);
    assert.equal(back[0]!.record!.transactionCount, updated![2]);
    assert.notEqual(back[0]!.version, first.find((c) => c.kind === 'updated')!.version);
    await quiet(d, 'batches');
    state.close();
  });
});

test('two agents of one connection find each change with the same version, so the gateway keeps one event', async () => {
  const [first, second] = [detector(), detector()];
  for (const object of ['item-quantities', 'batches']) {
    await poll(first, object);
    await poll(second, object);
  }
  const [rowid, item, site] = demo.gp
    .prepare('SELECT rowid, rtrim(ITEMNMBR), rtrim(LOCNCODE) FROM IV00102 WHERE RCRDTYPE = 2 ORDER BY ITEMNMBR LIMIT 1 OFFSET 20')
    .raw()
    .get() as [number, string, string];
  const [batchRow, batch] = demo.gp
    .prepare('SELECT rowid, rtrim(BACHNUMB) FROM SY00500 ORDER BY BACHNUMB LIMIT 1 OFFSET 20')
    .raw()
    .get() as [number, string];
  demo.gp.prepare('UPDATE IV00102 SET QTYONORD = QTYONORD + 500000 WHERE rowid = ?').run(rowid);
  demo.gp.prepare('UPDATE SY00500 SET BCHTOTAL = BCHTOTAL + 100000 WHERE rowid = ?').run(batchRow);
  for (const object of ['item-quantities', 'batches']) {
    const [a, b] = [await poll(first, object), await poll(second, object)];
    assert.deepEqual(summary(a), [object === 'batches' ? `updated ${batch}` : `updated ${item}:${site}`]);
    assert.deepEqual(
      b.map((c) => [c.kind, c.id, c.version]),
      a.map((c) => [c.kind, c.id, c.version]),
    );
  }
});
