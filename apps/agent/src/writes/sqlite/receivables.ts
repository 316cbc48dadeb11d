import { Decimal } from 'decimal.js';
import { padChar } from '@gp-gateway/gp-schema';
import { AR_DISTRIBUTION_TYPES, AR_DOCUMENT_TYPES, codeOf, type WriteBody } from '@gp-gateway/protocol';
import { unpostedArInvoices } from '../../catalogue/resources/work.ts';
import { AgentError } from '../../service/agentError.ts';
import { receivableDistributions } from '../distributions.ts';
import { fieldColumns, headerOf } from '../fieldColumns.ts';
import { nextNumber } from '../numbers.ts';
import { preparedOnce } from '../preparedStatements.ts';
import { BATCHES } from '../references/describe.ts';
import { alreadyExists } from '../refusals.ts';
import { exists, find, insert } from '../sqliteRows.ts';
import { addToBatch, postingAccount } from './batches.ts';
import { bodyDistributions, NO_TAX, preview, today, type Db, type WriteContext, type Written } from './context.ts';

/** A receivables document and its distributions (taRMTransaction, taRMDistributionInsert). */
export function writeReceivable({ db, body, checks, dry, read }: WriteContext): Written {
  const withDefaults: WriteBody = { type: 'invoice', ...body };
  const type = codeOf(AR_DOCUMENT_TYPES, String(withDefaults.type))!;
  const customer = checks.row('customerId');
  const setup = find(db, 'RM40401', { RMDTYPAL: type }, 'DOCNUMBR');
  let number = body.documentNumber === undefined ? null : String(body.documentNumber);
  if (number !== null && receivableTaken(db, type, number))
    throw alreadyExists('ar-invoices', `a ${String(withDefaults.type)} ${number} already exists`);
  if (number === null) {
    if (!setup) throw new AgentError('VALIDATION_ERROR', 'GP has no numbering set up for this document type (RM40401)');
    number = String(setup.DOCNUMBR).trimEnd();
    while (receivableTaken(db, type, number)) number = nextNumber(number);
    if (!dry) preparedOnce(db, 'UPDATE RM40401 SET DOCNUMBR = ? WHERE RMDTYPAL = ?').run(padChar(nextNumber(number), 21), type);
  }
  const amount = new Decimal(String(body.salesAmount)).plus(String(body.freightAmount ?? '0'));
  const id = `${String(withDefaults.type)}:${number}`;
  const currency = String(body.currencyId ?? String(customer!.CURNCYID).trimEnd());
  if (dry)
    return preview(id, { ...headerOf(withDefaults), documentNumber: number, currencyId: currency, originalAmount: amount.toFixed(5) });
  insert(db, 'RM10301', {
    ...fieldColumns(unpostedArInvoices, { ...headerOf(withDefaults), documentNumber: number, currencyId: currency }),
    // The work table's own type numbering (taRMTransaction): 1→1, 3→2, … 8→7.
    DOCTYPE: type === 1 ? 1 : type - 1,
    RMDNUMWK: number.slice(0, 17),
    BCHSOURC: BATCHES.receivables.source,
    CUSTNAME: String(customer!.CUSTNAME).trimEnd(),
    PYMTRMID: String(customer!.PYMTRMID).trimEnd(),
    DOCAMNT: amount.toFixed(5),
    LSTEDTDT: today(),
  });
  // The body's own lines (taRMDistribution each, CREATEDIST 0), else those GP creates (taRMDistributionCreate).
  const distributions = body.lines
    ? bodyDistributions(body, checks, AR_DISTRIBUTION_TYPES)
    : receivableDistributions(type, {
        sales: new Decimal(String(body.salesAmount)),
        freight: new Decimal(String(body.freightAmount ?? '0')),
        tax: NO_TAX,
      }).map((line) => ({ ...line, account: postingAccount(db, line.setup), reference: '' }));
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
      DSTINDX: line.account,
      DEBITAMT: line.debit.toFixed(5),
      CRDTAMNT: line.credit.toFixed(5),
      CURNCYID: currency,
      DistRef: line.reference,
    }),
  );
  addToBatch(db, String(body.batchId), 'receivables', amount);
  return { id, readBack: () => read.one(unpostedArInvoices, [String(withDefaults.type), number!]) };
}

function receivableTaken(db: Db, type: number, number: string): boolean {
  return (
    exists(db, 'RM10301', { RMDTYPAL: type, DOCNUMBR: number }) ||
    exists(db, 'RM10301', { RMDTYPAL: type, RMDNUMWK: number.slice(0, 17) }) ||
    exists(db, 'RM20101', { RMDTYPAL: type, DOCNUMBR: number }) ||
    exists(db, 'RM30101', { RMDTYPAL: type, DOCNUMBR: number })
  );
}
