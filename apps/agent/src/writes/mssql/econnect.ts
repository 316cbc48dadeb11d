import { Decimal } from 'decimal.js';
import { GP_TABLES, type GpTable } from '@gp-gateway/gp-schema';
import {
  AP_DISTRIBUTION_TYPES,
  AP_DOCUMENT_TYPES,
  AR_DISTRIBUTION_TYPES,
  AR_DOCUMENT_TYPES,
  codeOf,
  SALES_DOCUMENT_TYPES,
  WRITES,
  type WritableObjectName,
  type WriteBody,
} from '@gp-gateway/protocol';
import { CATALOGUE } from '../../catalogue/index.ts';
import { unpostedApInvoices, unpostedArInvoices, unpostedGlEntries } from '../../catalogue/resources/work.ts';
import type { ResourceDef } from '../../catalogue/types.ts';
import { fieldColumns, headerOf, type GpWriteValue } from '../fieldColumns.ts';
import { Calls, numberStep, peekStep, type TsqlBatch } from './econnectCalls.ts';

/**
 * A write on SQL Server as the eConnect procedures make it (gp-schema.md §16, docs/decisions.md#writes):
 * T-SQL that calls GP's own `ta*` procedures with typed parameters, never SQL built from values.
 *
 * 1. `numbers`: the document's number, taken by GP's own numbering procedure in a short
 *    transaction of its own, which the driver begins and commits (or rolls back when the batch's
 *    status row says GP refused); a number taken by a write that then fails is a gap, as in GP.
 *    `peek` is what a validate-only write uses instead: the next number as the numbering table
 *    shows it, read without a lock and without taking it.
 * 2. `main`: on the transaction's connection (the driver sends BEGIN TRAN): the journal checked for
 *    the operation id (a row there stops the write), the procedures lines first, each call's return
 *    value and `@O_iErrorState` checked, and one status row. No batch holds a transaction statement:
 *    the batch reports and the driver commits or rolls back, because a ROLLBACK inside the
 *    driver's sp_executesql raises error 266 on its way out and the status row is lost. XACT_ABORT
 *    stays OFF, as eConnect runs its procedures: they check `@@error` after each statement and turn a
 *    failure into GP's own error code, which XACT_ABORT ON would pre-empt by aborting the batch.
 *    The caller then reads the record back, inserts the journal row and commits, all in that
 *    transaction; any failure rolls everything back.
 */
export interface EconnectWrite {
  /** The number step, when the body names none: its status row holds the number and GP's error state. */
  numbers: TsqlBatch | null;
  /** With `numbers`: the next number as GP's numbering table shows it, read with no lock (validate-only). */
  peek: TsqlBatch | null;
  /** The calls; `@number` is the number the first step took (or the body's). */
  main(number: string | null): TsqlBatch;
}

const table = (name: keyof typeof GP_TABLES) => GP_TABLES[name] as GpTable;
/** eConnect's lengths of the body's fields (protocol writes.ts), by the column they are written to. */
function lengthsOf(object: WritableObjectName, def: ResourceDef, lines = false): Record<string, number> {
  const spec = WRITES[object] as {
    fields: Record<string, { maxLength?: number }>;
    extraFields?: Record<string, { maxLength?: number }>;
    lines?: { fields: Record<string, { maxLength?: number }> };
  };
  const fields = lines ? spec.lines!.fields : { ...spec.fields, ...spec.extraFields };
  const out: Record<string, number> = {};
  for (const [name, field] of Object.entries(fields)) {
    const read = def.fields[name];
    if (field.maxLength && read && 'column' in read) out[read.column] = field.maxLength;
  }
  return out;
}

/**
 * The eConnect calls of one write. `operationId` null leaves the journal check out (validate-only
 * on a database without the journal). Creates pass `@I_vUpdateIfExists = 0`: an existing id is
 * GP's error, never an update.
 */
export function econnectWrite(object: WritableObjectName, body: WriteBody, operationId: string | null, database: string): EconnectWrite {
  if (!/^[A-Za-z0-9_]{1,5}$/.test(database)) throw new Error(`not a GP company id: ${database}`);
  switch (object) {
    case 'customers': {
      const { creditLimit, ...rest } = body;
      return {
        numbers: null,
        peek: null,
        main: () => {
          const calls = new Calls(operationId, database);
          const values: Record<string, GpWriteValue | null> = fieldColumns(CATALOGUE.customers, rest);
          values.CRLMTTYP = creditLimit === undefined ? 0 : 2;
          if (creditLimit !== undefined) values.CRLMTAMT = String(creditLimit);
          calls.call('taUpdateCreateCustomerRcd', table('RM00101'), values, lengthsOf(object, CATALOGUE.customers), { UpdateIfExists: 0 });
          return calls.batch();
        },
      };
    }
    case 'vendors':
      return {
        numbers: null,
        peek: null,
        main: () => {
          const calls = new Calls(operationId, database);
          calls.call(
            'taUpdateCreateVendorRcd',
            table('PM00200'),
            fieldColumns(CATALOGUE.vendors, { status: 'active', ...body }),
            lengthsOf(object, CATALOGUE.vendors),
            {
              UpdateIfExists: 0,
            },
          );
          return calls.batch();
        },
      };
    case 'customer-addresses':
    case 'vendor-addresses': {
      const [proc, name] =
        object === 'customer-addresses'
          ? (['taCreateCustomerAddress', 'RM00102'] as const)
          : (['taCreateVendorAddress', 'PM00300'] as const);
      return {
        numbers: null,
        peek: null,
        main: () => {
          const calls = new Calls(operationId, database);
          calls.call(proc, table(name), fieldColumns(CATALOGUE[object], body), lengthsOf(object, CATALOGUE[object]), { UpdateIfExists: 0 });
          return calls.batch();
        },
      };
    }
    case 'sales-orders': {
      const typeName = String(body.type ?? 'order');
      const type = codeOf(SALES_DOCUMENT_TYPES, typeName)!;
      const numbers =
        body.number === undefined
          ? numberStep(
              database,
              'taGetSopNumber',
              '@I_tSOPTYPE = @p0, @I_cDOCID = @p1, @I_tInc_Dec = 1, @O_vSopNumber = @O_vSopNumber OUTPUT',
              '@O_vSopNumber',
              [
                { name: 'p0', type: 'tinyint', value: type },
                { name: 'p1', type: 'char(15)', value: String(body.docTypeId) },
              ],
              "@O_vSopNumber varchar(21) = ''",
            )
          : null;
      // taGetSopNumber numbers fulfillment orders (6) as invoices (3), from the id's SOP40200 row, else the type's SOP40300 row.
      const peek =
        numbers &&
        peekStep(
          `SELECT COALESCE(NULLIF((SELECT TOP (1) RTRIM([SOPNUMBE]) FROM [${database}].[dbo].[SOP40200] WITH (NOLOCK) WHERE [SOPTYPE] = @p0 AND [DOCID] = @p1), ''), ` +
            `(SELECT TOP (1) RTRIM([SOPNUMBE]) FROM [${database}].[dbo].[SOP40300] WITH (NOLOCK) WHERE [SOPTYPE] = @p0))`,
          [
            { name: 'p0', type: 'tinyint', value: type === 6 ? 3 : type },
            { name: 'p1', type: 'char(15)', value: String(body.docTypeId) },
          ],
        );
      return {
        numbers,
        peek,
        main: (taken) => {
          const number = taken ?? String(body.number);
          const calls = new Calls(operationId, database);
          const lines = body.lines!;
          for (const line of lines) {
            // Lines before the header: taSopHdrIvcInsert reads and sums them.
            calls.call(
              'taSopLineIvcInsert',
              table('SOP10200'),
              {
                SOPTYPE: type,
                SOPNUMBE: number,
                CUSTNMBR: String(body.customerId),
                DOCDATE: String(body.date),
                LOCNCODE: (line.siteId ?? body.siteId ?? null) as string | null,
                ITEMNMBR: String(line.itemId),
                ITEMDESC: (line.description ?? null) as string | null,
                QUANTITY: String(line.quantity),
                UNITPRCE: String(line.unitPrice),
                // Absent, GP takes the item's selling unit and the customer's (else the setup's, else the
                // item's) price level, and checks either against IV40202, IV40800 and IV00108 (5313, 928, 9177).
                UOFM: (line.unitOfMeasure ?? null) as string | null,
                PRCLEVEL: (line.priceLevel ?? null) as string | null,
                DOCID: String(body.docTypeId),
                // A return's quantity goes back to stock on hand: taSopLineIvcInsert refuses a return line
                // of an inventoried item whose five buckets (on hand, returned, in use, in service,
                // damaged) do not add up to its quantity (error 183) when Inventory is registered.
                ...(type === 4 && { QTYONHND: String(line.quantity) }),
              },
              { ITEMNMBR: 30, ITEMDESC: 100, LOCNCODE: 10, SOPNUMBE: 21, CUSTNMBR: 15, DOCID: 15, UOFM: 8, PRCLEVEL: 10 },
              // GP computes the extended price, rounded to the document currency's decimals
              // (round(QUANTITY * UNITPRCE, @EDITDECPLCUR)); one the agent computed to 5 decimals was
              // refused with 4647 whenever it had more (1.5 × 19.99 = 29.985).
              { DEFEXTPRICE: 1 },
            );
          }
          const header = fieldColumns(CATALOGUE['sales-orders'], { ...headerOf(body), type: typeName, number });
          // eConnect names the header's freight FREIGHT (the column is FRTAMNT).
          const { FRTAMNT, ...rest } = header;
          calls.call(
            'taSopHdrIvcInsert',
            table('SOP10100'),
            { ...rest, ...(FRTAMNT !== undefined && { FREIGHT: FRTAMNT }) },
            { ...lengthsOf(object, CATALOGUE['sales-orders']), SOPNUMBE: 21 },
            // The header's subtotal is the sum of the lines GP inserted and its total GP's sum too
            // (DEFPRICING = 1): a subtotal other than the lines' sum is error 67. The tax is GP's
            // own: CREATETAXES = 1 runs its tax engine (taSopTaxEngine) on the lines, with the tax
            // schedule of the customer's ship-to address (DEFTAXSCHDS = 1), and adds the tax to the
            // document amount (docs/decisions.md#tax-from-the-customers-schedule).
            { UpdateExisting: 0, DEFPRICING: 1, CREATETAXES: 1, DEFTAXSCHDS: 1 },
          );
          return calls.batch();
        },
      };
    }
    case 'ar-invoices': {
      const typeName = String(body.type ?? 'invoice');
      const type = codeOf(AR_DOCUMENT_TYPES, typeName)!;
      // GP's own receivables numbering: taGetPaymentNumber returns RM40401's number for the type and
      // stores the next one, skipping numbers RM00401 already holds (docs/decisions.md#numbers-as-gp-takes-them).
      const numbers =
        body.documentNumber === undefined
          ? numberStep(
              database,
              'taGetPaymentNumber',
              '@I_vDOCTYPE = @p0, @I_vInc_Dec = 1, @O_vDOCNumber = @O_vDOCNumber OUTPUT',
              '@O_vDOCNumber',
              [{ name: 'p0', type: 'tinyint', value: type }],
              "@O_vDOCNumber varchar(21) = ''",
            )
          : null;
      const peek =
        numbers &&
        peekStep(`SELECT TOP (1) [DOCNUMBR] FROM [${database}].[dbo].[RM40401] WITH (NOLOCK) WHERE [RMDTYPAL] = @p0`, [
          { name: 'p0', type: 'smallint', value: type },
        ]);
      return {
        numbers,
        peek,
        main: (taken) => {
          const number = taken ?? String(body.documentNumber);
          const calls = new Calls(operationId, database);
          const amount = new Decimal(String(body.salesAmount)).plus(String(body.freightAmount ?? '0'));
          const values = fieldColumns(unpostedArInvoices, { ...headerOf(body), type: typeName, documentNumber: number });
          // The body's own distributions, each through taRMDistribution before the document (which then
          // updates them), with the account by its number; GP creates none of its own then (CREATEDIST 0).
          for (const line of body.lines ?? []) {
            calls.call(
              'taRMDistribution',
              table('RM10101'),
              {
                RMDTYPAL: type,
                DOCNUMBR: number,
                CUSTNMBR: String(body.customerId),
                DISTTYPE: codeOf(AR_DISTRIBUTION_TYPES, String(line.type))!,
                ACTNUMST: String(line.accountNumber),
                DEBITAMT: String(line.debit ?? '0'),
                CRDTAMNT: String(line.credit ?? '0'),
                DistRef: (line.reference ?? null) as string | null,
              },
              { DOCNUMBR: 20, ACTNUMST: 75, DistRef: 30 },
            );
          }
          calls.call(
            'taRMTransaction',
            table('RM10301'),
            { ...values, DOCAMNT: amount.toFixed(5) },
            { ...lengthsOf(object, unpostedArInvoices), DOCNUMBR: 20 },
            body.lines ? { CREATEDIST: 0 } : {},
          );
          return calls.batch();
        },
      };
    }
    case 'ap-invoices': {
      const typeName = String(body.type ?? 'invoice');
      const type = codeOf(AP_DOCUMENT_TYPES, typeName)!;
      const numbers =
        body.voucherNumber === undefined
          ? numberStep(
              database,
              'taGetPMNextVoucherNumber',
              '@O_vCNTRLNUM = @O_vCNTRLNUM OUTPUT, @I_sCNTRLTYP = 0',
              '@O_vCNTRLNUM',
              [],
              "@O_vCNTRLNUM varchar(21) = ''",
            )
          : null;
      const peek = numbers && peekStep(`SELECT TOP (1) [NTVCHNUM] FROM [${database}].[dbo].[PM40100] WITH (NOLOCK)`, []);
      return {
        numbers,
        peek,
        main: (taken) => {
          const voucher = taken ?? String(body.voucherNumber);
          const calls = new Calls(operationId, database);
          const amount = new Decimal(String(body.purchasesAmount));
          const values = fieldColumns(unpostedApInvoices, { ...headerOf(body), type: typeName, voucherNumber: voucher });
          // The body's own distributions, each through taPMDistribution before the document, with the
          // account by its number; GP creates none of its own then (CREATEDIST 0).
          for (const line of body.lines ?? []) {
            calls.call(
              'taPMDistribution',
              table('PM10100'),
              {
                DOCTYPE: type,
                VCHRNMBR: voucher,
                VENDORID: String(body.vendorId),
                DISTTYPE: codeOf(AP_DISTRIBUTION_TYPES, String(line.type))!,
                ACTNUMST: String(line.accountNumber),
                DEBITAMT: String(line.debit ?? '0'),
                CRDTAMNT: String(line.credit ?? '0'),
                DistRef: (line.reference ?? null) as string | null,
              },
              { VCHRNMBR: 17, ACTNUMST: 75, DistRef: 30 },
            );
          }
          calls.call(
            'taPMTransactionInsert',
            table('PM10000'),
            // CHRGAMNT, the amount left to pay, must be DOCAMNT less what was paid with the document
            // (nothing, here): taPMTransactionInsert refuses anything else (error 399), and its default is 0.
            { ...values, DOCTYPE: type, DOCAMNT: amount.toFixed(5), CHRGAMNT: amount.toFixed(5) },
            { ...lengthsOf(object, unpostedApInvoices), VCHRNMBR: 17 },
            body.lines ? { CREATEDIST: 0 } : {},
          );
          return calls.batch();
        },
      };
    }
    case 'gl-entries': {
      const numbers = numberStep(
        database,
        'taGetNextJournalEntry',
        '@I_vInc_Dec = 1, @O_vJournalEntryNumber = @O_vJournalEntryNumber OUTPUT',
        '@O_vJournalEntryNumber',
        [],
        "@O_vJournalEntryNumber char(13) = ''",
      );
      const peek = peekStep(`SELECT TOP (1) [NJRNLENT] FROM [${database}].[dbo].[GL40000] WITH (NOLOCK)`, []);
      return {
        numbers,
        peek,
        main: (taken) => {
          const entry = Number(taken);
          const calls = new Calls(operationId, database);
          for (const line of body.lines!) {
            calls.call(
              'taGLTransactionLineInsert',
              table('GL10001'),
              {
                BACHNUMB: String(body.batchId),
                JRNENTRY: entry,
                ...fieldColumns(unpostedGlEntries, line),
                DEBITAMT: String(line.debit ?? '0'),
                CRDTAMNT: String(line.credit ?? '0'),
                // The account by its number as GP shows it; eConnect finds its index.
                ACTNUMST: String(line.accountNumber),
              },
              { BACHNUMB: 15, DSCRIPTN: 30, ACTNUMST: 75 },
            );
          }
          calls.call(
            'taGLTransactionHeaderInsert',
            table('GL10000'),
            {
              BACHNUMB: String(body.batchId),
              JRNENTRY: entry,
              ...fieldColumns(unpostedGlEntries, headerOf(body), 'h'),
              TRXTYPE: 0,
            },
            { BACHNUMB: 15, REFRENCE: 30, SOURCDOC: 11 },
          );
          return calls.batch();
        },
      };
    }
  }
}
