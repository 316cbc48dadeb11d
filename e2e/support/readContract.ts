import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type Database from 'better-sqlite3';
import { GatewayClient } from '@gp-gateway/client';
import { OpenApiContract } from '@gp-gateway/testing';
import { listEnvelopeSchema, OBJECTS, type ObjectSpec } from '@gp-gateway/protocol';

/**
 * The read contract, run against any target: every list walked and compared with a direct query
 * written here (not derived from the catalogue), every object validated against its schema, every
 * filter checked for returning exactly the rows it should, and get-by-id agreeing with the list.
 * The SQLite target is the built-in sandbox; the SQL Server target (e2e/mssql.test.ts) serves the
 * same demo data loaded into SQL Server, so the expected rows come from the same SQLite files.
 */

/** Where the contract runs: a gateway URL, the headers that reach the connection, and its GP data. */
export interface ReadTarget {
  url: string;
  headers: Record<string, string>;
  /** The GP data the connection serves, as embedded SQLite files (for SQL Server: the files it was loaded from). */
  database(name: 'DYNAMICS' | 'TWO'): Database.Database;
  /** The company database, writable while the target serves it; where absent, no rows are inserted mid-walk. */
  writable?(): Database.Database;
}

let target: () => ReadTarget;
const database = (name: string) => target().database(name as 'DYNAMICS' | 'TWO');

/** The document the target serves, fetched once per gateway: every answer below is checked against it. */
const contracts = new Map<string, Promise<OpenApiContract>>();
function contractOf(url: string): Promise<OpenApiContract> {
  let contract = contracts.get(url);
  if (!contract) {
    contract = fetch(`${url}/v1/openapi.json`).then(async (res) => new OpenApiContract((await res.json()) as Record<string, any>));
    contracts.set(url, contract);
  }
  return contract;
}

/** A fetch that checks each answer against the target's OpenAPI document (for route, status, headers and body). */
async function checkedFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const request = new Request(input, init);
  const res = await fetch(request);
  const url = new URL(request.url);
  const text = await res.clone().text();
  (await contractOf(url.origin)).check(request.method, url.pathname + url.search, {
    status: res.status,
    headers: res.headers,
    body: text ? JSON.parse(text) : undefined,
  });
  return res;
}

async function call(pathAndQuery: string) {
  const t = target();
  const res = await checkedFetch(`${t.url}${pathAndQuery}`, { headers: t.headers });
  return { status: res.status, body: (await res.json()) as any };
}

/** Every page of a list, each page validated against the object's list envelope. */
async function walk(object: ObjectSpec, listPath: string, query = '', limit = 333): Promise<any[]> {
  const envelope = listEnvelopeSchema(object.resource);
  const rows: any[] = [];
  let cursor: string | null = null;
  do {
    const res = await call(`${listPath}?limit=${limit}${query ? `&${query}` : ''}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    assert.equal(res.status, 200, `${listPath}?${query}: ${JSON.stringify(res.body)}`);
    const parsed = envelope.safeParse(res.body);
    assert.ok(parsed.success, `${object.name}: ${parsed.success ? '' : JSON.stringify(parsed.error.issues.slice(0, 3))}`);
    rows.push(...res.body.data);
    cursor = res.body.nextCursor;
  } while (cursor);
  return rows;
}

const NOT_CLOSING = "SOURCDOC NOT IN ('BBF        ', 'P/L        ') AND Ledger_ID = 1";
const AR_INVOICE = 'RMDTYPAL IN (1,3,4,5,6,7,8)';
const AP_INVOICE = 'DOCTYPE IN (1,2,3,4,5)';
const AR_NAMES =
  "CASE RMDTYPAL WHEN 1 THEN 'invoice' WHEN 3 THEN 'debitMemo' WHEN 4 THEN 'financeCharge' WHEN 5 THEN 'serviceRepair' WHEN 6 THEN 'warranty' WHEN 7 THEN 'creditMemo' WHEN 8 THEN 'return' WHEN 9 THEN 'payment' ELSE RMDTYPAL END";
const AP_NAMES =
  "CASE DOCTYPE WHEN 1 THEN 'invoice' WHEN 2 THEN 'financeCharge' WHEN 3 THEN 'miscCharge' WHEN 4 THEN 'return' WHEN 5 THEN 'creditMemo' WHEN 6 THEN 'payment' ELSE DOCTYPE END";
const SOP_NAMES =
  "CASE SOPTYPE WHEN 1 THEN 'quote' WHEN 2 THEN 'order' WHEN 3 THEN 'invoice' WHEN 4 THEN 'return' WHEN 5 THEN 'backOrder' WHEN 6 THEN 'fulfillmentOrder' ELSE SOPTYPE END";

type Expected = { database: string; sources: string[]; key: (row: any) => string };

/**
 * A subledger list over its open and history tables, read the same way from both: a row's identity
 * is its type's API name (`names`, a CASE over the type column) and its document number.
 */
function typedDocuments(
  names: string,
  tables: [string, string],
  where: string,
  order: string,
  [column, field]: [string, string],
): Expected {
  const statement = (table: string) => `SELECT ${names} || ':' || rtrim(${column}) FROM ${table} WHERE ${where} ORDER BY ${order}`;
  return { database: 'TWO', sources: tables.map(statement), key: (r) => `${r.type}:${r[field]}` };
}

/**
 * For each top-level list: the database, a SQL statement per source table giving the identity of
 * each row in the order the API must return it (the key GP indexes: docs/decisions.md#keyset-paging-on-gps-own-indexes;
 * GL lines by DEX_ROW_ID, their primary key), and the same identity read from an API object.
 */
const EXPECTED: Record<string, Expected> = {
  companies: { database: 'DYNAMICS', sources: ['SELECT rtrim(INTERID) FROM SY01500 ORDER BY CMPANYID'], key: (r) => r.id },
  customers: { database: 'TWO', sources: ['SELECT rtrim(CUSTNMBR) FROM RM00101 ORDER BY CUSTNMBR'], key: (r) => r.id },
  vendors: { database: 'TWO', sources: ['SELECT rtrim(VENDORID) FROM PM00200 ORDER BY VENDORID'], key: (r) => r.id },
  items: { database: 'TWO', sources: ['SELECT rtrim(ITEMNMBR) FROM IV00101 ORDER BY ITEMNMBR'], key: (r) => r.id },
  'item-quantities': {
    database: 'TWO',
    sources: ["SELECT rtrim(ITEMNMBR) || ':' || rtrim(LOCNCODE) FROM IV00102 WHERE RCRDTYPE = 2 ORDER BY ITEMNMBR, LOCNCODE"],
    key: (r) => `${r.itemId}:${r.siteId}`,
  },
  accounts: {
    database: 'TWO',
    sources: ['SELECT rtrim(a.ACTNUMST) FROM GL00100 g JOIN GL00105 a USING (ACTINDX) ORDER BY g.ACTINDX'],
    key: (r) => r.id,
  },
  'gl-entries': {
    database: 'TWO',
    sources: [
      `SELECT JRNENTRY || ':' || DEX_ROW_ID FROM GL20000 WHERE ${NOT_CLOSING} ORDER BY DEX_ROW_ID`,
      `SELECT JRNENTRY || ':' || DEX_ROW_ID FROM GL30000 WHERE ${NOT_CLOSING} ORDER BY DEX_ROW_ID`,
    ],
    key: (r) => String(r.journalEntryNumber),
  },
  'ar-invoices': typedDocuments(AR_NAMES, ['RM20101', 'RM30101'], AR_INVOICE, 'RMDTYPAL, DOCNUMBR', ['DOCNUMBR', 'documentNumber']),
  'ar-payments': typedDocuments(AR_NAMES, ['RM20101', 'RM30101'], 'RMDTYPAL = 9', 'DOCNUMBR', ['DOCNUMBR', 'documentNumber']),
  'ap-invoices': typedDocuments(AP_NAMES, ['PM20000', 'PM30200'], AP_INVOICE, 'DOCTYPE, VCHRNMBR', ['VCHRNMBR', 'voucherNumber']),
  'ap-payments': typedDocuments(AP_NAMES, ['PM20000', 'PM30200'], 'DOCTYPE = 6', 'VCHRNMBR', ['VCHRNMBR', 'voucherNumber']),
  'sales-orders': {
    database: 'TWO',
    sources: [
      `SELECT ${SOP_NAMES} || ':' || rtrim(SOPNUMBE) FROM SOP10100 ORDER BY SOPNUMBE, SOPTYPE`,
      `SELECT ${SOP_NAMES} || ':' || rtrim(SOPNUMBE) FROM SOP30200 ORDER BY SOPNUMBE, SOPTYPE`,
    ],
    key: (r) => `${r.type}:${r.number}`,
  },
  'purchase-orders': {
    database: 'TWO',
    sources: ['SELECT rtrim(PONUMBER) FROM POP10100 ORDER BY PONUMBER', 'SELECT rtrim(PONUMBER) FROM POP30100 ORDER BY PONUMBER'],
    key: (r) => r.id,
  },
  sites: { database: 'TWO', sources: ['SELECT rtrim(LOCNCODE) FROM IV40700 ORDER BY LOCNCODE'], key: (r) => r.id },
  checkbooks: { database: 'TWO', sources: ['SELECT rtrim(CHEKBKID) FROM CM00100 ORDER BY CHEKBKID'], key: (r) => r.id },
  'payment-terms': { database: 'TWO', sources: ['SELECT rtrim(PYMTRMID) FROM SY03300 ORDER BY PYMTRMID'], key: (r) => r.id },
  salespeople: { database: 'TWO', sources: ['SELECT rtrim(SLPRSNID) FROM RM00301 ORDER BY SLPRSNID'], key: (r) => r.id },
  'fiscal-periods': {
    database: 'TWO',
    sources: [
      "SELECT YEAR1 || ':' || PERIODID FROM SY40100 WHERE FORIGIN = 1 AND SERIES = 0 AND PERIODID > 0 ORDER BY YEAR1, PERIODID, ODESCTN",
    ],
    key: (r) => `${r.year}:${r.period}`,
  },
  batches: { database: 'TWO', sources: ['SELECT rtrim(BACHNUMB) FROM SY00500 ORDER BY BCHSOURC, BACHNUMB'], key: (r) => r.id },
};

const expectedKeys = (object: string, sources?: number[]) => {
  const e = EXPECTED[object]!;
  return e.sources
    .filter((_, i) => !sources || sources.includes(i))
    .flatMap((sql) => database(e.database).prepare(sql).pluck().all() as string[])
    .map((k) => (object === 'gl-entries' ? String(k).split(':')[0]! : String(k)));
};

/**
 * Per list, how a row is inserted mid-walk before its position and after it: a copy of the list's
 * first row (of its first table, in key order) with `column` set to the smallest value ('!…', 1),
 * and a copy of its last row (of its last table) with the largest ('~…', 2999), ordered NOCASE as
 * GP's collation orders them. `column` is the key's last column, or its only one that matters.
 * GL lines page on DEX_ROW_ID, which a new row gets past every other: there only the late row.
 */
interface MidWalk {
  column: string;
  order: string;
  first: { table: string; where?: string };
  last: { table: string; where?: string };
}
const single = (table: string, column: string, where?: string): MidWalk => ({
  column,
  order: column,
  first: { table, where },
  last: { table, where },
});
const openAndHistory = (column: string, order: string, [open, history]: [string, string], where?: string): MidWalk => ({
  column,
  order,
  first: { table: open, where },
  last: { table: history, where },
});
const MID_WALK: Record<string, MidWalk> = {
  customers: single('RM00101', 'CUSTNMBR'),
  vendors: single('PM00200', 'VENDORID'),
  items: single('IV00101', 'ITEMNMBR'),
  'item-quantities': single('IV00102', 'ITEMNMBR', 'RCRDTYPE = 2'),
  'gl-entries': { column: 'DEX_ROW_ID', order: 'DEX_ROW_ID', first: { table: 'GL20000' }, last: { table: 'GL30000', where: NOT_CLOSING } },
  'ar-invoices': openAndHistory('DOCNUMBR', 'RMDTYPAL, DOCNUMBR', ['RM20101', 'RM30101'], AR_INVOICE),
  'ar-payments': openAndHistory('DOCNUMBR', 'DOCNUMBR', ['RM20101', 'RM30101'], 'RMDTYPAL = 9'),
  'ap-invoices': openAndHistory('VCHRNMBR', 'DOCTYPE, VCHRNMBR', ['PM20000', 'PM30200'], AP_INVOICE),
  'ap-payments': openAndHistory('VCHRNMBR', 'VCHRNMBR', ['PM20000', 'PM30200'], 'DOCTYPE = 6'),
  'sales-orders': { column: 'SOPNUMBE', order: 'SOPNUMBE', first: { table: 'SOP10100' }, last: { table: 'SOP30200' } },
  'purchase-orders': { column: 'PONUMBER', order: 'PONUMBER', first: { table: 'POP10100' }, last: { table: 'POP30100' } },
  sites: single('IV40700', 'LOCNCODE'),
  checkbooks: single('CM00100', 'CHEKBKID'),
  'payment-terms': single('SY03300', 'PYMTRMID'),
  salespeople: single('RM00301', 'SLPRSNID'),
  'fiscal-periods': single('SY40100', 'YEAR1', 'FORIGIN = 1 AND SERIES = 0 AND PERIODID > 0'),
  batches: { column: 'BACHNUMB', order: 'BCHSOURC, BACHNUMB', first: { table: 'SY00500' }, last: { table: 'SY00500' } },
};

/** Filters that choose source tables rather than testing a field. */
const SOURCE_FILTERS: Record<string, Record<string, Record<string, number[]>>> = {
  'gl-entries': { year: { open: [0], history: [1] } },
  'ar-invoices': { status: { open: [0], history: [1] } },
  'ar-payments': { status: { open: [0], history: [1] } },
  'ap-invoices': { status: { open: [0], history: [1] } },
  'ap-payments': { status: { open: [0], history: [1] } },
  'sales-orders': { status: { work: [0], history: [1] } },
};

/** Filters on a column that is not a field of the object: checked against the database instead. */
const COLUMN_FILTERS: Record<string, Record<string, string>> = {
  sites: { inactive: 'SELECT rtrim(LOCNCODE) FROM IV40700 WHERE INACTIVE = ? ORDER BY LOCNCODE' },
};

/** The field(s) `q` searches, per object (docs/api.md#filters). */
const SEARCHED: Record<string, string[]> = {
  customers: ['name'],
  vendors: ['name'],
  items: ['description'],
  accounts: ['description'],
  sites: ['name'],
  checkbooks: ['name'],
  'payment-terms': ['id'],
  salespeople: ['lastName', 'firstName'],
};

/** A value for the filter taken from the data, and the predicate the API's answer must equal. */
function probe(object: string, name: string, rows: any[]): { query: string; expect: (r: any) => boolean } | null {
  const spec = (OBJECTS as Record<string, ObjectSpec>)[object]!.filters[name]!;
  const middle = <T>(values: T[]) => values.sort()[Math.floor(values.length / 2)];
  const q = (v: string) => `${spec.kind === 'ids' ? 'id[]' : name}=${encodeURIComponent(v)}`;
  switch (spec.kind) {
    case 'ids': {
      const ids = rows
        .filter((_, i) => i % 3 === 0)
        .slice(0, 5)
        .map((r) => r.id as string);
      return { query: ids.map(q).join('&'), expect: (r) => ids.includes(r.id) };
    }
    case 'search': {
      const fields = SEARCHED[object]!;
      const text = rows.map((r) => r[fields[0]!]).find((v) => typeof v === 'string' && v.length >= 4) as string;
      const needle = text.slice(1, 4).toLowerCase();
      return { query: q(needle), expect: (r) => fields.some((f) => typeof r[f] === 'string' && r[f].toLowerCase().includes(needle)) };
    }
    case 'boolean': {
      const value = rows.some((r) => r[name] === true);
      return { query: q(String(value)), expect: (r) => r[name] === value };
    }
    case 'timestamp': {
      const pivot = middle(rows.map((r) => r.modifiedAt as string).filter(Boolean))!;
      return { query: q(pivot), expect: (r) => r.modifiedAt !== null && r.modifiedAt >= pivot };
    }
    case 'date': {
      const field = name === 'dueBefore' ? 'dueDate' : 'date';
      const pivot = middle(rows.map((r) => r[field] as string).filter(Boolean));
      if (pivot === undefined) return null;
      if (name === 'dateFrom') return { query: q(pivot), expect: (r) => r.date !== null && r.date >= pivot };
      if (name === 'dateTo') return { query: q(pivot), expect: (r) => r.date !== null && r.date <= pivot };
      return { query: q(pivot), expect: (r) => r.dueDate !== null && r.dueDate < pivot };
    }
    default: {
      const values = rows.map((r) => r[name]).filter((v) => v !== null && v !== undefined);
      if (values.length === 0) return null;
      const value = middle(values);
      return { query: q(String(value)), expect: (r) => r[name] === value };
    }
  }
}

const topLevel = (Object.values(OBJECTS) as ObjectSpec[]).filter((o) => !o.parent && EXPECTED[o.name]);

/** Registers the contract's tests; `of` is called only while they run (after the caller's `before`). */
export function describeReadContract(of: () => ReadTarget): void {
  target = of;
  describe('every list walks completely and in order', () => {
    for (const object of topLevel) {
      test(object.name, async () => {
        const rows = await walk(object, `/v1/${object.name}`);
        assert.ok(rows.length > 0, `${object.name} has data in the demo`);
        assert.deepEqual(rows.map(EXPECTED[object.name]!.key), expectedKeys(object.name));
      });
    }

    test('addresses of a customer and of a vendor', async () => {
      for (const [object, parent, column, table, idField] of [
        ['customer-addresses', 'customerId', 'CUSTNMBR', 'RM00102', 'customerId'],
        ['vendor-addresses', 'vendorId', 'VENDORID', 'PM00300', 'vendorId'],
      ] as const) {
        const owners = database('TWO')
          .prepare(`SELECT rtrim(${column}) FROM ${table} GROUP BY ${column} HAVING count(*) > 1 LIMIT 3`)
          .pluck()
          .all() as string[];
        assert.equal(owners.length, 3);
        for (const owner of owners) {
          const rows = await walk(OBJECTS[object], `/v1/${object}`, `${parent}=${encodeURIComponent(owner)}`, 1);
          const codes = database('TWO')
            .prepare(`SELECT rtrim(ADRSCODE) FROM ${table} WHERE rtrim(${column}) = ? ORDER BY ADRSCODE`)
            .pluck()
            .all(owner);
          assert.deepEqual(
            rows.map((r) => r.code),
            codes,
          );
          assert.ok(rows.every((r) => r[idField] === owner));
        }
      }
    });

    test('lines of sales documents and purchase orders', async () => {
      const docs = database('TWO')
        .prepare(
          `SELECT ${SOP_NAMES} || ':' || rtrim(SOPNUMBE) AS id, SOPTYPE, SOPNUMBE, 'SOP10200' AS t FROM SOP10100
         UNION ALL SELECT ${SOP_NAMES} || ':' || rtrim(SOPNUMBE), SOPTYPE, SOPNUMBE, 'SOP30300' FROM SOP30200 ORDER BY 1 LIMIT 12`,
        )
        .all() as { id: string; SOPTYPE: number; SOPNUMBE: string; t: string }[];
      for (const doc of docs) {
        const rows = await walk(OBJECTS['sales-order-lines'], `/v1/sales-orders/${encodeURIComponent(doc.id)}/lines`, '', 2);
        const expected = database('TWO')
          .prepare(`SELECT rtrim(ITEMNMBR) FROM ${doc.t} WHERE SOPTYPE = ? AND SOPNUMBE = ? AND CMPNTSEQ = 0 ORDER BY LNITMSEQ`)
          .pluck()
          .all(doc.SOPTYPE, doc.SOPNUMBE);
        assert.deepEqual(
          rows.map((r) => r.itemId),
          expected,
          doc.id,
        );
      }
      const pos = database('TWO')
        .prepare(
          "SELECT rtrim(PONUMBER) AS id, 'POP10110' AS t FROM POP10100 UNION ALL SELECT rtrim(PONUMBER), 'POP30110' FROM POP30100 ORDER BY 1 LIMIT 12",
        )
        .all() as { id: string; t: string }[];
      for (const po of pos) {
        const rows = await walk(OBJECTS['purchase-order-lines'], `/v1/purchase-orders/${encodeURIComponent(po.id)}/lines`, '', 2);
        const expected = database('TWO')
          .prepare(`SELECT ORD FROM ${po.t} WHERE rtrim(PONUMBER) = ? ORDER BY ORD, BRKFLD1`)
          .pluck()
          .all(po.id);
        assert.deepEqual(
          rows.map((r) => r.lineNumber),
          expected,
          po.id,
        );
      }
      assert.equal((await call('/v1/sales-orders/invoice:NO-SUCH-DOC/lines')).status, 404);
      assert.equal((await call('/v1/purchase-orders/NO-SUCH-PO/lines')).status, 404);
      assert.equal((await call('/v1/sales-order-lines')).status, 404);
    });
  });

  describe('a walk sees a row inserted past its position and not one inserted before it', () => {
    for (const object of topLevel.filter((o) => MID_WALK[o.name])) {
      test(object.name, async (t) => {
        const writable = target().writable;
        if (!writable) return t.skip('the target cannot be written');
        const { column, order, first, last } = MID_WALK[object.name]!;
        const db = writable();
        // A copy of the first or last row of `table` in key order, with `column` set to the value bound.
        const copy = (table: string, where = '1 = 1', direction: 'ASC' | 'DESC', value: string | number | null) => {
          const columns = (
            db.prepare(`SELECT name FROM pragma_table_info(?) WHERE name <> 'DEX_ROW_ID'`).pluck().all(table) as string[]
          ).map((c) => `"${c}"`);
          const values = columns.map((c) => (c === `"${column}"` ? '?' : c)).join(', ');
          const keyOrder = order
            .split(', ')
            .map((c) => `${c} ${direction}`)
            .join(', ');
          const sql = `INSERT INTO ${table} (${columns.join(', ')}) SELECT ${values} FROM ${table} WHERE ${where} ORDER BY ${keyOrder} LIMIT 1`;
          const info = value === null ? db.prepare(sql).run() : db.prepare(sql).run(value);
          assert.equal(info.changes, 1, `a row of ${table} to copy`);
          return { table, rowid: Number(info.lastInsertRowid) };
        };
        const inserted: Array<{ table: string; rowid: number }> = [];
        // At least three pages: the rows go in after the first.
        const limit = Math.max(1, Math.min(200, Math.floor(expectedKeys(object.name).length / 3)));
        const envelope = listEnvelopeSchema(object.resource);
        const rows: any[] = [];
        let cursor: string | null = null;
        let early: string[] = [];
        try {
          do {
            const res = await call(`/v1/${object.name}?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
            assert.equal(res.status, 200, JSON.stringify(res.body));
            assert.ok(envelope.safeParse(res.body).success);
            rows.push(...res.body.data);
            cursor = res.body.nextCursor;
            if (inserted.length === 0) {
              if (column === 'DEX_ROW_ID') inserted.push(copy(last.table, last.where, 'DESC', null));
              else {
                const numeric = typeof db.prepare(`SELECT ${column} FROM ${first.table} LIMIT 1`).pluck().get() === 'number';
                const listed = new Set(expectedKeys(object.name));
                inserted.push(copy(first.table, first.where, 'ASC', numeric ? 1 : '!MIDWALK'));
                early = expectedKeys(object.name).filter((k) => !listed.has(k));
                assert.equal(early.length, 1, 'the early row is one of the list');
                inserted.push(copy(last.table, last.where, 'DESC', numeric ? 2999 : '~MIDWALK'));
              }
            }
          } while (cursor);
          const keys = rows.map(EXPECTED[object.name]!.key);
          // Every row once but the early one, the late one included, in order.
          assert.deepEqual(
            keys,
            expectedKeys(object.name).filter((k) => !early.includes(k)),
          );
        } finally {
          for (const { table, rowid } of inserted) db.prepare(`DELETE FROM ${table} WHERE rowid = ?`).run(rowid);
        }
      });
    }
  });

  describe('every filter returns exactly the rows it names', () => {
    for (const object of topLevel) {
      test(object.name, async () => {
        const all = await walk(object, `/v1/${object.name}`, '', 1000);
        for (const name of Object.keys(object.filters)) {
          const sources = SOURCE_FILTERS[object.name]?.[name];
          if (sources) {
            for (const [value, tables] of Object.entries(sources)) {
              const rows = await walk(object, `/v1/${object.name}`, `${name}=${value}`, 1000);
              assert.deepEqual(rows.map(EXPECTED[object.name]!.key), expectedKeys(object.name, tables), `${object.name} ${name}=${value}`);
            }
            continue;
          }
          const columnSql = COLUMN_FILTERS[object.name]?.[name];
          if (columnSql) {
            for (const value of [true, false]) {
              const rows = await walk(object, `/v1/${object.name}`, `${name}=${value}`, 1000);
              assert.deepEqual(
                rows.map((r) => r.id),
                database('TWO')
                  .prepare(columnSql)
                  .pluck()
                  .all(value ? 1 : 0),
                `${object.name} ${name}=${value}`,
              );
            }
            continue;
          }
          const check = probe(object.name, name, all);
          if (!check) continue;
          const rows = await walk(object, `/v1/${object.name}`, check.query, 1000);
          const expected = all.filter(check.expect);
          assert.ok(expected.length > 0, `${object.name} ${check.query} selects something`);
          // A filter a GP index serves pages on that index's key, so its order may differ from the
          // list's: the same rows, each once.
          const key = EXPECTED[object.name]!.key;
          assert.deepEqual(rows.map(key).sort(), expected.map(key).sort(), `${object.name} ${check.query}`);
          const sorted = (list: any[]) => list.map((r) => JSON.stringify(r)).sort();
          assert.deepEqual(sorted(rows), sorted(expected), `${object.name} ${check.query}: same keys, different objects`);
        }
      });
    }
  });

  test('the typed client (packages/client) walks a filtered list to the same rows', async () => {
    const t = target();
    const apiKey = t.headers.authorization!.replace(/^Bearer /, '');
    const connectionId = t.headers['x-connection-id'];
    const client = new GatewayClient({ baseUrl: t.url, apiKey, ...(connectionId ? { connectionId } : {}), fetch: checkedFetch });
    const ids: string[] = [];
    for await (const customer of client.list('customers', { inactive: false }, { limit: 97 })) ids.push(customer.id);
    const expected = database('TWO').prepare('SELECT rtrim(CUSTNMBR) FROM RM00101 WHERE INACTIVE = 0 ORDER BY CUSTNMBR').pluck().all();
    assert.ok(expected.length > 97, 'more than one page');
    assert.deepEqual(ids, expected);
    const first = await client.get('customers', ids[0]!);
    assert.equal(first.id, ids[0]);
  });

  describe('get by id agrees with the list', () => {
    for (const object of topLevel.filter((o) => o.idForm)) {
      test(object.name, async () => {
        const rows = await walk(object, `/v1/${object.name}`, '', 1000);
        for (const row of [rows[0], rows[Math.floor(rows.length / 2)], rows.at(-1)]) {
          const id = object.idForm!.kind === 'plain' ? row.id : EXPECTED[object.name]!.key(row);
          const res = await call(`/v1/${object.name}/${encodeURIComponent(id)}`);
          assert.equal(res.status, 200, `${object.name}/${id}`);
          assert.deepEqual(res.body, { data: row });
        }
        assert.equal((await call(`/v1/${object.name}/${encodeURIComponent('NO-SUCH:THING')}`)).status, 404);
      });
    }
  });
}
