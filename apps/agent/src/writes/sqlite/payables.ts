import { Decimal } from 'decimal.js';
import { padChar } from '@gp-gateway/gp-schema';
import { AP_DISTRIBUTION_TYPES, AP_DOCUMENT_TYPES, codeOf, type WriteBody } from '@gp-gateway/protocol';
import { unpostedApInvoices } from '../../catalogue/resources/work.ts';
import { AgentError } from '../../service/agentError.ts';
import { payableDistributions } from '../distributions.ts';
import { fieldColumns, headerOf } from '../fieldColumns.ts';
import { nextNumber } from '../numbers.ts';
import { preparedOnce } from '../preparedStatements.ts';
import { BATCHES } from '../references/describe.ts';
import { alreadyExists } from '../refusals.ts';
import { exists, find, insert } from '../sqliteRows.ts';
import { addToBatch, postingAccount } from './batches.ts';
import { bodyDistributions, NO_TAX, preview, today, type Db, type WriteContext, type Written } from './context.ts';

/** A payables document and its distributions (taPMTransactionInsert, taPMDistributionInsert), numbered from PM40100. */
export function writePayable({ db, company, body, checks, dry, read }: WriteContext): Written {
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
  if (voucher !== null && voucherTaken(db, voucher)) throw alreadyExists('ap-invoices', `a voucher ${voucher} already exists`);
  if (voucher === null) {
    const setup = find(db, 'PM40100', { UNIQKEY: '1' }, 'NTVCHNUM');
    if (!setup) throw new AgentError('VALIDATION_ERROR', 'GP has no payables setup (PM40100)');
    voucher = String(setup.NTVCHNUM).trimEnd();
    while (voucherTaken(db, voucher)) voucher = nextNumber(voucher);
    if (!dry) preparedOnce(db, "UPDATE PM40100 SET NTVCHNUM = ? WHERE UNIQKEY = '1'").run(padChar(nextNumber(voucher), 17));
  }
  const amount = new Decimal(String(body.purchasesAmount));
  // taPMTransactionInsert writes the 1099 amount twice: TEN99AMNT and, as none of it is paid yet, UN1099AM.
  const ten99 = new Decimal(String(body.ten99Amount ?? '0')).toFixed(5);
  const id = `${String(withDefaults.type)}:${voucher}`;
  const currency = String(body.currencyId ?? String(vendor!.CURNCYID).trimEnd());
  if (dry)
    return preview(id, {
      ...headerOf(withDefaults),
      voucherNumber: voucher,
      currencyId: currency,
      originalAmount: amount.toFixed(5),
      ten99Amount: ten99,
    });
  insert(db, 'PM10000', {
    ...fieldColumns(unpostedApInvoices, { ...headerOf(withDefaults), voucherNumber: voucher, currencyId: currency }),
    VCHNUMWK: voucher,
    BCHSOURC: BATCHES.payables.source,
    SOURCDOC: 'PMTRX',
    PYMTRMID: String(vendor!.PYMTRMID).trimEnd(),
    DOCAMNT: amount.toFixed(5),
    CURTRXAM: amount.toFixed(5),
    TEN99AMNT: ten99,
    UN1099AM: ten99,
    PSTGDATE: String(body.date),
    MODIFDT: today(),
  });
  // The vendor's own accounts where it names them (PM00200), else the posting setup's.
  const own = find(db, 'PM00200', { VENDORID: vendorId }, 'PMAPINDX, PMPRCHIX')!;
  const ownAccount: Record<number, number> = { 2: Number(own.PMAPINDX), 6: Number(own.PMPRCHIX) };
  // The body's own lines (taPMDistribution each, CREATEDIST 0), else those GP creates (taPMDistributionCreate).
  const distributions = body.lines
    ? bodyDistributions(body, checks, AP_DISTRIBUTION_TYPES)
    : payableDistributions(type, { purchases: new Decimal(String(body.purchasesAmount)), tax: NO_TAX }).map((line) => ({
        ...line,
        account: ownAccount[line.type] || postingAccount(db, line.setup),
        reference: '',
      }));
  distributions.forEach((line, i) =>
    insert(db, 'PM10100', {
      VCHRNMBR: voucher!,
      // GP numbers distribution lines 16384 apart (taPMDistributionInsert).
      DSTSQNUM: (i + 1) * 16384,
      CNTRLTYP: 0,
      CRDTAMNT: line.credit.toFixed(5),
      DEBITAMT: line.debit.toFixed(5),
      DSTINDX: line.account,
      DISTTYPE: line.type,
      VENDORID: vendorId,
      INTERID: company,
      CURNCYID: currency,
      ICCURRID: currency,
      // eConnect's rate for a document in the functional currency.
      XCHGRATE: '1',
      DistRef: line.reference,
    }),
  );
  addToBatch(db, String(body.batchId), 'payables', amount);
  return { id, readBack: () => read.one(unpostedApInvoices, [String(withDefaults.type), voucher!]) };
}

function voucherTaken(db: Db, voucher: string): boolean {
  return (
    exists(db, 'PM10000', { VCHNUMWK: voucher }) ||
    exists(db, 'PM20000', { VCHRNMBR: voucher }) ||
    exists(db, 'PM30200', { VCHRNMBR: voucher })
  );
}
