import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import {
  ApDocumentSchema,
  ArDocumentSchema,
  CustomerAddressSchema,
  CustomerSchema,
  GlEntrySchema,
  MAX_WRITE_AMOUNT,
  SalesOrderSchema,
  VendorAddressSchema,
  VendorSchema,
  type WritableObjectName,
  type WriteOperation,
} from '@gp-gateway/protocol';
import { generateDemo } from '@gp-gateway/gp-demo';
import { SqliteExecutor } from '../db/sqliteExecutor.ts';
import { payloadText, ReadService } from '../service/readService.ts';
import { AgentError } from '../service/agentError.ts';
import { SqliteWriter } from './sqliteWriter.ts';
import { WRITES_OFF_MESSAGE, WriteService } from './writeService.ts';
import { JOURNAL_TABLE } from './journal.ts';
import { nextNumber } from './numbers.ts';

/**
 * Writes on the embedded database, end to end below the session: each writable object written and
 * read back through the read catalogue; every refusal; validate-only leaving the database as it
 * was; the journal answering a repeated operation id and settling outcomes (docs/decisions.md#writes).
 */
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-writes-'));
const pristine = path.join(root, 'pristine');
generateDemo({ dir: pristine, seed: 7 });
after(() => fs.rmSync(root, { recursive: true, force: true }));

let copies = 0;
/** A fresh copy of the demo, its writer and a reader over it. */
function fresh(options: { readonly?: boolean; allowWrites?: boolean } = {}) {
  const dir = path.join(root, `copy-${copies++}`);
  fs.cpSync(pristine, dir, { recursive: true });
  const writer = new SqliteWriter({ dir, readonly: options.readonly ?? false });
  const writes = new WriteService(writer, { allowWrites: options.allowWrites ?? true, validateOnlyWhenOff: options.readonly ?? false });
  const executor = new SqliteExecutor({ dir });
  const reads = new ReadService(executor);
  return {
    dir,
    writes,
    async get(object: string, id: string): Promise<unknown> {
      return JSON.parse(payloadText((await reads.handle({ kind: 'get', object: object as never, company: 'TWO', id })).payload));
    },
    async list(object: string, filters: Record<string, unknown>): Promise<unknown[]> {
      const page = await reads.handle({ kind: 'list', object: object as never, company: 'TWO', filters, limit: 1000, after: null });
      return JSON.parse(payloadText(page.payload)) as unknown[];
    },
    async close() {
      await writes.close();
      await executor.close();
    },
  };
}

let ids = 0;
const opId = () => `op-${process.pid}-${Date.now()}-${ids++}`.padEnd(16, 'x');
const op = (object: WritableObjectName, body: Record<string, unknown>, extra: Partial<WriteOperation> = {}): WriteOperation => ({
  kind: 'write',
  object,
  company: 'TWO',
  operationId: opId(),
  body,
  validateOnly: false,
  ...extra,
});

/** Every row of every table of a company database, hashed: equal hashes, nothing changed. */
function fingerprint(dir: string): string {
  const db = new Database(path.join(dir, 'TWO.sqlite'), { readonly: true });
  try {
    const hash = crypto.createHash('sha256');
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all() as string[];
    for (const table of tables) {
      hash.update(table);
      for (const row of db.prepare(`SELECT * FROM "${table}" ORDER BY rowid`).raw().all())
        hash.update(JSON.stringify(row, (_, v) => (typeof v === 'bigint' ? String(v) : v)));
    }
    return hash.digest('hex');
  } finally {
    db.close();
  }
}

async function refusal(promise: Promise<unknown>): Promise<AgentError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AgentError) return error;
    throw error;
  }
  assert.fail('the write was not refused');
}

const CUSTOMER = {
  id: 'apitest0001',
  name: 'API Test Customer',
  shortName: 'API TEST',
  paymentTermsId: 'Net 30',
  currencyId: 'Z-US$',
  creditLimit: '2500.00',
  phone: '31255501230000',
  hold: false,
};
const SALES_ORDER = {
  docTypeId: 'STDORD',
  customerId: 'AARONFIT0001',
  date: '2026-11-20',
  batchId: 'API-ORDERS',
  customerPONumber: 'PO-77',
  freightAmount: '12.50',
  lines: [
    { itemId: 'ACCS-10011-BK', quantity: '2', unitPrice: '19.99', siteId: 'WAREHOUSE' },
    { itemId: 'ACCS-10012', quantity: '1.5', unitPrice: '100', description: 'Special', siteId: 'WAREHOUSE' },
  ],
};

interface DistributionRow {
  DISTTYPE: number;
  SEQ: number;
  DEBIT: string;
  CREDIT: string;
  ACCOUNT: number;
  [column: string]: unknown;
}

/** A document's distribution lines in their order, amounts as decimal strings (the stored value is scaled by 10^5). */
function distributionsOf(db: Database.Database, table: 'RM10101' | 'PM10100', key: string, value: string, seq: string): DistributionRow[] {
  const rows = db.prepare(`SELECT * FROM ${table} WHERE ${key} = ? ORDER BY ${seq}`).safeIntegers(true).all(value.padEnd(21)) as Record<
    string,
    unknown
  >[];
  const money = (v: unknown) => {
    const n = BigInt(v as bigint);
    return `${n / 100000n}.${String(n % 100000n).padStart(5, '0')}`;
  };
  return rows.map((row) => ({
    ...Object.fromEntries(
      Object.entries(row).map(([k, v]) => [k, typeof v === 'bigint' ? Number(v) : typeof v === 'string' ? v.trimEnd() : v]),
    ),
    DISTTYPE: Number(row.DISTTYPE),
    SEQ: Number(row[seq]),
    DEBIT: money(row.DEBITAMT),
    CREDIT: money(row.CRDTAMNT),
    ACCOUNT: Number(row.DSTINDX),
  }));
}

function setupAccount(db: Database.Database, series: number, sequence: number): number {
  const account = db.prepare('SELECT ACTINDX FROM SY01100 WHERE SERIES = ? AND SEQNUMBR = ?').pluck().get(series, sequence) as
    number | undefined;
  assert.ok(account, `the demo sets up SY01100 ${series}/${sequence}`);
  return account;
}

function assertBalancedOnRealAccounts(db: Database.Database, lines: DistributionRow[]): void {
  assert.ok(lines.length >= 2);
  const sum = (side: 'DEBIT' | 'CREDIT') => lines.reduce((total, l) => total + BigInt(l[side].replace('.', '')), 0n);
  assert.equal(sum('DEBIT'), sum('CREDIT'), 'debits equal credits');
  for (const line of lines) {
    const account = db.prepare('SELECT ACTIVE, ACCTTYPE FROM GL00100 WHERE ACTINDX = ?').get(line.ACCOUNT) as
      { ACTIVE: number; ACCTTYPE: number } | undefined;
    assert.deepEqual(
      account,
      { ACTIVE: 1, ACCTTYPE: 1 },
      `account ${line.ACCOUNT} of DISTTYPE ${line.DISTTYPE} is an active posting account`,
    );
  }
}

describe('writes on the embedded database', () => {
  let t: ReturnType<typeof fresh>;
  let customers: string[];
  let vendors: string[];
  let items: string[];
  let accounts: string[];
  before(async () => {
    t = fresh();
    const db = new Database(path.join(t.dir, 'TWO.sqlite'), { readonly: true });
    customers = db.prepare('SELECT rtrim(CUSTNMBR) FROM RM00101 WHERE INACTIVE = 0 LIMIT 3').pluck().all() as string[];
    vendors = db.prepare('SELECT rtrim(VENDORID) FROM PM00200 WHERE VENDSTTS = 1 LIMIT 2').pluck().all() as string[];
    items = db.prepare('SELECT rtrim(ITEMNMBR) FROM IV00101 LIMIT 2').pluck().all() as string[];
    accounts = db
      .prepare(
        'SELECT rtrim(n.ACTNUMST) FROM GL00105 n JOIN GL00100 a ON a.ACTINDX = n.ACTINDX WHERE a.ACTIVE = 1 AND a.ACCTTYPE = 1 LIMIT 3',
      )
      .pluck()
      .all() as string[];
    db.close();
    SALES_ORDER.customerId = customers[0]!;
    SALES_ORDER.lines[0]!.itemId = items[0]!;
    SALES_ORDER.lines[1]!.itemId = items[1]!;
  });
  after(() => t.close());

  test('a customer is written to RM00101 and RM00103 and reads back as sent', async () => {
    const answer = await t.writes.write(op('customers', CUSTOMER));
    assert.equal(answer.outcome, 'created');
    const created = CustomerSchema.parse(JSON.parse(answer.payload!));
    assert.deepEqual(await t.get('customers', 'APITEST0001'), JSON.parse(answer.payload!));
    assert.equal(created.id, 'APITEST0001');
    assert.equal(created.name, CUSTOMER.name);
    assert.equal(created.creditLimit, '2500.00');
    assert.equal(created.paymentTermsId, 'Net 30');
    const db = new Database(path.join(t.dir, 'TWO.sqlite'), { readonly: true });
    assert.equal(db.prepare("SELECT count(*) FROM RM00103 WHERE CUSTNMBR = 'APITEST0001    '").pluck().get(), 1);
    const dates = db.prepare("SELECT CREATDDT, MODIFDT, DEX_ROW_TS FROM RM00101 WHERE CUSTNMBR = 'APITEST0001    '").get() as Record<
      string,
      string
    >;
    db.close();
    assert.match(dates.CREATDDT!, /^\d{4}-\d{2}-\d{2} 00:00:00\.000$/);
    assert.ok(Date.now() - Date.parse(`${dates.DEX_ROW_TS!.replace(' ', 'T')}Z`) < 60_000, 'DEX_ROW_TS is now, in UTC');
  });

  test('a customer address, a vendor and a vendor address read back as sent', async () => {
    const address = { customerId: customers[1]!, code: 'API-SHIP', line1: '1 Test Way', city: 'Chicago', state: 'IL', postalCode: '60601' };
    const a = await t.writes.write(op('customer-addresses', address));
    CustomerAddressSchema.parse(JSON.parse(a.payload!));
    assert.deepEqual(await t.get('customer-addresses', `${customers[1]}:API-SHIP`), JSON.parse(a.payload!));
    assert.equal((JSON.parse(a.payload!) as { line1: string }).line1, '1 Test Way');

    const vendor = { id: 'APIVEND', name: 'API Vendor', paymentTermsId: 'Net 30', ten99Type: 'miscellaneous' };
    const v = await t.writes.write(op('vendors', vendor));
    const readVendor = VendorSchema.parse(await t.get('vendors', 'APIVEND'));
    assert.deepEqual(readVendor, JSON.parse(v.payload!));
    assert.equal(readVendor.status, 'active');
    assert.equal(readVendor.ten99Type, 'miscellaneous');

    const va = await t.writes.write(op('vendor-addresses', { vendorId: 'APIVEND', code: 'REMIT', line1: 'PO Box 1', city: 'Fargo' }));
    VendorAddressSchema.parse(JSON.parse(va.payload!));
    assert.deepEqual(await t.get('vendor-addresses', 'APIVEND:REMIT'), JSON.parse(va.payload!));
  });

  test('a sales order takes the next number of its document type id, lines before header, totals from the lines', async () => {
    const db = () => new Database(path.join(t.dir, 'TWO.sqlite'), { readonly: true });
    const before = db();
    const next = String(
      before.prepare("SELECT SOPNUMBE FROM SOP40200 WHERE SOPTYPE = 2 AND DOCID = 'STDORD         '").pluck().get(),
    ).trimEnd();
    before.close();
    const answer = await t.writes.write(op('sales-orders', SALES_ORDER));
    const order = SalesOrderSchema.parse(JSON.parse(answer.payload!));
    assert.equal(order.number, next);
    assert.equal(order.subtotal, '189.98');
    assert.equal(order.freightAmount, '12.50');
    assert.equal(order.total, '202.48');
    assert.equal(order.batchId, 'API-ORDERS');
    assert.deepEqual(await t.get('sales-orders', `order:${next}`), JSON.parse(answer.payload!));
    const lines = (await t.list('sales-order-lines', { documentId: `order:${next}` })) as Record<string, unknown>[];
    assert.deepEqual(
      lines.map((l) => [l.itemId, l.quantity, l.unitPrice, l.extendedPrice, l.siteId]),
      [
        [items[0], '2', '19.99', '39.98', 'WAREHOUSE'],
        [items[1], '1.5', '100.00', '150.00', 'WAREHOUSE'],
      ],
    );
    assert.equal(lines[1]!.description, 'Special');
    const work = (await t.list('sales-orders', { status: 'work', batchId: 'API-ORDERS' })) as { number: string }[];
    assert.deepEqual(
      work.map((o) => o.number),
      [next],
    );
    const after = db();
    assert.notEqual(
      String(after.prepare("SELECT SOPNUMBE FROM SOP40200 WHERE SOPTYPE = 2 AND DOCID = 'STDORD         '").pluck().get()).trimEnd(),
      next,
    );
    const batch = after.prepare("SELECT SERIES, NUMOFTRX, BCHTOTAL FROM SY00500 WHERE BACHNUMB = 'API-ORDERS     '").get() as Record<
      string,
      number
    >;
    after.close();
    assert.deepEqual(batch, { SERIES: 3, NUMOFTRX: 1, BCHTOTAL: 20248000 });
    const second = SalesOrderSchema.parse(JSON.parse((await t.writes.write(op('sales-orders', SALES_ORDER))).payload!));
    assert.notEqual(second.number, order.number, 'numbers never collide');
  });

  test("a sales line's unit of measure and price level are written and read back; absent, GP's defaults; GP's 5313, 928 and 9177 write nothing", async () => {
    const db = new Database(path.join(t.dir, 'TWO.sqlite'), { readonly: true });
    // An item sold by the each, whose schedule also has a case of 12 (the demo's price lists).
    const item = String(
      db
        .prepare(
          "SELECT rtrim(ITEMNMBR) FROM IV00101 WHERE rtrim(SELNGUOM) = 'EACH' AND INACTIVE = 0 AND rtrim(PRCLEVEL) = 'RETAIL' LIMIT 1",
        )
        .pluck()
        .get(),
    );
    const wholesaleCustomer = String(
      db
        .prepare("SELECT rtrim(CUSTNMBR) FROM RM00101 WHERE rtrim(PRCLEVEL) = 'WHOLESALE' AND INACTIVE = 0 AND HOLD = 0 LIMIT 1")
        .pluck()
        .get(),
    );
    db.close();
    const order = (lines: Record<string, unknown>[], customerId = wholesaleCustomer) => ({
      docTypeId: 'STDORD',
      customerId,
      date: '2026-11-20',
      batchId: 'API-UOFM',
      lines: lines.map((line) => ({ itemId: item, quantity: '2', unitPrice: '10', siteId: 'WAREHOUSE', ...line })),
    });
    const answer = await t.writes.write(
      op('sales-orders', order([{ unitOfMeasure: 'case', priceLevel: 'retail' }, { priceLevel: 'WHOLESALE' }, {}])),
    );
    const number = SalesOrderSchema.parse(JSON.parse(answer.payload!)).number!;
    const lines = (await t.list('sales-order-lines', { documentId: `order:${number}` })) as Record<string, unknown>[];
    assert.deepEqual(
      lines.map((l) => [l.unitOfMeasure, l.priceLevel]),
      [
        ['CASE', 'RETAIL'],
        ['EACH', 'WHOLESALE'],
        // Absent: the item's selling unit, and the customer's price level, which prices the item in it.
        ['EACH', 'WHOLESALE'],
      ],
    );
    const stored = new Database(path.join(t.dir, 'TWO.sqlite'), { readonly: true });
    try {
      // The unit's quantity in the base unit, as GP keeps it beside the line.
      const quantities = stored
        .prepare('SELECT CAST(QTYBSUOM AS TEXT) FROM SOP10200 WHERE SOPTYPE = 2 AND SOPNUMBE = ? ORDER BY LNITMSEQ')
        .pluck()
        .all(number.padEnd(21));
      assert.deepEqual(quantities, ['1200000', '100000', '100000']);
    } finally {
      stored.close();
    }

    const before = fingerprint(t.dir);
    const issuesOf = async (lines: Record<string, unknown>[]) => {
      const refused = await refusal(t.writes.write(op('sales-orders', order(lines))));
      assert.equal(refused.code, 'VALIDATION_ERROR');
      return (refused.details as { issues: { path: string; message: string }[] }).issues.map((i) => [
        i.path,
        i.message.match(/GP error (\d+)/)?.[1],
      ]);
    };
    assert.deepEqual(await issuesOf([{ unitOfMeasure: 'PALLET' }]), [['lines.0.unitOfMeasure', '5313']]);
    assert.deepEqual(await issuesOf([{}, { priceLevel: 'NOSUCH' }]), [['lines.1.priceLevel', '928']]);
    // WHOLESALE prices the each only: a case at that level has no price.
    assert.deepEqual(await issuesOf([{ unitOfMeasure: 'CASE', priceLevel: 'WHOLESALE' }]), [['lines.0.priceLevel', '9177']]);
    // Every line's problem at once.
    assert.deepEqual(await issuesOf([{ unitOfMeasure: 'PALLET' }, {}, { unitOfMeasure: 'CASE', priceLevel: 'WHOLESALE' }]), [
      ['lines.0.unitOfMeasure', '5313'],
      ['lines.2.priceLevel', '9177'],
    ]);
    assert.equal(fingerprint(t.dir), before, 'nothing written, no number taken');
  });

  test("a document type id without a next number of its own takes the invoice id's or its type's (SOP40300), as taGetSopNumber does", async () => {
    const t = fresh();
    try {
      const file = path.join(t.dir, 'TWO.sqlite');
      const setup = new Database(file);
      setup.prepare("UPDATE SOP40200 SET SOPNUMBE = ? WHERE SOPTYPE = 2 AND DOCID = 'STDORD         '").run(''.padEnd(21));
      const typeNumber = String(setup.prepare('SELECT SOPNUMBE FROM SOP40300 WHERE SOPTYPE = 2').pluck().get()).trimEnd();
      setup.close();
      const first = SalesOrderSchema.parse(JSON.parse((await t.writes.write(op('sales-orders', SALES_ORDER))).payload!));
      const second = SalesOrderSchema.parse(JSON.parse((await t.writes.write(op('sales-orders', SALES_ORDER))).payload!));
      assert.equal(first.number, typeNumber);
      assert.equal(second.number, nextNumber(typeNumber));
      const after = new Database(file, { readonly: true });
      assert.equal(
        String(after.prepare('SELECT SOPNUMBE FROM SOP40300 WHERE SOPTYPE = 2').pluck().get()).trimEnd(),
        nextNumber(second.number!),
      );
      assert.equal(
        String(after.prepare("SELECT SOPNUMBE FROM SOP40200 WHERE SOPTYPE = 2 AND DOCID = 'STDORD         '").pluck().get()).trim(),
        '',
        "the document type id's blank number stays blank",
      );
      after.close();
      // An id set to use the invoice's numbering (USNXTINV) takes the next number of the invoice id it
      // names, and stores the one after in its own row, as taGetSopNumber does.
      const setup2 = new Database(file);
      const invoiceId = setup2.prepare('SELECT DOCID, SOPNUMBE FROM SOP40200 WHERE SOPTYPE = 3 LIMIT 1').get() as Record<string, string>;
      setup2.prepare("UPDATE SOP40200 SET USNXTINV = 1, USDOCID1 = ? WHERE SOPTYPE = 2 AND DOCID = 'STDORD         '").run(invoiceId.DOCID);
      setup2.close();
      const third = SalesOrderSchema.parse(JSON.parse((await t.writes.write(op('sales-orders', SALES_ORDER))).payload!));
      assert.equal(third.number, invoiceId.SOPNUMBE!.trimEnd());
      const after2 = new Database(file, { readonly: true });
      assert.equal(
        String(after2.prepare("SELECT SOPNUMBE FROM SOP40200 WHERE SOPTYPE = 2 AND DOCID = 'STDORD         '").pluck().get()).trimEnd(),
        nextNumber(third.number!),
      );
      assert.equal(
        String(after2.prepare('SELECT SOPNUMBE FROM SOP40200 WHERE SOPTYPE = 3 AND DOCID = ?').pluck().get(invoiceId.DOCID)),
        invoiceId.SOPNUMBE,
      );
      after2.close();
    } finally {
      await t.close();
    }
  });

  test('an AR invoice goes unposted into RM10301 with the next number of its type', async () => {
    const body = {
      customerId: customers[2]!,
      date: '2026-11-21',
      salesAmount: '1000.00',
      freightAmount: '80',
      batchId: 'API-RM',
      description: 'Consulting',
    };
    const answer = await t.writes.write(op('ar-invoices', body));
    const invoice = ArDocumentSchema.parse(JSON.parse(answer.payload!));
    assert.equal(invoice.type, 'invoice');
    assert.match(invoice.documentNumber!, /^INV\d+$/);
    assert.equal(invoice.originalAmount, '1080.00');
    assert.equal(invoice.description, 'Consulting');
    assert.equal(invoice.customerId, customers[2]);
    assert.equal(invoice.currencyId, 'Z-US$');
    // Read back as any client would: get by id (work, open, history) and the work list.
    assert.deepEqual(await t.get('ar-invoices', `invoice:${invoice.documentNumber}`), JSON.parse(answer.payload!));
    assert.deepEqual(await t.list('ar-invoices', { status: 'work', batchId: 'API-RM' }), [JSON.parse(answer.payload!)]);
    const taken = await refusal(t.writes.write(op('ar-invoices', { ...body, documentNumber: invoice.documentNumber })));
    assert.equal(taken.code, 'ALREADY_EXISTS');
    const db = new Database(path.join(t.dir, 'TWO.sqlite'), { readonly: true });
    try {
      // eConnect's distributions, in its order: SALES and FREIGHT credited, RECV debited, on the posting setup's accounts.
      const lines = distributionsOf(db, 'RM10101', 'DOCNUMBR', invoice.documentNumber!, 'SEQNUMBR');
      assert.deepEqual(
        lines.map((l) => [l.DISTTYPE, l.SEQ, l.DEBIT, l.CREDIT, l.ACCOUNT]),
        [
          [9, 16384, '0.00000', '1000.00000', setupAccount(db, 3, 1100)],
          [11, 32768, '0.00000', '80.00000', setupAccount(db, 3, 1800)],
          [3, 49152, '1080.00000', '0.00000', setupAccount(db, 3, 100)],
        ],
      );
      assertBalancedOnRealAccounts(db, lines);
      assert.ok(lines.every((l) => l.RMDTYPAL === 1 && l.PSTGSTUS === 3 && l.CUSTNMBR === customers[2]));
      // The next number is GP's own, advanced in RM40401.
      const next = String(db.prepare('SELECT DOCNUMBR FROM RM40401 WHERE RMDTYPAL = 1').pluck().get()).trimEnd();
      assert.equal(next, nextNumber(invoice.documentNumber!));
    } finally {
      db.close();
    }
  });

  test('an AP invoice goes unposted into PM10000 with the next voucher number', async () => {
    const body = {
      vendorId: vendors[0]!,
      vendorDocumentNumber: 'V-INV-9',
      date: '2026-11-21',
      purchasesAmount: '500.5',
      batchId: 'API-PM',
    };
    const answer = await t.writes.write(op('ap-invoices', body));
    const invoice = ApDocumentSchema.parse(JSON.parse(answer.payload!));
    assert.equal(invoice.vendorDocumentNumber, 'V-INV-9');
    assert.equal(invoice.purchasesAmount, '500.50');
    assert.match(invoice.voucherNumber!, /^\d{17}$/);
    assert.deepEqual(await t.get('ap-invoices', `invoice:${invoice.voucherNumber}`), JSON.parse(answer.payload!));
    assert.deepEqual(await t.list('ap-invoices', { status: 'work', batchId: 'API-PM' }), [JSON.parse(answer.payload!)]);
    const again = await refusal(t.writes.write(op('ap-invoices', body)));
    assert.equal(again.code, 'ALREADY_EXISTS', "a vendor's document number is taken once");
    const db = new Database(path.join(t.dir, 'TWO.sqlite'), { readonly: true });
    try {
      // PURCH debited, PAY credited: on the vendor's own accounts where it names them, else the posting setup's.
      const own = db.prepare('SELECT PMAPINDX, PMPRCHIX FROM PM00200 WHERE VENDORID = ?').get(vendors[0]!.padEnd(15)) as Record<
        string,
        number
      >;
      const lines = distributionsOf(db, 'PM10100', 'VCHRNMBR', invoice.voucherNumber!, 'DSTSQNUM');
      assert.deepEqual(
        lines.map((l) => [l.DISTTYPE, l.SEQ, l.DEBIT, l.CREDIT, l.ACCOUNT]),
        [
          [6, 16384, '500.50000', '0.00000', own.PMPRCHIX || setupAccount(db, 4, 600)],
          [2, 32768, '0.00000', '500.50000', own.PMAPINDX || setupAccount(db, 4, 200)],
        ],
      );
      assertBalancedOnRealAccounts(db, lines);
      assert.ok(lines.every((l) => l.VENDORID === vendors[0] && l.CNTRLTYP === 0));
      const next = String(db.prepare("SELECT NTVCHNUM FROM PM40100 WHERE UNIQKEY = '1'").pluck().get()).trimEnd();
      assert.equal(next, nextNumber(invoice.voucherNumber!));
    } finally {
      db.close();
    }
    // A vendor with accounts of its own and one without both get real accounts.
    const db2 = new Database(path.join(t.dir, 'TWO.sqlite'), { readonly: true });
    const [withOwn, without] = ['<>', '='].map((op) =>
      String(db2.prepare(`SELECT rtrim(VENDORID) FROM PM00200 WHERE VENDSTTS = 1 AND PMAPINDX ${op} 0 LIMIT 1`).pluck().get()),
    );
    db2.close();
    for (const vendorId of [withOwn!, without!]) {
      const answer = await t.writes.write(
        op('ap-invoices', { ...body, vendorId, vendorDocumentNumber: `OWN-${vendorId}`, purchasesAmount: '0.3' }),
      );
      const voucher = ApDocumentSchema.parse(JSON.parse(answer.payload!)).voucherNumber!;
      const db = new Database(path.join(t.dir, 'TWO.sqlite'), { readonly: true });
      try {
        const own = db.prepare('SELECT PMAPINDX, PMPRCHIX FROM PM00200 WHERE VENDORID = ?').get(vendorId.padEnd(15)) as Record<
          string,
          number
        >;
        const lines = distributionsOf(db, 'PM10100', 'VCHRNMBR', voucher, 'DSTSQNUM');
        assert.deepEqual(
          lines.map((l) => [l.DISTTYPE, l.DEBIT, l.CREDIT, l.ACCOUNT]),
          [
            [6, '0.30000', '0.00000', own.PMPRCHIX || setupAccount(db, 4, 600)],
            [2, '0.00000', '0.30000', own.PMAPINDX || setupAccount(db, 4, 200)],
          ],
        );
        assertBalancedOnRealAccounts(db, lines);
      } finally {
        db.close();
      }
    }
  });

  test("an AP invoice of a 1099 vendor carries its 1099 amount; GP's refusals (713, 714) write nothing", async () => {
    const db = new Database(path.join(t.dir, 'TWO.sqlite'), { readonly: true });
    const [ten99Vendor, otherVendor] = ['TEN99TYPE >= 2', 'TEN99TYPE = 1'].map((condition) =>
      String(db.prepare(`SELECT rtrim(VENDORID) FROM PM00200 WHERE VENDSTTS = 1 AND ${condition} LIMIT 1`).pluck().get()),
    );
    db.close();
    const body = { vendorId: ten99Vendor!, vendorDocumentNumber: 'T99-1', date: '2026-11-21', purchasesAmount: '800', batchId: 'API-1099' };
    const answer = await t.writes.write(op('ap-invoices', { ...body, ten99Amount: '750.25' }));
    const invoice = ApDocumentSchema.parse(JSON.parse(answer.payload!));
    assert.equal(invoice.ten99Amount, '750.25');
    assert.deepEqual(await t.get('ap-invoices', `invoice:${invoice.voucherNumber}`), JSON.parse(answer.payload!));
    const written = new Database(path.join(t.dir, 'TWO.sqlite'), { readonly: true });
    try {
      // Both columns, as taPMTransactionInsert sets them: the 1099 amount, and all of it unpaid.
      const row = written
        .prepare('SELECT CAST(TEN99AMNT AS TEXT) AS T, CAST(UN1099AM AS TEXT) AS U FROM PM10000 WHERE VCHNUMWK = ?')
        .get(invoice.voucherNumber!.padEnd(17));
      assert.deepEqual(row, { T: '75025000', U: '75025000' });
    } finally {
      written.close();
    }
    // Absent, it is 0 (eConnect's default), also for a 1099 vendor.
    const plain = ApDocumentSchema.parse(
      JSON.parse((await t.writes.write(op('ap-invoices', { ...body, vendorDocumentNumber: 'T99-2' }))).payload!),
    );
    assert.equal(plain.ten99Amount, '0.00');

    const before = fingerprint(t.dir);
    const notTen99 = await refusal(
      t.writes.write(op('ap-invoices', { ...body, vendorId: otherVendor!, vendorDocumentNumber: 'T99-3', ten99Amount: '1' })),
    );
    assert.equal(notTen99.code, 'VALIDATION_ERROR');
    assert.deepEqual(
      (notTen99.details as { issues: { path: string; message: string }[] }).issues.map((i) => [i.path, /error 713/.test(i.message)]),
      [['ten99Amount', true]],
    );
    const above = await refusal(t.writes.write(op('ap-invoices', { ...body, vendorDocumentNumber: 'T99-4', ten99Amount: '800.01' })));
    assert.deepEqual(
      (above.details as { issues: { path: string; message: string }[] }).issues.map((i) => [i.path, /error 714/.test(i.message)]),
      [['ten99Amount', true]],
    );
    assert.equal(fingerprint(t.dir), before, 'nothing written, no voucher number taken');
    // Zero is no 1099 amount: GP checks the vendor only above zero.
    const zero = await t.writes.write(
      op('ap-invoices', { ...body, vendorId: otherVendor!, vendorDocumentNumber: 'T99-5', ten99Amount: '0' }),
    );
    assert.equal(ApDocumentSchema.parse(JSON.parse(zero.payload!)).ten99Amount, '0.00');
  });

  test("receivables and payables documents carry their own distributions, read back as the document's lines; GP's defaults without them", async () => {
    const db = new Database(path.join(t.dir, 'TWO.sqlite'), { readonly: true });
    const inactive = String(
      db
        .prepare(
          'SELECT rtrim(n.ACTNUMST) FROM GL00105 n JOIN GL00100 a ON a.ACTINDX = n.ACTINDX WHERE a.ACTIVE = 0 AND a.ACCTTYPE = 1 LIMIT 1',
        )
        .pluck()
        .get(),
    );
    db.close();
    const [first, second, third] = accounts as [string, string, string];
    const ar = { customerId: customers[0]!, date: '2026-11-21', salesAmount: '100', freightAmount: '20', batchId: 'API-DIST' };
    const arLines = [
      { type: 'receivables', accountNumber: first, debit: '120', reference: 'due' },
      { type: 'sales', accountNumber: second, credit: '100' },
      { type: 'freight', accountNumber: third, credit: '20' },
    ];
    const invoice = ArDocumentSchema.parse(JSON.parse((await t.writes.write(op('ar-invoices', { ...ar, lines: arLines }))).payload!));
    assert.equal(invoice.originalAmount, '120.00');
    assert.deepEqual(await t.list('ar-invoice-distributions', { documentId: `invoice:${invoice.documentNumber}` }), [
      { type: 'receivables', accountNumber: first, debit: '120.00', credit: '0.00', reference: 'due' },
      { type: 'sales', accountNumber: second, debit: '0.00', credit: '100.00', reference: null },
      { type: 'freight', accountNumber: third, debit: '0.00', credit: '20.00', reference: null },
    ]);
    // Without lines, GP's own (posting setup) distributions, readable the same way.
    const plain = ArDocumentSchema.parse(JSON.parse((await t.writes.write(op('ar-invoices', ar))).payload!));
    const defaults = (await t.list('ar-invoice-distributions', { documentId: `invoice:${plain.documentNumber}` })) as Record<
      string,
      unknown
    >[];
    assert.deepEqual(
      defaults.map((l) => [l.type, l.debit, l.credit]),
      [
        ['sales', '0.00', '100.00'],
        ['freight', '0.00', '20.00'],
        ['receivables', '120.00', '0.00'],
      ],
    );

    const ap = { vendorId: vendors[0]!, vendorDocumentNumber: 'DIST-1', date: '2026-11-21', purchasesAmount: '75.5', batchId: 'API-DIST' };
    const apLines = [
      { type: 'purchases', accountNumber: second, debit: '75.5' },
      { type: 'payables', accountNumber: first, credit: '75.5', reference: 'owed' },
    ];
    const voucher = ApDocumentSchema.parse(JSON.parse((await t.writes.write(op('ap-invoices', { ...ap, lines: apLines }))).payload!));
    assert.deepEqual(await t.list('ap-invoice-distributions', { documentId: `invoice:${voucher.voucherNumber}` }), [
      { type: 'purchases', accountNumber: second, debit: '75.50', credit: '0.00', reference: null },
      { type: 'payables', accountNumber: first, debit: '0.00', credit: '75.50', reference: 'owed' },
    ]);

    // Refused, nothing written: an account that does not exist or is inactive, lines that do not balance.
    const before = fingerprint(t.dir);
    const issues = async (object: 'ar-invoices' | 'ap-invoices', body: Record<string, unknown>) => {
      const refused = await refusal(t.writes.write(op(object, body)));
      assert.equal(refused.code, 'VALIDATION_ERROR');
      return (refused.details as { issues: { path: string; message: string }[] }).issues.map((i) => `${i.path}: ${i.message}`);
    };
    assert.deepEqual(
      await issues('ar-invoices', { ...ar, lines: [{ ...arLines[0]!, accountNumber: '999-9999-99' }, ...arLines.slice(1)] }),
      ['lines.0.accountNumber: no account with this number'],
    );
    assert.deepEqual(
      await issues('ap-invoices', {
        ...ap,
        vendorDocumentNumber: 'DIST-2',
        lines: [apLines[0]!, { ...apLines[1]!, accountNumber: inactive }],
      }),
      ['lines.1.accountNumber: the account is inactive'],
    );
    assert.deepEqual(
      await issues('ap-invoices', { ...ap, vendorDocumentNumber: 'DIST-3', lines: [apLines[0]!, { ...apLines[1]!, credit: '75' }] }),
      ['lines: the distributions do not balance: debits and credits must be equal'],
    );
    assert.equal(fingerprint(t.dir), before, 'nothing written, no number taken');
  });

  test('a journal entry goes unposted into GL10000/GL10001 with GL40000 next entry; its answer is its lines', async () => {
    const body = {
      reference: 'API accrual',
      date: '2026-11-22',
      batchId: 'API-GL',
      lines: [
        { accountNumber: accounts[0]!, debit: '100.00', lineDescription: 'one' },
        { accountNumber: accounts[1]!, credit: '60.00' },
        { accountNumber: accounts[2]!, credit: '40.00' },
      ],
    };
    const answer = await t.writes.write(op('gl-entries', body));
    const lines = (JSON.parse(answer.payload!) as unknown[]).map((line) => GlEntrySchema.parse(line));
    assert.equal(lines.length, 3);
    assert.equal(new Set(lines.map((l) => l.journalEntryNumber)).size, 1);
    assert.deepEqual(
      lines.map((l) => [l.accountNumber, l.debit, l.credit, l.reference, l.date]),
      [
        [accounts[0], '100.00', '0.00', 'API accrual', '2026-11-22'],
        [accounts[1], '0.00', '60.00', 'API accrual', '2026-11-22'],
        [accounts[2], '0.00', '40.00', 'API accrual', '2026-11-22'],
      ],
    );
    const entry = lines[0]!.journalEntryNumber!;
    assert.deepEqual(await t.list('gl-entries', { year: 'unposted', journalEntryNumber: entry }), JSON.parse(answer.payload!));
    const dated = await refusal(t.list('gl-entries', { year: 'unposted', dateFrom: '2026-01-01' }));
    assert.deepEqual([dated.code, dated.message], ['VALIDATION_ERROR', 'dateFrom cannot be combined with year=unposted']);
    const posted = (await t.list('gl-entries', { journalEntryNumber: entry })) as unknown[];
    assert.deepEqual(posted, [], 'unposted lines are not among the posted ones');
    const unbalanced = await refusal(t.writes.write(op('gl-entries', { ...body, lines: body.lines.slice(0, 2) })));
    assert.equal(unbalanced.code, 'VALIDATION_ERROR');
    assert.deepEqual((unbalanced.details as { issues: unknown[] }).issues, [
      { path: 'lines', message: 'the entry does not balance: debits and credits must be equal' },
    ]);
  });

  test('broken references are each named in details.issues, and nothing is written', async () => {
    const before = fingerprint(t.dir);
    const broken = await refusal(
      t.writes.write(
        op('sales-orders', {
          ...SALES_ORDER,
          customerId: 'NOSUCHCUSTOMER',
          siteId: 'NOWHERE',
          lines: [SALES_ORDER.lines[0], { ...SALES_ORDER.lines[1], itemId: 'NO-SUCH-ITEM' }],
        }),
      ),
    );
    assert.equal(broken.code, 'VALIDATION_ERROR');
    assert.deepEqual((broken.details as { issues: unknown[] }).issues, [
      { path: 'customerId', message: 'no customer with this id' },
      { path: 'siteId', message: 'no site with this id' },
      { path: 'lines.1.itemId', message: 'no item with this id' },
    ]);
    const gl = await refusal(
      t.writes.write(
        op('gl-entries', {
          reference: 'x',
          date: '2026-11-22',
          batchId: 'API-ORDERS',
          lines: [
            { accountNumber: '999-9999-99', debit: '1' },
            { accountNumber: accounts[0]!, credit: '1' },
          ],
        }),
      ),
    );
    // API-ORDERS is a sales batch: a journal entry's batch of that id is another batch (GP keys SY00500 by source and id).
    assert.deepEqual((gl.details as { issues: unknown[] }).issues, [
      { path: 'lines.0.accountNumber', message: 'no account with this number' },
    ]);
    const terms = await refusal(
      t.writes.write(op('customers', { id: 'NEWONE', name: 'x', paymentTermsId: 'Net 999', currencyId: 'Z-XX$' })),
    );
    assert.deepEqual((terms.details as { issues: unknown[] }).issues, [
      { path: 'paymentTermsId', message: 'no payment terms with this id' },
      { path: 'currencyId', message: 'no currency with this id' },
    ]);
    assert.equal(fingerprint(t.dir), before);
  });

  test("a batch is GP's batch of this kind of document: the same id of another kind is another batch; one being posted is refused", async () => {
    const body = {
      reference: 'same batch id',
      date: '2026-11-22',
      batchId: 'SHARED-ID',
      lines: [
        { accountNumber: accounts[0]!, debit: '5.00' },
        { accountNumber: accounts[1]!, credit: '5.00' },
      ],
    };
    await t.writes.write(op('sales-orders', { ...SALES_ORDER, batchId: 'SHARED-ID' }));
    await t.writes.write(op('gl-entries', body));
    const db = new Database(path.join(t.dir, 'TWO.sqlite'));
    try {
      const batches = () =>
        db
          .prepare(
            "SELECT rtrim(BCHSOURC) AS source, SERIES AS series, NUMOFTRX AS count FROM SY00500 WHERE BACHNUMB = 'SHARED-ID      ' ORDER BY 1",
          )
          .all();
      assert.deepEqual(batches(), [
        { source: 'GL_Normal', series: 2, count: 1 },
        { source: 'Sales Entry', series: 3, count: 1 },
      ]);
      // GP marks a batch being posted; a document cannot join it then.
      db.prepare("UPDATE SY00500 SET MKDTOPST = 1 WHERE BACHNUMB = 'SHARED-ID      ' AND BCHSOURC = 'GL_Normal      '").run();
    } finally {
      db.close();
    }
    const posting = await refusal(t.writes.write(op('gl-entries', body)));
    assert.deepEqual((posting.details as { issues: unknown[] }).issues, [
      { path: 'batchId', message: 'the batch is being posted or is marked to post; use another batch id' },
    ]);
    // The sales batch of the same id is not being posted: orders still go into it.
    assert.equal((await t.writes.write(op('sales-orders', { ...SALES_ORDER, batchId: 'SHARED-ID' }))).outcome, 'created');
  });

  test('the embedded encoding holds every amount the body schema admits; past it, a 400 naming the field, never a RangeError', async () => {
    const rich = await t.writes.write(op('customers', { ...CUSTOMER, id: 'APIMAX0001', creditLimit: MAX_WRITE_AMOUNT }));
    assert.equal((JSON.parse(rich.payload!) as { creditLimit: string }).creditLimit, MAX_WRITE_AMOUNT);
    const past = await refusal(t.writes.write(op('customers', { ...CUSTOMER, id: 'APIMAX0002', creditLimit: '99999999999999.99999' })));
    assert.deepEqual(
      [past.code, (past.details as { issues: { path: string }[] }).issues.map((i) => i.path)],
      ['VALIDATION_ERROR', ['creditLimit']],
    );
    const order = {
      ...SALES_ORDER,
      batchId: 'API-MAX',
      freightAmount: undefined,
      lines: [{ ...SALES_ORDER.lines[0]!, quantity: '1', unitPrice: MAX_WRITE_AMOUNT }],
    };
    const written = JSON.parse((await t.writes.write(op('sales-orders', order))).payload!) as { total: string };
    assert.equal(written.total, MAX_WRITE_AMOUNT);
    const before = fingerprint(t.dir);
    const full = await refusal(t.writes.write(op('sales-orders', { ...order, lines: [{ ...order.lines[0]!, unitPrice: '0.00001' }] })));
    assert.deepEqual((full.details as { issues: unknown[] }).issues, [
      { path: 'batchId', message: `the batch's total would be more than ${MAX_WRITE_AMOUNT}; use another batch id` },
    ]);
    assert.equal(fingerprint(t.dir), before, 'nothing of the refused order was written');
    const entry = await t.writes.write(
      op('gl-entries', {
        reference: 'largest',
        date: '2026-11-22',
        batchId: 'API-GL-MAX',
        lines: [
          { accountNumber: accounts[0]!, debit: MAX_WRITE_AMOUNT },
          { accountNumber: accounts[1]!, credit: MAX_WRITE_AMOUNT },
        ],
      }),
    );
    assert.equal((JSON.parse(entry.payload!) as { debit: string }[])[0]!.debit, MAX_WRITE_AMOUNT);
  });

  test('a record whose id exists is refused with ALREADY_EXISTS, never updated', async () => {
    const before = fingerprint(t.dir);
    const again = await refusal(t.writes.write(op('customers', { ...CUSTOMER, name: 'Changed' })));
    assert.equal(again.code, 'ALREADY_EXISTS');
    const existing = await refusal(t.writes.write(op('vendors', { id: vendors[1]!, name: 'x' })));
    assert.equal(existing.code, 'ALREADY_EXISTS');
    assert.equal(fingerprint(t.dir), before);
    assert.equal(((await t.get('customers', 'APITEST0001')) as { name: string }).name, CUSTOMER.name);
  });

  test('a body the protocol refuses is refused here too, each issue named', async () => {
    const bad = await refusal(t.writes.write(op('customers', { id: 'X', name: 'y', colour: 'red', creditLimit: '-1' })));
    assert.equal(bad.code, 'VALIDATION_ERROR');
    assert.deepEqual(
      (bad.details as { issues: { path: string }[] }).issues.map((i) => i.path),
      ['creditLimit', 'body'],
    );
  });
});

describe('exactly once: the journal', () => {
  test('the same operation id twice makes one document; the second answer is replayed, identical', async () => {
    const t = fresh();
    try {
      const write = op('customers', { ...CUSTOMER, id: 'ONCE' });
      const first = await t.writes.write(write);
      const before = fingerprint(t.dir);
      const second = await t.writes.write({ ...write, body: { ...write.body, name: 'another body' } });
      assert.equal(first.outcome, 'created');
      assert.equal(second.outcome, 'replayed');
      assert.equal(second.payload, first.payload);
      assert.equal(fingerprint(t.dir), before, 'nothing was written again');
      const outcome = await t.writes.outcome({ kind: 'outcome', company: 'TWO', operationId: write.operationId });
      assert.deepEqual(outcome, { outcome: 'replayed', payload: first.payload });
      const db = new Database(path.join(t.dir, 'TWO.sqlite'), { readonly: true });
      const row = db
        .prepare(`SELECT OBJECT_NAME, CREATED_ID, STATE, ANSWER FROM ${JOURNAL_TABLE} WHERE OPERATION_ID = ?`)
        .get(write.operationId);
      db.close();
      assert.deepEqual(row, { OBJECT_NAME: 'customers', CREATED_ID: 'ONCE', STATE: 'committed', ANSWER: first.payload });
    } finally {
      await t.close();
    }
  });

  test('the outcome of an unknown operation is not_executed, and that operation can then never commit', async () => {
    const t = fresh();
    try {
      const write = op('customers', { ...CUSTOMER, id: 'FENCED' });
      assert.deepEqual(await t.writes.outcome({ kind: 'outcome', company: 'TWO', operationId: write.operationId }), {
        outcome: 'not_executed',
        payload: null,
      });
      const late = await refusal(t.writes.write(write));
      assert.equal(late.code, 'IDEMPOTENCY_CONFLICT');
      assert.deepEqual(late.details, { operationId: write.operationId, outcome: 'not_executed' });
      await assert.rejects(t.get('customers', 'FENCED'), (error: AgentError) => error.code === 'NOT_FOUND');
      assert.deepEqual(await t.writes.outcome({ kind: 'outcome', company: 'TWO', operationId: write.operationId }), {
        outcome: 'not_executed',
        payload: null,
      });
    } finally {
      await t.close();
    }
  });

  test('validate-only runs every check, answers what would be created, and changes nothing', async () => {
    const t = fresh();
    try {
      const before = fingerprint(t.dir);
      const answer = await t.writes.write(op('sales-orders', SALES_ORDER, { validateOnly: true }));
      assert.equal(answer.outcome, 'validated');
      const order = SalesOrderSchema.parse(JSON.parse(answer.payload!));
      assert.equal(order.total, '202.48');
      const gl = await t.writes.write(
        op(
          'gl-entries',
          {
            reference: 'v',
            date: '2026-11-22',
            batchId: 'V',
            lines: [
              { accountNumber: '000-1100-00', debit: '5' },
              { accountNumber: '000-1110-00', credit: '5' },
            ],
          },
          { validateOnly: true },
        ),
      );
      assert.equal(gl.outcome, 'validated');
      const ids = new Database(path.join(t.dir, 'TWO.sqlite'), { readonly: true });
      const customerId = String(ids.prepare('SELECT rtrim(CUSTNMBR) FROM RM00101 WHERE INACTIVE = 0').pluck().get());
      const vendorId = String(ids.prepare('SELECT rtrim(VENDORID) FROM PM00200 WHERE VENDSTTS = 1').pluck().get());
      ids.close();
      const ar = await t.writes.write(
        op(
          'ar-invoices',
          { customerId, date: '2026-11-21', salesAmount: '10', freightAmount: '1', batchId: 'V-RM' },
          { validateOnly: true },
        ),
      );
      assert.equal(ar.outcome, 'validated');
      const ap = await t.writes.write(
        op(
          'ap-invoices',
          { vendorId, vendorDocumentNumber: 'V-1', date: '2026-11-21', purchasesAmount: '10', batchId: 'V-PM' },
          { validateOnly: true },
        ),
      );
      assert.equal(ap.outcome, 'validated');
      const refused = await refusal(
        t.writes.write(op('customers', { id: 'X', name: 'x', paymentTermsId: 'nope' }, { validateOnly: true })),
      );
      assert.equal(refused.code, 'VALIDATION_ERROR');
      assert.equal(fingerprint(t.dir), before, 'not a byte changed, journal table included');
    } finally {
      await t.close();
    }
  });

  test('with writes off, writes and outcomes are refused with the words the gateway shows', async () => {
    const t = fresh({ allowWrites: false });
    try {
      const off = await refusal(t.writes.write(op('customers', CUSTOMER)));
      assert.deepEqual([off.code, off.message], ['FORBIDDEN', WRITES_OFF_MESSAGE]);
      const outcome = await refusal(t.writes.outcome({ kind: 'outcome', company: 'TWO', operationId: opId() }));
      assert.equal(outcome.code, 'FORBIDDEN');
    } finally {
      await t.close();
    }
  });

  test('the sandbox, read-only, answers validate-only writes with every check and refuses the rest', async () => {
    const t = fresh({ readonly: true, allowWrites: false });
    try {
      const before = fingerprint(t.dir);
      const answer = await t.writes.write(op('customers', CUSTOMER, { validateOnly: true }));
      assert.equal(answer.outcome, 'validated');
      assert.equal((JSON.parse(answer.payload!) as { id: string }).id, 'APITEST0001');
      const broken = await refusal(t.writes.write(op('customers', { ...CUSTOMER, paymentTermsId: 'nope' }, { validateOnly: true })));
      assert.equal(broken.code, 'VALIDATION_ERROR');
      const real = await refusal(t.writes.write(op('customers', CUSTOMER)));
      assert.deepEqual([real.code, real.message], ['FORBIDDEN', WRITES_OFF_MESSAGE]);
      assert.equal(fingerprint(t.dir), before);
    } finally {
      await t.close();
    }
  });
});
