/**
 * Sales documents: SOP10100/SOP10200 (work: quotes, orders, back orders, a few unposted invoices
 * and returns) and SOP30200/SOP30300 (history: posted invoices and returns, the orders they were
 * transferred from, and voided documents).
 *
 * Every document has 1-5 lines (LNITMSEQ steps of 16384, CMPNTSEQ 0); a kit line is followed by
 * its component lines (same LNITMSEQ, CMPNTSEQ 1..n, extended price 0). The extended prices of a
 * document's lines sum exactly to SUBTOTAL, and DOCAMNT = SUBTOTAL - TRDISAMT + FRTAMNT + MISCAMNT
 * + TAXAMNT, in functional currency; the OR* columns hold the customer's currency.
 */
import { GP_EMPTY_DATE } from '@gp-gateway/gp-schema';
import type { BatchBook } from './batches.ts';
import {
  DAY_MS,
  DEMO_TIMELINE_START_MS,
  businessTimeOfDayMs,
  dateOnly,
  dayStartMs,
  isoDay,
  pastTimestamp,
  postedAfter,
  rowTimestamp,
} from './clock.ts';
import type { CustomerRef } from './customers.ts';
import type { ItemRef } from './items.ts';
import {
  CENT,
  DEMO_TODAY_MS,
  FUNCTIONAL_CURRENCY,
  ONE,
  currencyIndex,
  dueDateMs,
  extend,
  fromFunctional,
  percentOf,
  randomAmount,
  roundToCents,
  sum,
  units,
} from './money.ts';
import type { PhaseProgress } from './progress.ts';
import type { Rng } from './prng.ts';
import type { TableWriter } from './tableWriter.ts';
import { POSTING_USERS } from './vocabulary.ts';

export const SALES_DOCUMENTS_PER_SCALE = 300;

/** SOPTYPE: 1 Quote, 2 Order, 3 Invoice, 4 Return, 5 Back Order. */
type SopType = 1 | 2 | 3 | 4 | 5;

const DOC_IDS: Record<SopType, string> = { 1: 'STDQTE', 2: 'STDORD', 3: 'STDINV', 4: 'STDRTN', 5: 'STDBO' };
const NUMBER_PREFIX: Record<SopType, string> = { 1: 'QTEST', 2: 'ORDST', 3: 'STDINV', 4: 'RTN', 5: 'BCKORD' };
const WORK_BATCH_PREFIX: Record<SopType, string> = { 1: 'QTE', 2: 'ORD', 3: 'INV', 4: 'RTN', 5: 'BCK' };

type Plan = 'historyInvoice' | 'historyReturn' | 'historyVoided' | 'quote' | 'order' | 'backOrder' | 'workInvoice' | 'workReturn';

const PLANS = [
  ['historyInvoice', 50],
  ['historyReturn', 4],
  ['historyVoided', 2],
  ['quote', 12],
  ['order', 17],
  ['backOrder', 5],
  ['workInvoice', 5],
  ['workReturn', 2],
] as const satisfies readonly (readonly [Plan, number])[];

interface Line {
  item: ItemRef;
  componentSequence: number;
  quantity: bigint;
  unitPrice: bigint;
  originatingUnitPrice: bigint;
  extended: bigint;
  originatingExtended: bigint;
  unitCost: bigint;
  extendedCost: bigint;
  tax: bigint;
  originatingTax: bigint;
  site: string;
}

interface Document {
  type: SopType;
  history: boolean;
  voided: boolean;
  customer: CustomerRef;
  documentMs: number;
  touchedMs: number;
  user: string;
  origin?: { type: SopType; number: string };
  /** Set when the history invoice was transferred from an order (which is written to history too). */
  transferredFrom?: Document;
  number: string;
  lines: Line[][];
  site: string;
  taxRate: number;
  /** Header charges, decided once so a transferred order and its invoice agree. */
  freight: bigint;
  misc: bigint;
  tradePercent: number;
}

export interface WriteSalesOptions {
  rng: Rng;
  scale: number;
  customers: readonly CustomerRef[];
  items: readonly ItemRef[];
  work: { headers: TableWriter; lines: TableWriter };
  history: { headers: TableWriter; lines: TableWriter };
  batches: BatchBook;
  progress: PhaseProgress;
}

export function writeSales({ rng, scale, customers, items, work, history, batches, progress }: WriteSalesOptions): void {
  const active = customers.filter((c) => !c.inactive && !c.hold);
  const sellable = items.filter((i) => !i.inactive && i.type !== 2 && (i.type !== 3 || i.components.length > 0));
  const sellableBefore = items.filter((i) => i.type !== 3 || i.components.length > 0);
  if (sellable.length === 0 || active.length === 0) throw new Error('sales need active customers and items');

  const documents: Document[] = [];
  for (let i = 0; i < SALES_DOCUMENTS_PER_SCALE * scale; i++) {
    const plan = rng.weighted(PLANS);
    const history = plan.startsWith('history');
    const type: SopType =
      plan === 'quote'
        ? 1
        : plan === 'order'
          ? 2
          : plan === 'backOrder'
            ? 5
            : plan === 'historyReturn' || plan === 'workReturn'
              ? 4
              : plan === 'historyVoided'
                ? rng.pick([1, 2, 3] as const)
                : 3;
    const documentMs = documentDate(rng, plan);
    const customer = rng.pick(history && documentMs < Date.UTC(2026, 0, 1) ? customers : active);
    const taxable = customer.taxScheduleId !== '' && customer.currencyId === FUNCTIONAL_CURRENCY;
    const site = customer.shipTo.site || 'WAREHOUSE';
    const document: Document = {
      type,
      history,
      voided: plan === 'historyVoided' || (plan === 'historyInvoice' && rng.chance(0.03)),
      customer,
      documentMs,
      touchedMs: 0,
      user: rng.pick(POSTING_USERS),
      number: '',
      lines: [],
      site,
      taxRate: taxable ? rng.pick([500, 625, 700, 825]) : 0,
      freight: type !== 1 && rng.chance(0.3) ? randomAmount(rng, 10, 250) : 0n,
      misc: rng.chance(0.05) ? randomAmount(rng, 5, 75) : 0n,
      tradePercent: rng.chance(0.05) ? rng.pick([200, 500, 1000]) : 0,
    };
    const lineCount = rng.weighted([
      [1, 30],
      [2, 25],
      [3, 20],
      [4, 15],
      [5, 10],
    ] as const);
    for (let l = 0; l < lineCount; l++) document.lines.push(makeLine(rng, document, rng.pick(history ? sellableBefore : sellable)));
    document.touchedMs = history
      ? postedAfter(rng, documentMs, 5)
      : pastTimestamp(
          rng,
          documentMs +
            rng.int(0, Math.max(0, Math.min(5, Math.floor((DEMO_TODAY_MS - documentMs) / DAY_MS)))) * DAY_MS +
            businessTimeOfDayMs(rng) +
            rng.int(0, 999),
        );
    // Three in ten posted invoices were transferred from an order, which moved to history with it.
    if (plan === 'historyInvoice' && rng.chance(0.3)) {
      const orderMs = Math.max(DEMO_TIMELINE_START_MS, documentMs - rng.int(2, 20) * DAY_MS);
      const order: Document = {
        ...document,
        type: 2,
        voided: false,
        documentMs: orderMs,
        touchedMs: document.touchedMs - rng.int(1, 5_000),
        lines: document.lines,
      };
      document.transferredFrom = order;
      documents.push(order);
    }
    documents.push(document);
  }

  // Numbers follow document dates, as GP hands them out.
  documents.sort((a, b) => a.documentMs - b.documentMs);
  const counters = new Map<SopType, number>();
  for (const document of documents) {
    const next = (counters.get(document.type) ?? 1000) + 1;
    counters.set(document.type, next);
    document.number = `${NUMBER_PREFIX[document.type]}${next}`;
  }
  for (const document of documents) {
    if (document.transferredFrom) document.origin = { type: 2, number: document.transferredFrom.number };
  }

  for (const document of documents) {
    const target = document.history ? history : work;
    writeDocument(rng, document, target.headers, target.lines, batches);
    progress.tick(1 + document.lines.reduce((n, group) => n + group.length, 0));
  }
}

function documentDate(rng: Rng, plan: Plan): number {
  const daysAgo = (min: number, max: number) => DEMO_TODAY_MS - rng.int(min, max) * DAY_MS;
  switch (plan) {
    case 'quote':
      return daysAgo(0, 150);
    case 'order':
      return daysAgo(0, 60);
    case 'backOrder':
      return daysAgo(10, 120);
    case 'workInvoice':
      return daysAgo(0, 10);
    case 'workReturn':
      return daysAgo(0, 20);
    default:
      return dayStartMs(
        DEMO_TIMELINE_START_MS + 21 * DAY_MS + Math.floor(rng.next() * (DEMO_TODAY_MS - DEMO_TIMELINE_START_MS - 22 * DAY_MS)),
      );
  }
}

/** One document line (an array: a kit line followed by its components). */
function makeLine(rng: Rng, document: Document, item: ItemRef): Line[] {
  const currencyId = document.customer.currencyId;
  const quantity =
    item.type === 5
      ? units(rng.int(1, 16)) + (rng.chance(0.3) ? BigInt(rng.pick([25, 50, 75])) * CENT : 0n)
      : item.type === 4 || item.type === 6
        ? ONE
        : item.listPrice < 100n * CENT
          ? units(rng.int(1, 50) * (item.listPrice < CENT ? 100 : 1))
          : units(rng.int(1, 10));
  // Price level and volume discounts: now and then a few percent off the list price.
  const unitPrice = rng.chance(0.15) ? roundToCents((item.listPrice * BigInt(rng.int(85, 98))) / 100n) || item.listPrice : item.listPrice;
  const originatingUnitPrice = currencyId === FUNCTIONAL_CURRENCY ? unitPrice : fromFunctional(unitPrice, currencyId) || unitPrice;
  const extended = extend(quantity, unitPrice);
  const originatingExtended = extend(quantity, originatingUnitPrice);
  const site = item.sites.includes(document.site) ? document.site : item.sites.length > 0 ? 'WAREHOUSE' : document.site;
  const components: Line[] = item.components.map((component, index) => {
    const componentQuantity = (quantity * component.quantity) / ONE;
    return {
      item: component.item,
      componentSequence: index + 1,
      quantity: componentQuantity,
      unitPrice: 0n,
      originatingUnitPrice: 0n,
      extended: 0n,
      originatingExtended: 0n,
      unitCost: component.item.currentCost,
      extendedCost: extend(componentQuantity, component.item.currentCost),
      tax: 0n,
      originatingTax: 0n,
      site: component.item.sites.includes(site) ? site : 'WAREHOUSE',
    };
  });
  const taxable = document.taxRate > 0 && item.taxScheduleId !== '';
  const main: Line = {
    item,
    componentSequence: 0,
    quantity,
    unitPrice,
    originatingUnitPrice,
    extended,
    originatingExtended,
    unitCost: item.currentCost,
    extendedCost: components.length > 0 ? sum(components.map((c) => c.extendedCost)) : extend(quantity, item.currentCost),
    tax: taxable ? percentOf(extended, document.taxRate) : 0n,
    originatingTax: taxable ? percentOf(originatingExtended, document.taxRate) : 0n,
    site,
  };
  return [main, ...components];
}

function writeDocument(rng: Rng, document: Document, headers: TableWriter, lineWriter: TableWriter, batches: BatchBook): void {
  const { customer, type } = document;
  const currencyId = customer.currencyId;
  const convert = (functional: bigint) => (currencyId === FUNCTIONAL_CURRENCY ? functional : fromFunctional(functional, currencyId));
  const lines = document.lines.flat();
  const topLines = document.lines.map((group) => group[0] as Line);
  const subtotal = sum(lines.map((l) => l.extended));
  const originatingSubtotal = sum(lines.map((l) => l.originatingExtended));
  const tax = sum(lines.map((l) => l.tax));
  const originatingTax = sum(lines.map((l) => l.originatingTax));
  const { freight, misc, tradePercent } = document;
  const tradeDiscount = percentOf(subtotal, tradePercent);
  const originatingTradeDiscount = percentOf(originatingSubtotal, tradePercent);
  const total = subtotal - tradeDiscount + freight + misc + tax;
  const originatingTotal = originatingSubtotal - originatingTradeDiscount + convert(freight) + convert(misc) + originatingTax;
  const posted = document.history && (type === 3 || type === 4) && !document.voided;
  const open = !document.history && (type === 1 || type === 2 || type === 5);
  const day = (ms: number) => dateOnly(ms);
  const docDay = day(document.documentMs);
  const requestedShipMs = document.documentMs + rng.int(1, 14) * DAY_MS;
  const shipTo = customer.shipTo;
  const batch = document.history
    ? `SOP${compactMonday(document.documentMs)}`
    : `${WORK_BATCH_PREFIX[type]}${compactMonday(document.documentMs)}`;
  const audit = posted ? `SLSTE${String(rng.int(1, 99_999_999)).padStart(8, '0')}` : '';
  const fulfilled = (line: Line) =>
    type === 3 || type === 4
      ? line.quantity
      : type === 2 && document.history
        ? line.quantity
        : type === 2 && rng.chance(0.3)
          ? ((line.quantity * BigInt(rng.int(0, 100))) / 100n / ONE) * ONE
          : 0n;

  headers.insert({
    SOPTYPE: type,
    SOPNUMBE: document.number,
    ORIGTYPE: document.origin?.type ?? 0,
    ORIGNUMB: document.origin?.number ?? '',
    DOCID: DOC_IDS[type],
    DOCDATE: docDay,
    GLPOSTDT: type === 3 || type === 4 ? docDay : GP_EMPTY_DATE,
    QUOTEDAT: type === 1 ? docDay : GP_EMPTY_DATE,
    QUOEXPDA: type === 1 ? day(document.documentMs + 30 * DAY_MS) : GP_EMPTY_DATE,
    ORDRDATE: type === 2 || document.origin ? day(document.transferredFrom?.documentMs ?? document.documentMs) : GP_EMPTY_DATE,
    INVODATE: type === 3 ? docDay : GP_EMPTY_DATE,
    BACKDATE: type === 5 ? docDay : GP_EMPTY_DATE,
    RETUDATE: type === 4 ? docDay : GP_EMPTY_DATE,
    ReqShipDate: type === 4 ? GP_EMPTY_DATE : day(requestedShipMs),
    ACTLSHIP: type === 3 ? docDay : GP_EMPTY_DATE,
    DUEDATE: type === 3 ? day(dueDateMs(document.documentMs, customer.paymentTermsId)) : GP_EMPTY_DATE,
    PYMTRMID: customer.paymentTermsId,
    PRCLEVEL: customer.priceLevel,
    LOCNCODE: document.site,
    BCHSOURC: 'Sales Entry',
    BACHNUMB: batch,
    CUSTNMBR: customer.id,
    CUSTNAME: customer.name,
    CSTPONBR: type !== 1 && rng.chance(0.6) ? `${rng.pick(['PO', '', 'P-'])}${rng.int(1000, 99_999)}` : '',
    PRBTADCD: customer.billToCode,
    PRSTADCD: shipTo.code,
    CNTCPRSN: shipTo.contact,
    ShipToName: customer.name,
    ADDRESS1: shipTo.lines[0],
    ADDRESS2: shipTo.lines[1],
    ADDRESS3: shipTo.lines[2],
    CITY: shipTo.city,
    STATE: shipTo.state,
    ZIPCODE: shipTo.zip,
    CCode: shipTo.countryCode,
    COUNTRY: shipTo.country,
    PHNUMBR1: shipTo.phone,
    SHIPMTHD: customer.shippingMethod,
    TRDISAMT: tradeDiscount,
    ORTDISAM: originatingTradeDiscount,
    TRDISPCT: tradePercent,
    SUBTOTAL: subtotal,
    ORSUBTOT: originatingSubtotal,
    REMSUBTO: open ? subtotal : 0n,
    OREMSUBT: open ? originatingSubtotal : 0n,
    EXTDCOST: sum(topLines.map((l) => l.extendedCost)),
    OREXTCST: convert(sum(topLines.map((l) => l.extendedCost))),
    FRTAMNT: freight,
    ORFRTAMT: convert(freight),
    MISCAMNT: misc,
    ORMISCAMT: convert(misc),
    TAXSCHID: document.taxRate > 0 ? customer.taxScheduleId : '',
    TAXAMNT: tax,
    ORTAXAMT: originatingTax,
    DOCAMNT: total,
    ORDOCAMT: originatingTotal,
    SALSTERR: customer.territoryId,
    SLPRSNID: customer.salespersonId,
    VOIDSTTS: document.voided ? 1 : 0,
    CURNCYID: currencyId,
    CURRNIDX: currencyIndex(currencyId),
    EXCHDATE: currencyId === FUNCTIONAL_CURRENCY ? GP_EMPTY_DATE : docDay,
    TRXSORCE: audit,
    POSTEDDT: posted ? day(document.touchedMs) : GP_EMPTY_DATE,
    PTDUSRID: posted ? document.user : '',
    USER2ENT: document.user,
    CREATDDT: docDay,
    MODIFDT: day(document.touchedMs),
    Tax_Date: docDay,
    DEX_ROW_TS: rowTimestamp(document.touchedMs),
  });

  let written = 0;
  document.lines.forEach((group, index) => {
    const sequence = (index + 1) * 16384;
    for (const line of group) {
      const done = fulfilled(line);
      const remaining = open ? line.quantity : 0n;
      lineWriter.insert({
        SOPTYPE: type,
        SOPNUMBE: document.number,
        LNITMSEQ: sequence,
        CMPNTSEQ: line.componentSequence,
        ITEMNMBR: line.item.id,
        ITEMDESC: line.item.description,
        UOFM: line.item.uom,
        LOCNCODE: line.site,
        UNITCOST: line.unitCost,
        ORUNTCST: convert(line.unitCost),
        UNITPRCE: line.unitPrice,
        ORUNTPRC: line.originatingUnitPrice,
        XTNDPRCE: line.extended,
        OXTNDPRC: line.originatingExtended,
        REMPRICE: open ? line.extended : 0n,
        OREPRICE: open ? line.originatingExtended : 0n,
        EXTDCOST: line.extendedCost,
        OREXTCST: convert(line.extendedCost),
        ITMTSHID: line.item.taxScheduleId,
        // IVITMTXB: 1 Taxable, 2 Nontaxable.
        IVITMTXB: line.tax > 0n ? 1 : 2,
        TAXAMNT: line.tax,
        ORTAXAMT: line.originatingTax,
        QUANTITY: line.quantity,
        QTYREMAI: remaining,
        QTYTOINV: type === 3 || type === 4 || (type === 2 && document.history) ? line.quantity : done,
        QTYFULFI: done,
        QTYBSUOM: ONE,
        ReqShipDate: type === 4 ? GP_EMPTY_DATE : day(requestedShipMs),
        ACTLSHIP: type === 3 ? docDay : GP_EMPTY_DATE,
        SHIPMTHD: customer.shippingMethod,
        SALSTERR: customer.territoryId,
        SLPRSNID: customer.salespersonId,
        PRCLEVEL: customer.priceLevel,
        CURRNIDX: currencyIndex(currencyId),
        TRXSORCE: audit,
        DECPLQTY: line.item.fractionalQuantities ? 3 : 1,
        DECPLCUR: line.unitPrice % CENT === 0n ? 3 : 6,
        ODECPLCU: 3,
        TAXSCHID: line.tax > 0n ? customer.taxScheduleId : '',
        PRSTADCD: shipTo.code,
        // eConnect writes the lines just before the header.
        DEX_ROW_TS: rowTimestamp(Math.max(DEMO_TIMELINE_START_MS, document.touchedMs - 40 + written)),
      });
      written++;
    }
  });
  batches.add('Sales Entry', batch, document.documentMs, total, { user: document.user, unposted: !document.history });
}

/** The Monday of the week holding `ms`, as YYYYMMDD: SOP batches are weekly. */
function compactMonday(ms: number): string {
  const start = dayStartMs(ms);
  const weekday = (new Date(start).getUTCDay() + 6) % 7;
  return isoDay(start - weekday * DAY_MS).replaceAll('-', '');
}
