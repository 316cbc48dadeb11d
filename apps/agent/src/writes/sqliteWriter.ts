import type Database from 'better-sqlite3';
import { Decimal } from 'decimal.js';
import { gpDate, padChar, scaledTextToDecimalString, toScaled } from '@gp-gateway/gp-schema';
import {
  AP_DOCUMENT_TYPES,
  AR_DOCUMENT_TYPES,
  codeOf,
  fitsNumeric,
  MAX_WRITE_AMOUNT,
  SALES_DOCUMENT_TYPES,
  type WritableObjectName,
  type WriteBody,
} from '@gp-gateway/protocol';
import { CATALOGUE } from '../catalogue/index.ts';
import { PreparedResource } from '../catalogue/compile.ts';
import { unpostedApInvoices, unpostedArInvoices, unpostedGlEntries } from '../catalogue/resources/work.ts';
import type { ResourceDef } from '../catalogue/types.ts';
import { SqliteDatabases } from '../db/sqliteDatabases.ts';
import { SqliteExecutor } from '../db/sqliteExecutor.ts';
import { renderSelect } from '../sql/render.ts';
import { AgentError } from '../service/agentError.ts';
import { payableDistributions, receivableDistributions } from './distributions.ts';
import { fieldColumns, headerOf } from './fieldColumns.ts';
import { JOURNAL_TABLE, replayFromJournal, SQLITE_JOURNAL_DDL, type JournalRow } from './journal.ts';
import { nextNumber } from './numbers.ts';
import { BATCHES, type BatchKind, type Resolved } from './references/describe.ts';
import { checkReferencesSqlite } from './references/sqlite.ts';
import { preparedOnce } from './preparedStatements.ts';
import { exists, find, insert } from './sqliteRows.ts';
import { alreadyExists, WriteRefusal } from './refusals.ts';

/**
 * Writes on the embedded database, the way eConnect writes GP's tables (docs/decisions.md#writes):
 * references checked, the next number taken from GP's numbering table, the document's rows, its
 * batch, and the journal row, all in one transaction. SQLite has one writer, so every write here
 * runs on one connection per company, synchronously, in `BEGIN IMMEDIATE` (which takes the write
 * lock at once, so no read inside the transaction is ever stale). A read-only database (the
 * sandbox) runs the checks and writes nothing.
 */
export interface SqliteWriterOptions {
  dir: string;
  /** The sandbox: checks only; validate-only is all it answers. */
  readonly: boolean;
}

/** What a write did: its outcome, the answer JSON, and the id it created. */
export interface WriteDone {
  outcome: 'created' | 'validated' | 'replayed' | 'not_executed';
  answer: string | null;
}

/** A write a checked body describes, as the writer runs it. */
export interface WriteRequest {
  object: WritableObjectName;
  company: string;
  operationId: string;
  body: WriteBody;
  validateOnly: boolean;
}

/** How each writable object is written: its checks, its rows and how it reads back. */
interface Written {
  /** The id the journal records (the API's id, or the journal entry number). */
  id: string;
  /** The created record as a GET answers it (gl-entries: the array of the entry's lines). */
  readBack(): string;
}

type Db = Database.Database;

/** v1 writes carry no tax (GP takes a tax amount only with tax detail lines: the protocol's NOT_WRITTEN). */
const NO_TAX = new Decimal(0);

/** Local date, as eConnect's `convert(varchar(12), getdate())` sets CREATDDT and MODIFDT. */
function today(): string {
  const now = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

export class SqliteWriter {
  private readonly databases: SqliteDatabases;
  private readonly executor: SqliteExecutor;
  private readonly readonly: boolean;
  private readonly resources = new Map<ResourceDef, PreparedResource>();

  constructor(options: SqliteWriterOptions) {
    this.readonly = options.readonly;
    this.databases = new SqliteDatabases({ dir: options.dir, readonly: options.readonly });
    this.executor = new SqliteExecutor({ dir: options.dir }, this.databases);
  }

  /** The companies SY01500 lists, upper-cased: a company id is never used unchecked. */
  private checkCompany(company: string): string {
    const id = company.toUpperCase();
    const row = preparedOnce(this.databases.database('DYNAMICS'), 'SELECT 1 FROM SY01500 WHERE INTERID = ?').get(padChar(id, 5));
    if (!row) throw new AgentError('VALIDATION_ERROR', 'unknown company');
    return id;
  }

  private journalOf(db: Db, operationId: string): JournalRow | null {
    // Created inside the write's transaction: a validate-only write, rolled back, leaves not even the
    // table behind. Looked for first: parsing the DDL on every write cost more than the look-up.
    const exists = () => preparedOnce(db, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(JOURNAL_TABLE);
    if (!exists()) {
      if (this.readonly) return null;
      db.exec(SQLITE_JOURNAL_DDL);
    }
    const row = preparedOnce(db, `SELECT STATE, OBJECT_NAME, CREATED_ID, ANSWER FROM ${JOURNAL_TABLE} WHERE OPERATION_ID = ?`).get(
      operationId,
    ) as { STATE: JournalRow['state']; OBJECT_NAME: string; CREATED_ID: string | null; ANSWER: string | null } | undefined;
    return row ? { state: row.STATE, object: row.OBJECT_NAME, createdId: row.CREATED_ID, answer: row.ANSWER } : null;
  }

  /** Runs `work` in one `BEGIN IMMEDIATE` transaction, committed only when it says so. */
  private transaction<T>(db: Db, work: () => { result: T; commit: boolean }): T {
    db.exec('BEGIN IMMEDIATE');
    let done = false;
    try {
      const { result, commit } = work();
      db.exec(commit ? 'COMMIT' : 'ROLLBACK');
      done = true;
      return result;
    } finally {
      if (!done && db.inTransaction) db.exec('ROLLBACK');
    }
  }

  /**
   * One write: the journal first (a known operation id answers what it answered the first time),
   * then every check, the rows, the read-back and the journal row, committed together; validate-only
   * rolls it all back. `afterCommit` runs right after COMMIT (the test-only fault hook).
   */
  write(request: WriteRequest, afterCommit?: () => void): WriteDone {
    const company = this.checkCompany(request.company);
    const db = this.databases.database(company);
    if (this.readonly && !request.validateOnly)
      throw new AgentError('FORBIDDEN', 'this database is read-only: only validate-only writes are answered here');
    const done = this.readonly
      ? this.checkOnly(db, company, request)
      : this.transaction(db, () => {
          const known = this.journalOf(db, request.operationId);
          if (known) return { result: replayFromJournal(known, request.operationId), commit: false };
          const written = this.writeRows(db, company, request);
          const answer = written.readBack();
          if (request.validateOnly) return { result: { outcome: 'validated', answer } satisfies WriteDone, commit: false };
          preparedOnce(
            db,
            `INSERT INTO ${JOURNAL_TABLE} (OPERATION_ID, OBJECT_NAME, CREATED_ID, STATE, ANSWER, RECORDED_AT) VALUES (?, ?, ?, 'committed', ?, ?)`,
          ).run(request.operationId, request.object, written.id, answer, new Date().toISOString());
          return { result: { outcome: 'created', answer } satisfies WriteDone, commit: true };
        });
    if (done.outcome === 'created') afterCommit?.();
    return done;
  }

  /**
   * What became of an operation: its journal row's answer, or, when there is none, a row that marks
   * it abandoned, inserted now: the write, should it still be running somewhere, then fails on the
   * primary key and can never commit.
   */
  outcome(companyId: string, operationId: string): WriteDone {
    const company = this.checkCompany(companyId);
    const db = this.databases.database(company);
    const settled = (known: JournalRow): WriteDone =>
      known.state === 'committed' ? { outcome: 'replayed', answer: known.answer } : { outcome: 'not_executed', answer: null };
    if (this.readonly) {
      const known = this.journalOf(db, operationId);
      return known ? settled(known) : { outcome: 'not_executed', answer: null };
    }
    return this.transaction(db, () => {
      const known = this.journalOf(db, operationId);
      if (known) return { result: settled(known), commit: false };
      preparedOnce(
        db,
        `INSERT INTO ${JOURNAL_TABLE} (OPERATION_ID, OBJECT_NAME, CREATED_ID, STATE, ANSWER, RECORDED_AT) VALUES (?, '', NULL, 'abandoned', NULL, ?)`,
      ).run(operationId, new Date().toISOString());
      return { result: { outcome: 'not_executed', answer: null } satisfies WriteDone, commit: true };
    });
  }

  /** The sandbox's validate-only: every check in a read-only transaction; nothing is written or read back. */
  private checkOnly(db: Db, company: string, request: WriteRequest): WriteDone {
    const preview = this.transactionReadOnly(db, () => this.writeRows(db, company, request, { dryRun: true }));
    return { outcome: 'validated', answer: preview.readBack() };
  }

  private transactionReadOnly<T>(db: Db, work: () => T): T {
    db.exec('BEGIN');
    try {
      return work();
    } finally {
      db.exec('ROLLBACK');
    }
  }

  private prepared(def: ResourceDef): PreparedResource {
    let resource = this.resources.get(def);
    if (!resource) {
      resource = new PreparedResource(def, this.executor.dialect);
      this.resources.set(def, resource);
    }
    return resource;
  }

  /** The record with these id parts, as a GET answers it, read on the writer's connection (inside its transaction). */
  private readOne(def: ResourceDef, company: string, parts: string[]): string {
    const resource = this.prepared(def);
    for (const query of resource.getQueries(company, parts)) {
      const [row] = this.databases.run(
        company,
        renderSelect(query, this.executor.dialect).sql,
        renderSelect(query, this.executor.dialect).params,
      );
      if (row) return resource.encode(row);
    }
    throw new Error(`${def.object} ${parts.join(':')} was written but cannot be read back`);
  }

  /** The rows of one list query (a journal entry's lines), as a JSON array. */
  private readLines(def: ResourceDef, company: string, filters: Record<string, number>): string {
    const resource = this.prepared(def);
    const rows: string[] = [];
    for (const { query } of resource.listQueries(company, filters, 1000, null)) {
      const compiled = renderSelect(query, this.executor.dialect);
      for (const row of this.databases.run(company, compiled.sql, compiled.params)) rows.push(resource.encode(row));
    }
    return `[${rows.join(',')}]`;
  }

  private writeRows(db: Db, company: string, request: WriteRequest, options: { dryRun?: boolean } = {}): Written {
    // Every reference is checked before any row is written (references/describe.ts).
    const checks = checkReferencesSqlite(db, request.object, request.body);
    const dry = options.dryRun === true;
    const body = request.body;
    switch (request.object) {
      case 'customers':
        return this.customer(db, company, body, checks, dry);
      case 'customer-addresses':
        return this.address(db, company, body, checks, dry, 'customer');
      case 'vendors':
        return this.vendor(db, company, body, checks, dry);
      case 'vendor-addresses':
        return this.address(db, company, body, checks, dry, 'vendor');
      case 'sales-orders':
        return this.salesOrder(db, company, body, checks, dry);
      case 'ar-invoices':
        return this.receivable(db, company, body, checks, dry);
      case 'ap-invoices':
        return this.payable(db, company, body, checks, dry);
      case 'gl-entries':
        return this.journalEntry(db, company, body, checks, dry);
    }
  }

  private preview(object: WritableObjectName, id: string, record: Record<string, unknown>): Written {
    return { id, readBack: () => JSON.stringify(record) };
  }

  private customer(db: Db, company: string, input: WriteBody, checks: Resolved, dry: boolean): Written {
    const id = String(input.id);
    const body = { ...input };
    if (input.paymentTermsId !== undefined) body.paymentTermsId = checks.spelling('paymentTermsId');
    if (input.salespersonId !== undefined) body.salespersonId = checks.spelling('salespersonId');
    if (exists(db, 'RM00101', { CUSTNMBR: id })) throw alreadyExists('customers', `a customer ${id} already exists`);
    if (dry) return this.preview('customers', id, body);
    const { creditLimit, ...rest } = body;
    const row = fieldColumns(CATALOGUE.customers, rest);
    // The credit limit is a type and an amount (catalogue/resources/customers.ts): 0 none, 2 an amount.
    row.CRLMTTYP = creditLimit === undefined ? 0 : 2;
    if (creditLimit !== undefined) row.CRLMTAMT = String(creditLimit);
    row.CREATDDT = today();
    row.MODIFDT = today();
    insert(db, 'RM00101', row);
    insert(db, 'RM00103', { CUSTNMBR: id });
    return { id, readBack: () => this.readOne(CATALOGUE.customers, company, [id]) };
  }

  private vendor(db: Db, company: string, input: WriteBody, checks: Resolved, dry: boolean): Written {
    const id = String(input.id);
    const body = { ...input };
    if (input.paymentTermsId !== undefined) body.paymentTermsId = checks.spelling('paymentTermsId');
    if (exists(db, 'PM00200', { VENDORID: id })) throw alreadyExists('vendors', `a vendor ${id} already exists`);
    const withDefaults = { status: 'active', ...body };
    if (dry) return this.preview('vendors', id, withDefaults);
    const row = fieldColumns(CATALOGUE.vendors, withDefaults);
    row.CREATDDT = today();
    row.MODIFDT = today();
    insert(db, 'PM00200', row);
    return { id, readBack: () => this.readOne(CATALOGUE.vendors, company, [id]) };
  }

  private address(db: Db, company: string, body: WriteBody, checks: Resolved, dry: boolean, of: 'customer' | 'vendor'): Written {
    const object = of === 'customer' ? 'customer-addresses' : 'vendor-addresses';
    const [table, key, field] =
      of === 'customer' ? (['RM00102', 'CUSTNMBR', 'customerId'] as const) : (['PM00300', 'VENDORID', 'vendorId'] as const);
    const owner = String(body[field]);
    const code = String(body.code);
    if (exists(db, table, { [key]: owner, ADRSCODE: code }))
      throw alreadyExists(object, `the ${of} ${owner} already has an address ${code}`);
    if (dry) return this.preview(object, `${owner}:${code}`, body);
    const row = fieldColumns(CATALOGUE[object], body);
    insert(db, table, row);
    return { id: `${owner}:${code}`, readBack: () => this.readOne(CATALOGUE[object], company, [owner, code]) };
  }

  private salesOrder(db: Db, company: string, body: WriteBody, checks: Resolved, dry: boolean): Written {
    const typeName = String(body.type ?? 'order');
    const type = codeOf(SALES_DOCUMENT_TYPES, typeName)!;
    const docId = String(body.docTypeId);
    const customer = checks.row('customerId');
    const lines = body.lines!;
    const items = lines.map((_, i) => checks.row(`lines.${i}.itemId`));
    let number = body.number === undefined ? null : String(body.number);
    if (number !== null && this.salesNumberTaken(db, type, number))
      throw alreadyExists('sales-orders', `a ${typeName} ${number} already exists`);
    if (number === null) {
      // GP's error 3388: neither the id nor the type has a next number.
      number = this.takeSalesNumber(db, type, docId, dry);
      if (number === null)
        throw new AgentError('VALIDATION_ERROR', `GP has no next number set up for the ${typeName} document type id ${docId}`);
    }
    let subtotal = new Decimal(0);
    const lineRows = lines.map((line, i) => {
      const extended = new Decimal(String(line.quantity)).times(String(line.unitPrice)).toDecimalPlaces(5);
      subtotal = subtotal.plus(extended);
      return {
        SOPTYPE: type,
        SOPNUMBE: number!,
        // GP numbers lines 16384 apart, so that lines can be put between them.
        LNITMSEQ: (i + 1) * 16384,
        CMPNTSEQ: 0,
        ITEMNMBR: String(line.itemId),
        ITEMDESC: String(line.description ?? String(items[i]?.ITEMDESC ?? '').trimEnd()),
        QUANTITY: String(line.quantity),
        UNITPRCE: String(line.unitPrice),
        XTNDPRCE: extended.toFixed(5),
        LOCNCODE: String(line.siteId ?? body.siteId ?? ''),
      };
    });
    const total = subtotal.plus(String(body.freightAmount ?? '0'));
    const id = `${typeName}:${number}`;
    if (dry)
      return this.preview('sales-orders', id, { ...body, type: typeName, number, subtotal: subtotal.toFixed(5), total: total.toFixed(5) });
    // Lines before the header, as eConnect inserts them (taSopLineIvcInsert, then taSopHdrIvcInsert sums them).
    for (const line of lineRows) insert(db, 'SOP10200', line);
    const header = fieldColumns(CATALOGUE['sales-orders'], { ...headerOf(body), type: typeName, number });
    insert(db, 'SOP10100', {
      ...header,
      CUSTNAME: String(customer!.CUSTNAME).trimEnd(),
      CURNCYID: String(customer!.CURNCYID).trimEnd(),
      SUBTOTAL: subtotal.toFixed(5),
      DOCAMNT: total.toFixed(5),
    });
    this.addToBatch(db, String(body.batchId), 'sales', total);
    return { id, readBack: () => this.readOne(CATALOGUE['sales-orders'], company, [typeName, number!]) };
  }

  /**
   * The next number of a sales document, as taGetSopNumber takes it: the document type id's own
   * next number (SOP40200.SOPNUMBE); when that is blank and the id uses the invoice's numbering
   * (USNXTINV), the next number of the invoice id it names (USDOCID1); else the type's (SOP40300).
   * The first one no document of the type has is taken, and the one after it stored back: in the
   * type's row when the number came from there, else in the id's own row (so an id that used the
   * invoice's numbering once has its own from then on, as in GP). Fulfillment orders (6) are
   * numbered as invoices (3).
   */
  private takeSalesNumber(db: Db, type: number, docId: string, dry: boolean): string | null {
    const numbering = type === 6 ? 3 : type;
    const id = find(db, 'SOP40200', { SOPTYPE: numbering, DOCID: docId }, 'SOPNUMBE, USNXTINV, USDOCID1');
    let number = String(id?.SOPNUMBE ?? '').trimEnd();
    if (number === '' && Number(id?.USNXTINV) === 1) {
      const invoiceId = String(id!.USDOCID1).trimEnd();
      number = String(find(db, 'SOP40200', { SOPTYPE: 3, DOCID: invoiceId }, 'SOPNUMBE')?.SOPNUMBE ?? '').trimEnd();
    }
    const fromType = number === '';
    if (fromType) number = String(find(db, 'SOP40300', { SOPTYPE: numbering }, 'SOPNUMBE')?.SOPNUMBE ?? '').trimEnd();
    if (number === '') return null;
    while (this.salesNumberTaken(db, numbering, number)) number = nextNumber(number);
    if (dry) return number;
    const next = padChar(nextNumber(number), 21);
    if (fromType) preparedOnce(db, 'UPDATE SOP40300 SET SOPNUMBE = ? WHERE SOPTYPE = ?').run(next, numbering);
    else preparedOnce(db, 'UPDATE SOP40200 SET SOPNUMBE = ? WHERE SOPTYPE = ? AND DOCID = ?').run(next, numbering, padChar(docId, 15));
    return number;
  }

  private salesNumberTaken(db: Db, type: number, number: string): boolean {
    return exists(db, 'SOP10100', { SOPTYPE: type, SOPNUMBE: number }) || exists(db, 'SOP30200', { SOPTYPE: type, SOPNUMBE: number });
  }

  private receivable(db: Db, company: string, body: WriteBody, checks: Resolved, dry: boolean): Written {
    const withDefaults: WriteBody = { type: 'invoice', ...body };
    const type = codeOf(AR_DOCUMENT_TYPES, String(withDefaults.type))!;
    const customer = checks.row('customerId');
    const setup = find(db, 'RM40401', { RMDTYPAL: type }, 'DOCNUMBR');
    let number = body.documentNumber === undefined ? null : String(body.documentNumber);
    if (number !== null && this.receivableTaken(db, type, number))
      throw alreadyExists('ar-invoices', `a ${String(withDefaults.type)} ${number} already exists`);
    if (number === null) {
      if (!setup) throw new AgentError('VALIDATION_ERROR', 'GP has no numbering set up for this document type (RM40401)');
      number = String(setup.DOCNUMBR).trimEnd();
      while (this.receivableTaken(db, type, number)) number = nextNumber(number);
      if (!dry) preparedOnce(db, 'UPDATE RM40401 SET DOCNUMBR = ? WHERE RMDTYPAL = ?').run(padChar(nextNumber(number), 21), type);
    }
    const amount = new Decimal(String(body.salesAmount)).plus(String(body.freightAmount ?? '0'));
    const id = `${String(withDefaults.type)}:${number}`;
    const currency = String(body.currencyId ?? String(customer!.CURNCYID).trimEnd());
    if (dry)
      return this.preview('ar-invoices', id, {
        ...withDefaults,
        documentNumber: number,
        currencyId: currency,
        originalAmount: amount.toFixed(5),
      });
    insert(db, 'RM10301', {
      ...fieldColumns(unpostedArInvoices, { ...withDefaults, documentNumber: number, currencyId: currency }),
      // The work table's own type numbering (taRMTransaction): 1→1, 3→2, … 8→7.
      DOCTYPE: type === 1 ? 1 : type - 1,
      RMDNUMWK: number.slice(0, 17),
      BCHSOURC: BATCHES.receivables.source,
      CUSTNAME: String(customer!.CUSTNAME).trimEnd(),
      PYMTRMID: String(customer!.PYMTRMID).trimEnd(),
      DOCAMNT: amount.toFixed(5),
      LSTEDTDT: today(),
    });
    const distributions = receivableDistributions(type, {
      sales: new Decimal(String(body.salesAmount)),
      freight: new Decimal(String(body.freightAmount ?? '0')),
      tax: NO_TAX,
    });
    distributions.forEach((line, i) =>
      insert(db, 'RM10101', {
        // Unposted, as taRMDistributionInsert leaves a new document's lines: posting status 3, document status 1.
        PSTGSTUS: 3,
        DCSTATUS: 1,
        DOCNUMBR: number!,
        DISTTYPE: line.type,
        RMDTYPAL: type,
        // GP numbers distribution lines 16384 apart, like journal and sales lines.
        SEQNUMBR: (i + 1) * 16384,
        CUSTNMBR: String(body.customerId),
        // The customer names no accounts of its own here (RM00101 keeps none), so the posting setup's.
        DSTINDX: this.postingAccount(db, line.setup),
        DEBITAMT: line.debit.toFixed(5),
        CRDTAMNT: line.credit.toFixed(5),
        CURNCYID: currency,
      }),
    );
    this.addToBatch(db, String(body.batchId), 'receivables', amount);
    return { id, readBack: () => this.readOne(unpostedArInvoices, company, [String(withDefaults.type), number!]) };
  }

  private receivableTaken(db: Db, type: number, number: string): boolean {
    return (
      exists(db, 'RM10301', { RMDTYPAL: type, DOCNUMBR: number }) ||
      exists(db, 'RM10301', { RMDTYPAL: type, RMDNUMWK: number.slice(0, 17) }) ||
      exists(db, 'RM20101', { RMDTYPAL: type, DOCNUMBR: number }) ||
      exists(db, 'RM30101', { RMDTYPAL: type, DOCNUMBR: number })
    );
  }

  private payable(db: Db, company: string, body: WriteBody, checks: Resolved, dry: boolean): Written {
    const withDefaults: WriteBody = { type: 'invoice', ...body };
    const type = codeOf(AP_DOCUMENT_TYPES, String(withDefaults.type))!;
    const vendor = checks.row('vendorId');
    const vendorId = String(body.vendorId);
    const documentNumber = String(body.vendorDocumentNumber);
    if (
      exists(db, 'PM10000', { VENDORID: vendorId, DOCNUMBR: documentNumber }) ||
      exists(db, 'PM20000', { VENDORID: vendorId, DOCNUMBR: documentNumber, DOCTYPE: type }) ||
      exists(db, 'PM30200', { VENDORID: vendorId, DOCNUMBR: documentNumber, DOCTYPE: type })
    )
      throw alreadyExists('ap-invoices', `the vendor ${vendorId} already has a document ${documentNumber}`);
    let voucher = body.voucherNumber === undefined ? null : String(body.voucherNumber);
    if (voucher !== null && this.voucherTaken(db, voucher)) throw alreadyExists('ap-invoices', `a voucher ${voucher} already exists`);
    if (voucher === null) {
      const setup = find(db, 'PM40100', { UNIQKEY: '1' }, 'NTVCHNUM');
      if (!setup) throw new AgentError('VALIDATION_ERROR', 'GP has no payables setup (PM40100)');
      voucher = String(setup.NTVCHNUM).trimEnd();
      while (this.voucherTaken(db, voucher)) voucher = nextNumber(voucher);
      if (!dry) preparedOnce(db, "UPDATE PM40100 SET NTVCHNUM = ? WHERE UNIQKEY = '1'").run(padChar(nextNumber(voucher), 17));
    }
    const amount = new Decimal(String(body.purchasesAmount));
    const id = `${String(withDefaults.type)}:${voucher}`;
    const currency = String(body.currencyId ?? String(vendor!.CURNCYID).trimEnd());
    if (dry)
      return this.preview('ap-invoices', id, {
        ...withDefaults,
        voucherNumber: voucher,
        currencyId: currency,
        originalAmount: amount.toFixed(5),
      });
    insert(db, 'PM10000', {
      ...fieldColumns(unpostedApInvoices, { ...withDefaults, voucherNumber: voucher, currencyId: currency }),
      VCHNUMWK: voucher,
      BCHSOURC: BATCHES.payables.source,
      SOURCDOC: 'PMTRX',
      PYMTRMID: String(vendor!.PYMTRMID).trimEnd(),
      DOCAMNT: amount.toFixed(5),
      CURTRXAM: amount.toFixed(5),
      PSTGDATE: String(body.date),
      MODIFDT: today(),
    });
    // The vendor's own accounts where it names them (PM00200), else the posting setup's.
    const own = find(db, 'PM00200', { VENDORID: vendorId }, 'PMAPINDX, PMPRCHIX')!;
    const ownAccount: Record<number, number> = { 2: Number(own.PMAPINDX), 6: Number(own.PMPRCHIX) };
    const distributions = payableDistributions(type, {
      purchases: new Decimal(String(body.purchasesAmount)),
      tax: NO_TAX,
    });
    distributions.forEach((line, i) =>
      insert(db, 'PM10100', {
        VCHRNMBR: voucher!,
        // GP numbers distribution lines 16384 apart (taPMDistributionInsert).
        DSTSQNUM: (i + 1) * 16384,
        CNTRLTYP: 0,
        CRDTAMNT: line.credit.toFixed(5),
        DEBITAMT: line.debit.toFixed(5),
        DSTINDX: ownAccount[line.type] || this.postingAccount(db, line.setup),
        DISTTYPE: line.type,
        VENDORID: vendorId,
        INTERID: company,
        CURNCYID: currency,
        ICCURRID: currency,
        // eConnect's rate for a document in the functional currency.
        XCHGRATE: '1',
      }),
    );
    this.addToBatch(db, String(body.batchId), 'payables', amount);
    return { id, readBack: () => this.readOne(unpostedApInvoices, company, [String(withDefaults.type), voucher!]) };
  }

  private voucherTaken(db: Db, voucher: string): boolean {
    return (
      exists(db, 'PM10000', { VCHNUMWK: voucher }) ||
      exists(db, 'PM20000', { VCHRNMBR: voucher }) ||
      exists(db, 'PM30200', { VCHRNMBR: voucher })
    );
  }

  private journalEntry(db: Db, company: string, body: WriteBody, checks: Resolved, dry: boolean): Written {
    const lines = body.lines!;
    const accounts = lines.map((_, i) => {
      const account = checks.row(`lines.${i}.accountNumber`)!;
      return { index: Number(account.ACTINDX), type: Number(account.ACCTTYPE) };
    });
    const setup = find(db, 'GL40000', { UNIQKEY: '1' }, 'NJRNLENT');
    if (!setup) throw new AgentError('VALIDATION_ERROR', 'GP has no general ledger setup (GL40000)');
    let entry = Number(setup.NJRNLENT);
    while (
      exists(db, 'GL10000', { JRNENTRY: entry }) ||
      exists(db, 'GL20000', { JRNENTRY: entry }) ||
      exists(db, 'GL30000', { JRNENTRY: entry })
    )
      entry++;
    const total = lines.reduce((sum, line) => sum.plus(String(line.debit ?? '0')), new Decimal(0));
    if (dry) return this.preview('gl-entries', String(entry), { ...body, journalEntryNumber: entry });
    preparedOnce(db, "UPDATE GL40000 SET NJRNLENT = ? WHERE UNIQKEY = '1'").run(entry + 1);
    const batch = String(body.batchId);
    // Lines before the header, as eConnect inserts them.
    lines.forEach((line, i) => {
      const debit = String(line.debit ?? '0');
      const credit = String(line.credit ?? '0');
      insert(db, 'GL10001', {
        ...fieldColumns(unpostedGlEntries, line),
        BACHNUMB: batch,
        JRNENTRY: entry,
        // GP numbers lines 16384 apart, like sales lines.
        SQNCLINE: String((i + 1) * 16384),
        ACTINDX: accounts[i]!.index,
        ACCTTYPE: accounts[i]!.type,
        ORDBTAMT: debit,
        ORCRDAMT: credit,
      });
    });
    const year = Number(String(body.date).slice(0, 4));
    insert(db, 'GL10000', {
      ...fieldColumns(unpostedGlEntries, headerOf(body), 'h'),
      SOURCDOC: String(body.sourceDocument ?? 'GJ'),
      BACHNUMB: batch,
      BCHSOURC: BATCHES.ledger.source,
      JRNENTRY: entry,
      SERIES: BATCHES.ledger.series,
      TRXTYPE: 0,
      OPENYEAR: year,
      DOCDATE: String(body.date),
      LSTDTEDT: today(),
      Ledger_ID: 1,
    });
    this.addToBatch(db, batch, 'ledger', total);
    return { id: String(entry), readBack: () => this.readLines(unpostedGlEntries, company, { journalEntryNumber: entry }) };
  }

  /**
   * The account of a posting setup slot (SY01100), or 0 where none is set up: eConnect then writes
   * the distribution on account 0 too, and GP asks for an account before it posts.
   */
  private postingAccount(db: Db, { series, sequence }: { series: number; sequence: number }): number {
    const row = find(db, 'SY01100', { SERIES: series, SEQNUMBR: sequence }, 'ACTINDX');
    return row ? Number(row.ACTINDX) : 0;
  }

  /**
   * Counts the document into its batch, creating the batch as eConnect does when it does not exist
   * yet. The body's amounts fit numeric(19,5) (the protocol's fitsNumeric); a batch's running total
   * can pass it only through the documents already in it, and is then refused, naming the batch.
   */
  private addToBatch(db: Db, batch: string, kind: BatchKind, amount: Decimal): void {
    const { source, series } = BATCHES[kind];
    const held = find(db, 'SY00500', { BCHSOURC: source, BACHNUMB: batch }, 'CAST(BCHTOTAL AS TEXT) AS total');
    if (held && !fitsNumeric(new Decimal(scaledTextToDecimalString(String(held.total))).plus(amount)))
      throw new WriteRefusal([
        { path: 'batchId', message: `the batch's total would be more than ${MAX_WRITE_AMOUNT}; use another batch id` },
      ]);
    const updated = preparedOnce(
      db,
      'UPDATE SY00500 SET NUMOFTRX = NUMOFTRX + 1, BCHTOTAL = BCHTOTAL + ?, MODIFDT = ? WHERE BCHSOURC = ? AND BACHNUMB = ?',
    ).run(toScaled(amount.toFixed(5)), gpDate(today()), padChar(source, 15), padChar(batch, 15));
    if (updated.changes === 0)
      insert(db, 'SY00500', {
        BCHSOURC: source,
        BACHNUMB: batch,
        SERIES: series,
        NUMOFTRX: 1,
        BCHTOTAL: amount.toFixed(5),
        BACHDATE: today(),
        CREATDDT: today(),
        MODIFDT: today(),
        ORIGIN: 1,
      });
  }

  close(): void {
    this.databases.close();
  }
}
