import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SALES_DOCUMENT_TYPES, type Change } from '@gp-gateway/protocol';
import { GP_TABLES } from '@gp-gateway/gp-schema';
import { demoGp } from '../testing/demoGp.ts';
import { catalogueRecords } from './catalogueRecords.ts';
import { ChangeDetector } from './changeDetector.ts';
import { TRACKED_OBJECTS, type TrackedObject, type TrackedSource } from './trackedObjects.ts';

/**
 * Every tracked object, changed in its first table as GP changes it: a row inserted (DEX_ROW_TS by
 * its default), one updated (stamped by GP's trigger), one deleted, and one inserted with a stamp
 * older than the last poll (committed late, inside the overlap). Each is exactly one event, with the
 * record as the API serves it; the next poll finds nothing. Then posting: a document moving from
 * work to open, or to history, is one `updated`, never a delete and a create.
 */
const demo = demoGp('tracked-');

/** Every range every poll, history tables every second poll. */
const detector = () =>
  new ChangeDetector(demo.executor, catalogueRecords(demo.service), { rangeRows: 20, rangesPerPoll: 10_000, historyEvery: 2 });
async function poll(d: ChangeDetector, tracked: TrackedObject): Promise<Change[]> {
  const found = await d.poll('TWO', tracked);
  found.commit();
  return found.changes;
}
const summary = (changes: Change[]) => changes.map((c) => `${c.kind} ${c.id}`).sort();
const tracked = (object: string) => TRACKED_OBJECTS.find((t) => t.object === object)!;

const columnsOf = (table: string) => GP_TABLES[table as keyof typeof GP_TABLES].columns;
const q = (name: string) => `"${name}"`;
/** A char value as GP stores it, padded to the column's width (an unpadded one is padded by a trigger, which stamps the row anew). */
const padded = (table: string, column: string, value: string) => value.padEnd(columnsOf(table).find((c) => c.name === column)!.length ?? 1);
const where = (source: TrackedSource) => (source.only ? ` WHERE ${q(source.only.column)} IN (${source.only.values.join(', ')})` : '');

/** Rowids of the object's rows of a table, in key order. */
const rowids = (source: TrackedSource) =>
  demo.gp
    .prepare(`SELECT rowid FROM ${q(source.table)}${where(source)} ORDER BY ${source.key.map((k) => q(k.column)).join(', ')}`)
    .pluck()
    .all() as number[];

/** The API id of a row, as the detector makes it. */
function idOf(source: TrackedSource, rowid: number): string {
  const values = source.idColumns.map((c) =>
    c.lookup
      ? demo.gp
          .prepare(
            `SELECT rtrim(l.${q(c.column)}) FROM ${q(c.lookup.table)} l JOIN ${q(source.table)} t ON l.${q(c.lookup.key)} = t.${q(c.lookup.key)} WHERE t.rowid = ?`,
          )
          .pluck()
          .get(rowid)
      : demo.gp
          .prepare(`SELECT ${c.type.kind === 'char' ? `rtrim(${q(c.column)})` : q(c.column)} FROM ${q(source.table)} WHERE rowid = ?`)
          .pluck()
          .get(rowid),
  );
  return source.idOf(values);
}

/**
 * A copy of row `rowid` under a new id (the key's last char column and the char id columns outside
 * the key set to `name`; an account gets a new index and number), stamped `ts` or now; its API id.
 */
function insertCopy(source: TrackedSource, rowid: number, name: string, ts?: string): string {
  const table = source.table;
  const changed = new Map<string, unknown>();
  if (table === 'GL00100') {
    const index = (demo.gp.prepare('SELECT max(ACTINDX) FROM GL00100').pluck().get() as number) + 1;
    const digits = String(index).padStart(4, '9').slice(-4);
    changed
      .set('ACTINDX', index)
      .set('ACTNUMBR_1', padded(table, 'ACTNUMBR_1', digits))
      .set('ACTDESCR', padded(table, 'ACTDESCR', name));
    demo.gp
      .prepare(
        `INSERT INTO GL00105 (ACTINDX, ACTNUMBR_1, ACTNUMBR_2, ACTNUMBR_3, ACTNUMBR_4, ACTNUMST) SELECT ?, ?, ACTNUMBR_2, ACTNUMBR_3, ACTNUMBR_4, ? FROM GL00105 WHERE ACTINDX = (SELECT ACTINDX FROM GL00100 WHERE rowid = ?)`,
      )
      .run(index, changed.get('ACTNUMBR_1'), padded('GL00105', 'ACTNUMST', `${digits}-${name}`), rowid);
  } else if (source.idColumns.at(-1)!.type.kind === 'int') {
    // A line (its id ends in its line number): the same document, the next line number.
    const number = source.idColumns.at(-1)!.column;
    changed.set(
      number,
      (demo.gp
        .prepare(`SELECT max(${q(number)}) FROM ${q(table)}`)
        .pluck()
        .get() as number) + 16384,
    );
  } else {
    const lastChar = [...source.key].reverse().find((k) => k.type.kind === 'char')!;
    for (const c of [lastChar, ...source.idColumns.filter((c) => c.type.kind === 'char' && !source.key.some((k) => k.column === c.column))])
      changed.set(c.column, padded(table, c.column, name));
  }
  const columns = columnsOf(table)
    .map((c) => c.name)
    .filter((c) => c !== 'DEX_ROW_ID' && (c !== 'DEX_ROW_TS' || ts));
  const values = columns.map((c) => (changed.has(c) || c === 'DEX_ROW_TS' ? '?' : q(c)));
  const params = columns.filter((c) => changed.has(c) || c === 'DEX_ROW_TS').map((c) => (c === 'DEX_ROW_TS' ? ts : changed.get(c)));
  const info = demo.gp
    .prepare(`INSERT INTO ${q(table)} (${columns.map(q).join(', ')}) SELECT ${values.join(', ')} FROM ${q(table)} WHERE rowid = ?`)
    .run(...params, rowid);
  return idOf(source, Number(info.lastInsertRowid));
}

describe('each tracked object: an insert, an update, a delete and a late commit are one event each', () => {
  for (const object of TRACKED_OBJECTS) {
    test(object.object, async () => {
      const source = object.sources[0]!;
      const d = detector();
      assert.deepEqual(await poll(d, object), [], 'the first poll learns the tables');
      const [, updated, deleted, model] = rowids(source);
      const updatedId = idOf(source, updated!);
      const deletedId = idOf(source, deleted!);

      const createdId = insertCopy(source, model!, 'CHGNEW01');
      // GP's trigger stamps any other update now.
      demo.gp.prepare(`UPDATE ${q(source.table)} SET DEX_ROW_ID = DEX_ROW_ID WHERE rowid = ?`).run(updated);
      demo.gp.prepare(`DELETE FROM ${q(source.table)} WHERE rowid = ?`).run(deleted);
      const first = await poll(d, object);
      assert.deepEqual(summary(first), [`created ${createdId}`, `deleted ${deletedId}`, `updated ${updatedId}`].sort());
      for (const change of first.filter((c) => c.kind !== 'deleted')) assert.equal(String(change.record?.id ?? change.id), change.id);

      // A row GP stamped 30 s before the newest stamp the last poll saw, committed only now.
      const newest = demo.gp
        .prepare(`SELECT max(DEX_ROW_TS) FROM ${q(source.table)}`)
        .pluck()
        .get() as string;
      const older = new Date(Date.parse(`${newest.replace(' ', 'T')}Z`) - 30_000).toISOString().replace('T', ' ').replace('Z', '');
      const lateId = insertCopy(source, model!, 'CHGLATE1', older);
      assert.equal(
        demo.gp
          .prepare(`SELECT count(*) FROM ${q(source.table)} WHERE DEX_ROW_TS = ?`)
          .pluck()
          .get(older),
        1,
        'the late row keeps its old stamp',
      );
      assert.deepEqual(summary(await poll(d, object)), [`created ${lateId}`]);
      assert.deepEqual(await poll(d, object), [], 'the overlap reads those rows again and repeats none');
      assert.deepEqual(await poll(d, object), [], 'nor does the history tables’ turn');
    });
  }
});

describe('posting moves a document between work, open and history as one update', () => {
  test('payables: a voucher posted from PM10000 to PM20000, then moved to history', async () => {
    const apInvoices = tracked('ap-invoices');
    const d = detector();
    await poll(d, apInvoices);
    const voucher = demo.gp.prepare('SELECT rtrim(VCHNUMWK) FROM PM10000 WHERE DOCTYPE = 1 LIMIT 1').pluck().get() as string;
    demo.gp.transaction(() => {
      demo.gp
        .prepare(
          'INSERT INTO PM20000 (VCHRNMBR, VENDORID, DOCTYPE, DOCDATE, DOCNUMBR, DOCAMNT, CURTRXAM, BACHNUMB) SELECT VCHNUMWK, VENDORID, DOCTYPE, DOCDATE, DOCNUMBR, DOCAMNT, DOCAMNT, BACHNUMB FROM PM10000 WHERE rtrim(VCHNUMWK) = ?',
        )
        .run(voucher);
      demo.gp.prepare('DELETE FROM PM10000 WHERE rtrim(VCHNUMWK) = ?').run(voucher);
    })();
    const posted = await poll(d, apInvoices);
    assert.deepEqual(summary(posted), [`updated invoice:${voucher}`], 'posted: one update, no delete');

    demo.gp.transaction(() => {
      demo.gp
        .prepare(
          'INSERT INTO PM30200 (VCHRNMBR, VENDORID, DOCTYPE, DOCDATE, DOCNUMBR, DOCAMNT, CURTRXAM, BACHNUMB) SELECT VCHRNMBR, VENDORID, DOCTYPE, DOCDATE, DOCNUMBR, DOCAMNT, 0, BACHNUMB FROM PM20000 WHERE DOCTYPE = 1 AND rtrim(VCHRNMBR) = ?',
        )
        .run(voucher);
      demo.gp.prepare('DELETE FROM PM20000 WHERE DOCTYPE = 1 AND rtrim(VCHRNMBR) = ?').run(voucher);
    })();
    assert.deepEqual(
      summary(await poll(d, apInvoices)),
      [`updated invoice:${voucher}`],
      'to history: one update, on a poll that skips history too',
    );
    assert.deepEqual(await poll(d, apInvoices), []);
    assert.deepEqual(await poll(d, apInvoices), []);
  });

  test('sales orders: an order transferred to history is one update with its new status', async () => {
    const salesOrders = tracked('sales-orders');
    const d = detector();
    await poll(d, salesOrders);
    const [type, number] = demo.gp.prepare('SELECT SOPTYPE, rtrim(SOPNUMBE) FROM SOP10100 WHERE SOPTYPE = 2 LIMIT 1').raw().get() as [
      number,
      string,
    ];
    const columns = columnsOf('SOP10100')
      .map((c) => c.name)
      .filter((c) => c !== 'DEX_ROW_ID' && c !== 'DEX_ROW_TS' && columnsOf('SOP30200').some((h) => h.name === c));
    demo.gp.transaction(() => {
      demo.gp
        .prepare(
          `INSERT INTO SOP30200 (${columns.map(q).join(', ')}) SELECT ${columns.map(q).join(', ')} FROM SOP10100 WHERE SOPTYPE = ? AND rtrim(SOPNUMBE) = ?`,
        )
        .run(type, number);
      demo.gp.prepare('DELETE FROM SOP10100 WHERE SOPTYPE = ? AND rtrim(SOPNUMBE) = ?').run(type, number);
    })();
    const changes = await poll(d, salesOrders);
    assert.deepEqual(summary(changes), [`updated order:${number}`]);
    assert.deepEqual(await poll(d, salesOrders), []);
  });

  test('sales-order lines: a document moved to history with its lines is one update per line', async () => {
    const lines = tracked('sales-order-lines');
    const d = detector();
    await poll(d, lines);
    const [type, number] = demo.gp
      .prepare('SELECT SOPTYPE, rtrim(SOPNUMBE) FROM SOP10200 WHERE CMPNTSEQ = 0 GROUP BY SOPTYPE, SOPNUMBE HAVING count(*) > 1 LIMIT 1')
      .raw()
      .get() as [number, string];
    const numbers = demo.gp
      .prepare('SELECT LNITMSEQ FROM SOP10200 WHERE CMPNTSEQ = 0 AND SOPTYPE = ? AND rtrim(SOPNUMBE) = ?')
      .pluck()
      .all(type, number) as number[];
    const move = (from: string, to: string) => {
      const columns = columnsOf(from)
        .map((c) => c.name)
        .filter((c) => c !== 'DEX_ROW_ID' && c !== 'DEX_ROW_TS' && columnsOf(to).some((h) => h.name === c));
      demo.gp
        .prepare(
          `INSERT INTO ${to} (${columns.map(q).join(', ')}) SELECT ${columns.map(q).join(', ')} FROM ${from} WHERE SOPTYPE = ? AND rtrim(SOPNUMBE) = ?`,
        )
        .run(type, number);
      demo.gp.prepare(`DELETE FROM ${from} WHERE SOPTYPE = ? AND rtrim(SOPNUMBE) = ?`).run(type, number);
    };
    demo.gp.transaction(() => {
      move('SOP10100', 'SOP30200');
      move('SOP10200', 'SOP30300');
    })();
    const changes = await poll(d, lines);
    const name = (SALES_DOCUMENT_TYPES as Record<number, string>)[type];
    assert.deepEqual(summary(changes), numbers.map((n) => `updated ${name}:${number}:${n}`).sort());
    assert.ok(changes.every((c) => typeof c.record?.lineNumber === 'number'));
    assert.deepEqual(await poll(d, lines), []);
    assert.deepEqual(await poll(d, lines), []);
  });

  test('purchase orders: a closed order moved to history is one update', async () => {
    const purchaseOrders = tracked('purchase-orders');
    const d = detector();
    await poll(d, purchaseOrders);
    const number = demo.gp.prepare('SELECT rtrim(PONUMBER) FROM POP10100 LIMIT 1').pluck().get() as string;
    const columns = columnsOf('POP10100')
      .map((c) => c.name)
      .filter((c) => c !== 'DEX_ROW_ID' && c !== 'DEX_ROW_TS' && columnsOf('POP30100').some((h) => h.name === c));
    demo.gp.transaction(() => {
      demo.gp
        .prepare(
          `INSERT INTO POP30100 (${columns.map(q).join(', ')}) SELECT ${columns.map(q).join(', ')} FROM POP10100 WHERE rtrim(PONUMBER) = ?`,
        )
        .run(number);
      demo.gp.prepare('DELETE FROM POP10100 WHERE rtrim(PONUMBER) = ?').run(number);
    })();
    assert.deepEqual(summary(await poll(d, purchaseOrders)), [`updated ${number}`]);
    assert.deepEqual(await poll(d, purchaseOrders), []);
  });
});

test('a history table is read only on its turn: an unchanged history costs no statement between turns', async () => {
  const arInvoices = tracked('ar-invoices');
  const d = detector();
  await poll(d, arInvoices);
  const tables: string[] = [];
  const original = demo.executor.query.bind(demo.executor);
  demo.executor.query = async (company, query, signal) => {
    tables.push(/FROM "(\w+)"/.exec(query.sql)![1]!);
    return original(company, query, signal);
  };
  try {
    await poll(d, arInvoices);
    assert.ok(tables.length > 0 && !tables.includes('RM30101'), `first poll after learning: no history (${[...new Set(tables)]})`);
    tables.length = 0;
    await poll(d, arInvoices);
    assert.ok(tables.includes('RM30101'), 'its turn');
  } finally {
    demo.executor.query = original;
  }
});
