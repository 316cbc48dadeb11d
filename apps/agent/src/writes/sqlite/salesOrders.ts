import { Decimal } from 'decimal.js';
import { padChar } from '@gp-gateway/gp-schema';
import { codeOf, SALES_DOCUMENT_TYPES } from '@gp-gateway/protocol';
import { CATALOGUE } from '../../catalogue/index.ts';
import { AgentError } from '../../service/agentError.ts';
import { fieldColumns, headerOf } from '../fieldColumns.ts';
import { nextNumber } from '../numbers.ts';
import { preparedOnce } from '../preparedStatements.ts';
import { alreadyExists } from '../refusals.ts';
import { exists, find, insert } from '../sqliteRows.ts';
import { addToBatch } from './batches.ts';
import { preview, type Db, type WriteContext, type Written } from './context.ts';
import { settleLinePricing } from './salesLinePricing.ts';

/** A sales document (taSopLineIvcInsert per line, then taSopHdrIvcInsert), numbered as taGetSopNumber numbers it. */
export function writeSalesOrder({ db, body, checks, dry, read }: WriteContext): Written {
  const typeName = String(body.type ?? 'order');
  const type = codeOf(SALES_DOCUMENT_TYPES, typeName)!;
  const docId = String(body.docTypeId);
  const customer = checks.row('customerId');
  const lines = body.lines!;
  const items = lines.map((_, i) => checks.row(`lines.${i}.itemId`));
  const currency = String(customer!.CURNCYID).trimEnd();
  // GP's unit and price level checks come before the number is taken, as the reference checks do.
  const pricing = settleLinePricing(db, body, currency);
  let number = body.number === undefined ? null : String(body.number);
  if (number !== null && salesNumberTaken(db, type, number)) throw alreadyExists('sales-orders', `a ${typeName} ${number} already exists`);
  if (number === null) {
    // GP's error 3388: neither the id nor the type has a next number.
    number = takeSalesNumber(db, type, docId, dry);
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
      ...pricing[i]!,
    };
  });
  // GP adds the tax its engine computes from the customer's schedule (econnect.ts: CREATETAXES); the
  // embedded database has no tax schedule details (TX00201), so there is none to add here.
  const total = subtotal.plus(String(body.freightAmount ?? '0'));
  const id = `${typeName}:${number}`;
  if (dry)
    return preview(id, {
      ...body,
      type: typeName,
      number,
      subtotal: subtotal.toFixed(5),
      total: total.toFixed(5),
      lines: lines.map((line, i) => ({ ...line, unitOfMeasure: pricing[i]!.UOFM, priceLevel: pricing[i]!.PRCLEVEL })),
    });
  // Lines before the header, as eConnect inserts them (taSopLineIvcInsert, then taSopHdrIvcInsert sums them).
  for (const line of lineRows) insert(db, 'SOP10200', line);
  const header = fieldColumns(CATALOGUE['sales-orders'], { ...headerOf(body), type: typeName, number });
  insert(db, 'SOP10100', {
    ...header,
    CUSTNAME: String(customer!.CUSTNAME).trimEnd(),
    CURNCYID: currency,
    SUBTOTAL: subtotal.toFixed(5),
    DOCAMNT: total.toFixed(5),
  });
  addToBatch(db, String(body.batchId), 'sales', total);
  return { id, readBack: () => read.one(CATALOGUE['sales-orders'], [typeName, number!]) };
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
function takeSalesNumber(db: Db, type: number, docId: string, dry: boolean): string | null {
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
  while (salesNumberTaken(db, numbering, number)) number = nextNumber(number);
  if (dry) return number;
  const next = padChar(nextNumber(number), 21);
  if (fromType) preparedOnce(db, 'UPDATE SOP40300 SET SOPNUMBE = ? WHERE SOPTYPE = ?').run(next, numbering);
  else preparedOnce(db, 'UPDATE SOP40200 SET SOPNUMBE = ? WHERE SOPTYPE = ? AND DOCID = ?').run(next, numbering, padChar(docId, 15));
  return number;
}

function salesNumberTaken(db: Db, type: number, number: string): boolean {
  return exists(db, 'SOP10100', { SOPTYPE: type, SOPNUMBE: number }) || exists(db, 'SOP30200', { SOPTYPE: type, SOPNUMBE: number });
}
