import Database from 'better-sqlite3';
import { GP_TABLES, padChar } from '@gp-gateway/gp-schema';
import { createRng, type Rng } from '../generator/prng.ts';

/**
 * A trickle of GP-shaped changes in a demo company database (`gp-demo churn`), so that the sandbox
 * and a local agent have something for the change feed (GET /v1/events) to report. Each change is
 * made as GP makes it: plain statements in one transaction, DEX_ROW_TS stamped by the database's
 * default and GP's triggers (an address change also stamps its customer, as GP's RM00102 triggers
 * do), posting as a move from the work table to the open one, a transfer as a move to history.
 */

/** One change made, and the events the change feed reports for it (`customer.updated AARONACA0001`). */
export interface ChurnChange {
  what: string;
  events: string[];
}

type Step = (db: Database.Database, rng: Rng, n: number) => ChurnChange | null;

const q = (name: string) => `"${name}"`;
const width = (table: string, column: string) =>
  GP_TABLES[table as keyof typeof GP_TABLES].columns.find((c) => c.name === column)!.length ?? 1;
const char = (table: string, column: string, value: string) => padChar(value, width(table, column));
/** Every column the two tables share, but the row id and stamp GP assigns: what a move copies. */
const shared = (from: string, to: string) =>
  GP_TABLES[from as keyof typeof GP_TABLES].columns
    .map((c) => c.name)
    .filter((c) => c !== 'DEX_ROW_ID' && c !== 'DEX_ROW_TS' && GP_TABLES[to as keyof typeof GP_TABLES].columns.some((t) => t.name === c));

/** A random row's trimmed values of `columns`, or null when the table has none that match. */
function anyRow(db: Database.Database, rng: Rng, table: string, columns: string[], where = '1 = 1'): unknown[] | null {
  const count = db
    .prepare(`SELECT count(*) FROM ${q(table)} WHERE ${where}`)
    .pluck()
    .get() as number;
  if (count === 0) return null;
  const select = columns.map((c) =>
    GP_TABLES[table as keyof typeof GP_TABLES].columns.find((x) => x.name === c)!.type === 'char' ? `rtrim(${q(c)})` : q(c),
  );
  return db
    .prepare(`SELECT ${select.join(', ')} FROM ${q(table)} WHERE ${where} LIMIT 1 OFFSET ?`)
    .raw()
    .get(rng.int(0, count - 1)) as unknown[];
}

// As the API names sales document types in ids: the protocol's SALES_DOCUMENT_TYPES (gp-demo does not depend on @gp-gateway/protocol).
const SALES_TYPES: Record<number, string> = { 1: 'quote', 2: 'order', 3: 'invoice', 4: 'return', 5: 'backOrder', 6: 'fulfillmentOrder' };

const STEPS: readonly (readonly [Step, number])[] = [
  // A new customer.
  [
    (db, _rng, n) => {
      const id = `CHURN${String(n).padStart(6, '0')}`;
      db.prepare('INSERT INTO RM00101 (CUSTNMBR, CUSTNAME) VALUES (?, ?)').run(
        char('RM00101', 'CUSTNMBR', id),
        char('RM00101', 'CUSTNAME', `Churn Customer ${n}`),
      );
      return { what: `created customer ${id}`, events: [`customer.created ${id}`] };
    },
    3,
  ],
  // A customer's phone changed.
  [
    (db, rng, n) => {
      const [id] = anyRow(db, rng, 'RM00101', ['CUSTNMBR'])!;
      db.prepare('UPDATE RM00101 SET PHONE1 = ? WHERE CUSTNMBR = ?').run(
        char('RM00101', 'PHONE1', `312555${String(n).padStart(4, '0')}`),
        char('RM00101', 'CUSTNMBR', String(id)),
      );
      return { what: `changed the phone of customer ${id}`, events: [`customer.updated ${id}`] };
    },
    4,
  ],
  // A customer made by churn, without addresses or documents, deleted (GP refuses to delete one with documents).
  [
    (db, rng) => {
      const row = anyRow(
        db,
        rng,
        'RM00101',
        ['CUSTNMBR'],
        "CUSTNMBR LIKE 'CHURN%' AND CUSTNMBR NOT IN (SELECT CUSTNMBR FROM RM00102) AND CUSTNMBR NOT IN (SELECT CUSTNMBR FROM RM10301)",
      );
      if (!row) return null;
      db.prepare('DELETE FROM RM00101 WHERE CUSTNMBR = ?').run(char('RM00101', 'CUSTNMBR', String(row[0])));
      return { what: `deleted customer ${row[0]}`, events: [`customer.deleted ${row[0]}`] };
    },
    1,
  ],
  // A new ship-to address; GP's trigger stamps the customer too.
  [
    (db, rng, n) => {
      const [customer] = anyRow(db, rng, 'RM00101', ['CUSTNMBR'], "CUSTNMBR NOT LIKE 'CHURN%'")!;
      const code = `SHIP${n}`;
      db.prepare('INSERT INTO RM00102 (CUSTNMBR, ADRSCODE, ADDRESS1, CITY) VALUES (?, ?, ?, ?)').run(
        char('RM00102', 'CUSTNMBR', String(customer)),
        char('RM00102', 'ADRSCODE', code),
        char('RM00102', 'ADDRESS1', `${n} Churn Street`),
        char('RM00102', 'CITY', 'Chicago'),
      );
      return {
        what: `added address ${code} to customer ${customer}`,
        events: [`customer-address.created ${customer}:${code}`, `customer.updated ${customer}`],
      };
    },
    2,
  ],
  // A vendor's contact changed.
  [
    (db, rng, n) => {
      const [id] = anyRow(db, rng, 'PM00200', ['VENDORID'])!;
      db.prepare('UPDATE PM00200 SET VNDCNTCT = ? WHERE VENDORID = ?').run(
        char('PM00200', 'VNDCNTCT', `Contact ${n}`),
        char('PM00200', 'VENDORID', String(id)),
      );
      return { what: `changed the contact of vendor ${id}`, events: [`vendor.updated ${id}`] };
    },
    2,
  ],
  // An item's description changed.
  [
    (db, rng, n) => {
      const [id] = anyRow(db, rng, 'IV00101', ['ITEMNMBR'])!;
      db.prepare('UPDATE IV00101 SET ITEMDESC = ? WHERE ITEMNMBR = ?').run(
        char('IV00101', 'ITEMDESC', `Churned item ${n}`),
        char('IV00101', 'ITEMNMBR', String(id)),
      );
      return { what: `changed the description of item ${id}`, events: [`item.updated ${id}`] };
    },
    2,
  ],
  // A new unposted receivables invoice.
  [
    (db, rng, n) => {
      const [customer] = anyRow(db, rng, 'RM00101', ['CUSTNMBR'], "CUSTNMBR NOT LIKE 'CHURN%'")!;
      const number = `CHURNINV${String(n).padStart(6, '0')}`;
      const amount = BigInt(rng.int(100, 5000)) * 100000n;
      db.prepare(
        "INSERT INTO RM10301 (RMDTYPAL, RMDNUMWK, DOCNUMBR, CUSTNMBR, DOCDATE, SLSAMNT, DOCAMNT, BACHNUMB) VALUES (1, ?, ?, ?, strftime('%Y-%m-%d 00:00:00.000', 'now'), ?, ?, ?)",
      ).run(
        char('RM10301', 'RMDNUMWK', number),
        char('RM10301', 'DOCNUMBR', number),
        char('RM10301', 'CUSTNMBR', String(customer)),
        amount,
        amount,
        char('RM10301', 'BACHNUMB', 'CHURN'),
      );
      return { what: `entered invoice ${number} for customer ${customer}`, events: [`ar-invoice.created invoice:${number}`] };
    },
    3,
  ],
  // Posting: an unposted invoice moves from the work table to the open one, in one transaction.
  [
    (db, rng) => {
      const row = anyRow(db, rng, 'RM10301', ['DOCNUMBR'], 'RMDTYPAL = 1');
      if (!row) return null;
      const number = char('RM10301', 'DOCNUMBR', String(row[0]));
      db.prepare(
        'INSERT INTO RM20101 (CUSTNMBR, RMDTYPAL, DOCNUMBR, DOCDATE, ORTRXAMT, CURTRXAM, SLSAMNT, BACHNUMB) SELECT CUSTNMBR, RMDTYPAL, DOCNUMBR, DOCDATE, DOCAMNT, DOCAMNT, SLSAMNT, BACHNUMB FROM RM10301 WHERE RMDTYPAL = 1 AND DOCNUMBR = ?',
      ).run(number);
      db.prepare('DELETE FROM RM10301 WHERE RMDTYPAL = 1 AND DOCNUMBR = ?').run(number);
      return { what: `posted invoice ${row[0]}`, events: [`ar-invoice.updated invoice:${row[0]}`] };
    },
    2,
  ],
  // A sales document transferred to history, its lines with it.
  [
    (db, rng) => {
      const row = anyRow(db, rng, 'SOP10100', ['SOPTYPE', 'SOPNUMBE']);
      if (!row) return null;
      const [type, number] = row as [number, string];
      const key = [type, char('SOP10100', 'SOPNUMBE', number)];
      const lines = db
        .prepare('SELECT LNITMSEQ FROM SOP10200 WHERE SOPTYPE = ? AND SOPNUMBE = ? AND CMPNTSEQ = 0 ORDER BY LNITMSEQ')
        .pluck()
        .all(...key) as number[];
      for (const [from, to] of [
        ['SOP10100', 'SOP30200'],
        ['SOP10200', 'SOP30300'],
      ] as const) {
        const columns = shared(from, to).map(q).join(', ');
        db.prepare(`INSERT INTO ${to} (${columns}) SELECT ${columns} FROM ${from} WHERE SOPTYPE = ? AND SOPNUMBE = ?`).run(...key);
        db.prepare(`DELETE FROM ${from} WHERE SOPTYPE = ? AND SOPNUMBE = ?`).run(...key);
      }
      const id = `${SALES_TYPES[type] ?? type}:${number}`;
      return {
        what: `moved sales document ${number} to history`,
        events: [`sales-order.updated ${id}`, ...lines.map((line) => `sales-order-line.updated ${id}:${line}`)],
      };
    },
    1,
  ],
  // Units received at a site: GP's IV00102 trigger stamps the item too.
  [
    (db, rng) => {
      const row = anyRow(db, rng, 'IV00102', ['ITEMNMBR', 'LOCNCODE'], 'RCRDTYPE = 2');
      if (!row) return null;
      const [item, site] = row as [string, string];
      const units = rng.int(1, 20);
      db.prepare('UPDATE IV00102 SET QTYONHND = QTYONHND + ? WHERE ITEMNMBR = ? AND RCRDTYPE = 2 AND LOCNCODE = ?').run(
        // numeric(19,5) is kept as a count of 1/100000 units (gp-schema's sqliteValues).
        BigInt(units) * 100000n,
        char('IV00102', 'ITEMNMBR', item),
        char('IV00102', 'LOCNCODE', site),
      );
      return {
        what: `received ${units} of item ${item} at ${site}`,
        events: [`item-quantity.updated ${item}:${site}`, `item.updated ${item}`],
      };
    },
    2,
  ],
  // A batch's posting date moved a day later than it was (or than today): always a new value.
  [
    (db, rng) => {
      const row = anyRow(db, rng, 'SY00500', ['BCHSOURC', 'BACHNUMB']);
      if (!row) return null;
      const [source, number] = row as [string, string];
      db.prepare(
        "UPDATE SY00500 SET GLPOSTDT = strftime('%Y-%m-%d 00:00:00.000', max(GLPOSTDT, strftime('%Y-%m-%d 00:00:00.000', 'now')), '+1 day') WHERE BCHSOURC = ? AND BACHNUMB = ?",
      ).run(char('SY00500', 'BCHSOURC', source), char('SY00500', 'BACHNUMB', number));
      return { what: `moved the posting date of batch ${number}`, events: [`batch.updated ${number}`] };
    },
    1,
  ],
];

/** The largest number after `prefix` of the table's ids that start with it (0: none). */
function lastNumber(db: Database.Database, table: string, column: string, prefix: string): number {
  const ids = db
    .prepare(`SELECT rtrim(${q(column)}) FROM ${q(table)} WHERE ${q(column)} LIKE ?`)
    .pluck()
    .all(`${prefix}%`) as string[];
  return ids.reduce((max, id) => Math.max(max, /^\d+$/.test(id.slice(prefix.length)) ? Number(id.slice(prefix.length)) : 0), 0);
}

/**
 * Makes `count` changes in the company database at `file` (the demo's `<company>.sqlite`), each in
 * its own transaction, calling `onChange` after each commit. A step with nothing to act on (no
 * unposted invoice left) is replaced by another. Deterministic for a seed, given the same database.
 */
export async function churn(
  file: string,
  options: { count: number; seed?: number; everyMs?: number; signal?: AbortSignal; onChange?: (change: ChurnChange) => void },
): Promise<ChurnChange[]> {
  const db = new Database(file);
  const rng = createRng(options.seed ?? 1, 'churn');
  // A later run on the same database numbers on from the last: churn's ids never collide with its own.
  const start =
    1 +
    Math.max(
      lastNumber(db, 'RM00101', 'CUSTNMBR', 'CHURN'),
      lastNumber(db, 'RM10301', 'DOCNUMBR', 'CHURNINV'),
      lastNumber(db, 'RM20101', 'DOCNUMBR', 'CHURNINV'),
    );
  const made: ChurnChange[] = [];
  try {
    for (let n = 0; (options.count === 0 || made.length < options.count) && !options.signal?.aborted; n++) {
      const step = rng.weighted(STEPS);
      const change = db.transaction(() => step(db, rng, start + n))();
      if (!change) continue;
      made.push(change);
      options.onChange?.(change);
      if (options.everyMs)
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, options.everyMs);
          options.signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
        });
    }
  } finally {
    db.close();
  }
  return made;
}
