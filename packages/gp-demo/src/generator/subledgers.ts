/**
 * Receivables (RM20101 open / RM30101 history) and payables (PM20000 open / PM30200 history).
 *
 * Sales invoices (RMDTYPAL 1), cash receipts (9), vouchers (DOCTYPE 1) and checks (6) are the
 * subledger side of the general ledger's SJ/CRJ/PJ/CDJ entries: the GL line's ORDOCNUM is the
 * document number (the voucher or payment number for payables, ORCTRNUM), ORMSTRID the customer
 * or vendor, ORGNTSRC the batch, and the functional amounts agree. The other document types (RM
 * 3-8, PM 2-5, and vouchers/payments of vendors the GL does not use) are generated on their own.
 *
 * Open or history: documents dated before HISTORY_CUTOFF are fully applied and moved to history by
 * a quarterly paid-transaction removal (DEX_ROW_TS = that run), except a few still open; voided
 * documents are in history. Open documents' remaining amounts depend on their age.
 */
import { GP_EMPTY_DATE } from '@gp-gateway/gp-schema';
import type { BatchBook } from './batches.ts';
import type { ChartOfAccounts } from './chartOfAccounts.ts';
import {
  DAY_MS,
  DEMO_TIMELINE_START_MS,
  businessTimeOfDayMs,
  clampToTimeline,
  dateOnly,
  dayStartMs,
  isoDay,
  pastTimestamp,
  postedAfter,
  rowTimestamp,
} from './clock.ts';
import type { CustomerRef } from './customers.ts';
import type { PostedEntry } from './generalLedger.ts';
import { DEMO_TODAY_MS, FUNCTIONAL_CURRENCY, dueDateMs, fractionOf, paymentTerm, percentOf, randomAmount } from './money.ts';
import type { PhaseProgress } from './progress.ts';
import type { Rng } from './prng.ts';
import type { TableWriter } from './tableWriter.ts';
import type { VendorRef } from './vendors.ts';
import { POSTING_USERS } from './vocabulary.ts';

/** RMDTYPAL: 1 Invoice, 3 Debit Memo, 4 Finance Charge, 5 Service/Repair, 6 Warranty, 7 Credit Memo, 8 Return, 9 Payment. */
export type ReceivableType = 1 | 3 | 4 | 5 | 6 | 7 | 8 | 9;
/** DOCTYPE: 1 Invoice, 2 Finance Charge, 3 Misc Charge, 4 Return, 5 Credit Memo, 6 Payment. */
export type PayableType = 1 | 2 | 3 | 4 | 5 | 6;

export interface ReceivableDraft {
  type: ReceivableType;
  number: string;
  customer: CustomerRef;
  documentMs: number;
  postedMs: number;
  user: string;
  batch: string;
  audit: string;
  currencyId: string;
  /** ORTRXAMT, functional; equals sales - tradeDiscount + freight + misc + tax. */
  amount: bigint;
  sales: bigint;
  tax: bigint;
  freight: bigint;
  misc: bigint;
  cost: bigint;
  tradeDiscount: bigint;
  voided: boolean;
}

export interface PayableDraft {
  type: PayableType;
  voucher: string;
  documentNumber: string;
  vendor: VendorRef;
  documentMs: number;
  postedMs: number;
  user: string;
  batch: string;
  audit: string;
  currencyId: string;
  /** DOCAMNT, functional; equals purchases - tradeDiscount + freight + misc + tax. */
  amount: bigint;
  purchases: bigint;
  tax: bigint;
  freight: bigint;
  misc: bigint;
  tradeDiscount: bigint;
  voided: boolean;
}

export interface JournalBatchEntry {
  batch: string;
  dateMs: number;
  amount: bigint;
  user: string;
}

/**
 * Turns the general ledger's subledger entries into document drafts. Purely a function of the
 * entries it sees (no random draws), so the GL stays exactly as it is without it.
 */
export class SubledgerCollector {
  readonly receivables: ReceivableDraft[] = [];
  readonly payables: PayableDraft[] = [];
  readonly journalBatches: JournalBatchEntry[] = [];
  readonly #customers: Map<string, CustomerRef>;
  readonly #vendors: Map<string, VendorRef>;
  readonly #accounts: { receivables: number; salesTax: number; freight: number; costOfGoods: number; cash: number; payables: number };

  constructor(chart: ChartOfAccounts, customers: readonly CustomerRef[], vendors: readonly VendorRef[]) {
    this.#customers = new Map(customers.map((c) => [c.id, c]));
    this.#vendors = new Map(vendors.map((v) => [v.id, v]));
    this.#accounts = {
      receivables: chart.one('receivables').index,
      salesTax: chart.one('salesTax').index,
      freight: chart.one('freightIncome').index,
      costOfGoods: chart.one('costOfGoods').index,
      cash: chart.one('cash').index,
      payables: chart.one('payables').index,
    };
  }

  readonly onPosted = (entry: PostedEntry): void => {
    const { kind, header, lines, trxMs } = entry;
    const accounts = this.#accounts;
    // One pass over the lines (this runs for every journal entry, so no closures or array copies).
    let receivableDebit = 0n;
    let taxCredit = 0n;
    let freightCredit = 0n;
    let costDebit = 0n;
    let cashDebit = 0n;
    let cashCredit = 0n;
    let payablesCredit = 0n;
    let debits = 0n;
    for (const line of lines) {
      debits += line.debit;
      switch (line.accountIndex) {
        case accounts.receivables:
          receivableDebit += line.debit;
          break;
        case accounts.salesTax:
          taxCredit += line.credit;
          break;
        case accounts.freight:
          freightCredit += line.credit;
          break;
        case accounts.costOfGoods:
          costDebit += line.debit;
          break;
        case accounts.cash:
          cashDebit += line.debit;
          cashCredit += line.credit;
          break;
        case accounts.payables:
          payablesCredit += line.credit;
          break;
      }
    }
    // What a subledger document takes from the journal entry it was posted with.
    const posting = {
      documentMs: trxMs,
      postedMs: header.postedMs,
      user: header.user,
      batch: header.batch,
      audit: header.originatingAudit,
      currencyId: header.currencyId,
    };
    switch (kind) {
      case 'SJ':
      case 'CRJ': {
        const customer = this.#customers.get(header.master?.id ?? '');
        if (!customer) throw new Error(`GL ${kind} entry names unknown customer ${header.master?.id}`);
        const invoice = kind === 'SJ';
        const amount = invoice ? receivableDebit : cashDebit;
        this.receivables.push({
          type: invoice ? 1 : 9,
          number: header.documentNumber,
          customer,
          ...posting,
          amount,
          sales: invoice ? amount - taxCredit - freightCredit : 0n,
          tax: invoice ? taxCredit : 0n,
          freight: invoice ? freightCredit : 0n,
          misc: 0n,
          cost: invoice ? costDebit : 0n,
          tradeDiscount: 0n,
          voided: header.voided,
        });
        return;
      }
      case 'PJ':
      case 'CDJ': {
        const vendor = this.#vendors.get(header.master?.id ?? '');
        if (!vendor) throw new Error(`GL ${kind} entry names unknown vendor ${header.master?.id}`);
        const voucher = kind === 'PJ';
        const amount = voucher ? payablesCredit : cashCredit;
        this.payables.push({
          type: voucher ? 1 : 6,
          voucher: header.controlNumber,
          documentNumber: header.documentNumber,
          vendor,
          ...posting,
          amount,
          purchases: voucher ? amount : 0n,
          tax: 0n,
          freight: 0n,
          misc: 0n,
          tradeDiscount: 0n,
          voided: header.voided,
        });
        return;
      }
      case 'GJ':
        this.journalBatches.push({ batch: header.batch, dateMs: trxMs, amount: debits, user: header.user });
        return;
      case 'IVADJ':
        return;
    }
  };
}

/** Documents dated before this are paid and moved to history (a few stay open). */
const HISTORY_CUTOFF_MS = Date.UTC(2025, 9, 1);

interface Settlement {
  history: boolean;
  remaining: bigint;
  paidOffMs: number;
  touchedMs: number;
  voidMs: number;
}

function settle(rng: Rng, documentMs: number, postedMs: number, amount: bigint, voided: boolean, isCredit: boolean): Settlement {
  if (voided) {
    const voidMs = pastTimestamp(rng, Math.max(postedMs, dayStartMs(postedMs) + rng.int(1, 20) * DAY_MS + businessTimeOfDayMs(rng)));
    return { history: true, remaining: 0n, paidOffMs: 0, touchedMs: voidMs, voidMs };
  }
  const stillOpen = rng.chance(0.03);
  if (documentMs < HISTORY_CUTOFF_MS && !stillOpen) {
    const paidOffMs = dayStartMs(documentMs) + rng.int(isCredit ? 0 : 5, 75) * DAY_MS;
    return {
      history: true,
      remaining: 0n,
      paidOffMs,
      touchedMs: removalRunAfter(Math.max(paidOffMs, postedMs)) + rng.int(0, 59_999),
      voidMs: 0,
    };
  }
  const ageDays = Math.max(0, Math.round((DEMO_TODAY_MS - dayStartMs(documentMs)) / DAY_MS));
  const [paid, partial] =
    documentMs < HISTORY_CUTOFF_MS
      ? [0, 0.4]
      : isCredit
        ? [0.85, 0.1]
        : ageDays > 90
          ? [0.8, 0.1]
          : ageDays > 30
            ? [0.5, 0.2]
            : [0.15, 0.15];
  const roll = rng.next();
  const remaining = roll < paid ? 0n : roll < paid + partial ? fractionOf(amount, rng.int(10, 90) / 100) : amount;
  if (remaining === amount) return { history: false, remaining, paidOffMs: 0, touchedMs: postedMs, voidMs: 0 };
  const appliedMs = pastTimestamp(
    rng,
    Math.max(postedMs, dayStartMs(documentMs) + rng.int(1, Math.max(1, Math.min(ageDays, 60))) * DAY_MS + businessTimeOfDayMs(rng)),
  );
  return { history: false, remaining, paidOffMs: remaining === 0n ? appliedMs : 0, touchedMs: appliedMs, voidMs: 0 };
}

/** Paid-transaction removal runs quarterly (the 20th of Jan/Apr/Jul/Oct, evening UTC). */
function removalRunAfter(ms: number): number {
  const date = new Date(ms + DAY_MS);
  for (let year = date.getUTCFullYear(); ; year++) {
    for (const month of [0, 3, 6, 9]) {
      const run = Date.UTC(year, month, 20, 22, 15, 0, 0);
      if (run >= ms + DAY_MS) return clampToTimeline(run);
    }
  }
}

const day = (ms: number) => dateOnly(ms);
const compactDay = (ms: number) => isoDay(ms).replaceAll('-', '');
const pad8 = (n: number) => String(n).padStart(8, '0');

/** A random document date on the demo's timeline, and when it was posted. */
function randomDates(rng: Rng): { documentMs: number; postedMs: number } {
  const documentMs = dayStartMs(DEMO_TIMELINE_START_MS + Math.floor(rng.next() * (DEMO_TODAY_MS - DEMO_TIMELINE_START_MS)));
  return { documentMs, postedMs: postedAfter(rng, documentMs, 6) };
}

export const RECEIVABLE_EXTRAS_PER_SCALE = 120;

const RM_EXTRA_TYPES = [
  [3, 20],
  [4, 15],
  [5, 10],
  [6, 6],
  [7, 30],
  [8, 19],
] as const;
const RM_PREFIX: Record<ReceivableType, string> = { 1: 'INV', 3: 'DR', 4: 'FC', 5: 'SVC', 6: 'WRN', 7: 'CR', 8: 'RTN', 9: 'PYMNT' };
const RM_DESCRIPTIONS: Record<ReceivableType, readonly string[]> = {
  1: ['', '', 'Sales', 'Equipment sale'],
  3: ['Price adjustment', 'Freight rebill', 'Short payment'],
  4: ['Finance charge', 'Late payment charge'],
  5: ['Service call', 'On-site repair', 'Bench repair'],
  6: ['Warranty repair', 'Warranty replacement'],
  7: ['Credit - pricing error', 'Credit - damaged goods', 'Goodwill credit'],
  8: ['Return - wrong item', 'Return - defective', 'Return - overshipment'],
  9: ['Payment - thank you', '', 'ACH payment', 'Check payment'],
};

export interface WriteReceivablesOptions {
  rng: Rng;
  scale: number;
  drafts: readonly ReceivableDraft[];
  customers: readonly CustomerRef[];
  open: TableWriter;
  history: TableWriter;
  batches: BatchBook;
  progress: PhaseProgress;
}

export function writeReceivables({ rng, scale, drafts, customers, open, history, batches, progress }: WriteReceivablesOptions): void {
  const active = customers.filter((c) => !c.inactive);
  const counters = new Map<ReceivableType, number>();
  const extras: ReceivableDraft[] = [];
  for (let i = 0; i < RECEIVABLE_EXTRAS_PER_SCALE * scale; i++) {
    const type = rng.weighted(RM_EXTRA_TYPES);
    const { documentMs, postedMs } = randomDates(rng);
    const customer = rng.pick(documentMs >= Date.UTC(2026, 0, 1) ? active : customers);
    const next = (counters.get(type) ?? 1000) + 1;
    counters.set(type, next);
    const [min, max] = ({ 3: [20, 2_000], 4: [5, 300], 5: [100, 5_000], 6: [50, 1_500], 7: [20, 3_000], 8: [50, 8_000] } as const)[type];
    const sales = randomAmount(rng, min, max);
    const tax =
      (type === 5 || type === 8) && customer.currencyId === FUNCTIONAL_CURRENCY && rng.chance(0.6)
        ? percentOf(sales, rng.pick([500, 625, 825]))
        : 0n;
    const freight = type === 3 && rng.chance(0.2) ? randomAmount(rng, 15, 200) : 0n;
    const misc = type === 5 && rng.chance(0.2) ? randomAmount(rng, 10, 150) : 0n;
    extras.push({
      type,
      number: `${RM_PREFIX[type]}${pad8(next)}`,
      customer,
      documentMs,
      postedMs,
      user: rng.pick(POSTING_USERS),
      batch: `SALES${compactDay(documentMs)}`,
      audit: `RMSLS${pad8(900_000 + i)}`,
      currencyId: customer.currencyId,
      amount: sales + freight + misc + tax,
      sales,
      tax,
      freight,
      misc,
      cost: type === 5 ? fractionOf(sales, rng.int(20, 50) / 100) : 0n,
      tradeDiscount: 0n,
      voided: rng.chance(0.03),
    });
  }
  // GL-derived drafts are already in date order per year; a stable sort interleaves the extras.
  const all = [...drafts, ...extras].sort((a, b) => a.documentMs - b.documentMs);
  for (const draft of all) {
    const isCredit = draft.type >= 7;
    const s = settle(rng, draft.documentMs, draft.postedMs, draft.amount, draft.voided, isCredit);
    const { customer } = draft;
    const term = isCredit ? undefined : paymentTerm(customer.paymentTermsId);
    const isPayment = draft.type === 9;
    const receiptType = isPayment
      ? rng.weighted([
          [0, 80],
          [1, 5],
          [2, 15],
        ] as const)
      : 0;
    const checkbook = customer.currencyId === 'Z-C$' ? 'CANADIAN BANK' : 'UPTOWN TRUST';
    const discountAvailable = term?.discount ? percentOf(draft.sales, term.discount.percent) : 0n;
    const discountTaken = term?.discount && s.remaining === 0n && !draft.voided && rng.chance(0.4) ? discountAvailable : 0n;
    const row: Record<string, string | number | bigint | undefined> = {
      CUSTNMBR: customer.id,
      CPRCSTNM: customer.parentId,
      DOCNUMBR: draft.number,
      CHEKNMBR: isPayment && receiptType === 0 ? String(rng.int(1000, 999_999)) : '',
      BACHNUMB: draft.batch,
      BCHSOURC: isPayment ? 'RM_Cash' : 'RM_Sales',
      TRXSORCE: draft.audit,
      RMDTYPAL: draft.type,
      CSHRCTYP: receiptType,
      DUEDATE: isCredit ? GP_EMPTY_DATE : day(dueDateMs(draft.documentMs, customer.paymentTermsId)),
      DOCDATE: day(draft.documentMs),
      POSTDATE: day(draft.postedMs),
      PSTUSRID: draft.user,
      GLPOSTDT: day(draft.documentMs),
      LSTEDTDT: day(s.touchedMs),
      LSTUSRED: draft.user,
      ORTRXAMT: draft.amount,
      CURTRXAM: s.remaining,
      SLSAMNT: draft.sales,
      COSTAMNT: draft.cost,
      FRTAMNT: draft.freight,
      MISCAMNT: draft.misc,
      TAXAMNT: draft.tax,
      DISTKNAM: discountTaken,
      DISAVAMT: discountAvailable,
      DISCDATE: term?.discount ? day(draft.documentMs + term.discount.days * DAY_MS) : GP_EMPTY_DATE,
      DSCPCTAM: term?.discount?.percent ?? 0,
      TRXDSCRN: rng.pick(RM_DESCRIPTIONS[draft.type]),
      CSPORNBR: draft.type === 1 && rng.chance(0.4) ? `PO-${rng.int(10_000, 99_999)}` : '',
      SLPRSNID: isPayment ? '' : customer.salespersonId,
      SLSTERCD: isPayment ? '' : customer.territoryId,
      DINVPDOF: s.paidOffMs ? day(s.paidOffMs) : GP_EMPTY_DATE,
      VOIDSTTS: draft.voided ? 1 : 0,
      VOIDDATE: draft.voided ? day(s.voidMs) : GP_EMPTY_DATE,
      TAXSCHID: draft.tax > 0n ? customer.taxScheduleId : '',
      CURNCYID: draft.currencyId,
      PYMTRMID: isCredit ? '' : customer.paymentTermsId,
      SHIPMTHD: draft.type === 1 ? customer.shippingMethod : '',
      TRDISAMT: draft.tradeDiscount,
      Tax_Date: isPayment ? GP_EMPTY_DATE : day(draft.documentMs),
      ADRSCODE: isPayment ? '' : customer.billToCode,
      DEX_ROW_TS: rowTimestamp(s.touchedMs),
    };
    if (!s.history) {
      row.CBKIDCHK = isPayment && receiptType === 0 ? checkbook : '';
      row.CBKIDCSH = isPayment && receiptType === 1 ? checkbook : '';
      row.CBKIDCRD = isPayment && receiptType === 2 ? checkbook : '';
    }
    (s.history ? history : open).insert(row);
    batches.add(isPayment ? 'RM_Cash' : 'RM_Sales', draft.batch, draft.documentMs, draft.amount, {
      user: draft.user,
      ...(isPayment ? { checkbookId: checkbook } : {}),
    });
    progress.tick();
  }
}

export const PAYABLE_EXTRAS_PER_SCALE = 200;

const PM_EXTRA_TYPES = [
  [1, 55],
  [2, 3],
  [3, 8],
  [4, 5],
  [5, 7],
  [6, 22],
] as const;
const PM_DESCRIPTIONS: Record<PayableType, readonly string[]> = {
  1: ['', '', 'Inventory purchase', 'Monthly service', 'Supplies', 'Repairs'],
  2: ['Late fee', 'Finance charge'],
  3: ['Misc charge', 'Expedite fee'],
  4: ['Returned goods', 'Return - damaged'],
  5: ['Credit memo', 'Volume rebate'],
  6: ['', 'Payment'],
};
/** First numbers of the extras, far above the general ledger's own voucher and check counters. */
const EXTRA_VOUCHER_START = 700_000;
const EXTRA_PAYMENT_START = 800_000;
const EXTRA_CHECK_START = 50_000;

export interface WritePayablesOptions {
  rng: Rng;
  scale: number;
  drafts: readonly PayableDraft[];
  vendors: readonly VendorRef[];
  open: TableWriter;
  history: TableWriter;
  batches: BatchBook;
  progress: PhaseProgress;
}

/** Returns the next unused check number of the UPTOWN TRUST checkbook (its NXTCHNUM). */
export function writePayables({ rng, scale, drafts, vendors, open, history, batches, progress }: WritePayablesOptions): string {
  const usable = vendors.filter((v) => v.status !== 2);
  let voucher = EXTRA_VOUCHER_START;
  let payment = EXTRA_PAYMENT_START;
  let check = EXTRA_CHECK_START;
  const extras: PayableDraft[] = [];
  for (let i = 0; i < PAYABLE_EXTRAS_PER_SCALE * scale; i++) {
    const type = rng.weighted(PM_EXTRA_TYPES);
    const { documentMs, postedMs } = randomDates(rng);
    const vendor = rng.pick(documentMs >= Date.UTC(2026, 0, 1) ? usable : vendors);
    const [min, max] = ({ 1: [50, 20_000], 2: [5, 300], 3: [20, 1_500], 4: [50, 5_000], 5: [25, 3_000], 6: [100, 25_000] } as const)[type];
    const purchases = type === 6 ? 0n : randomAmount(rng, min, max);
    const freight = type === 1 && rng.chance(0.3) ? randomAmount(rng, 15, 400) : 0n;
    const tax =
      type === 1 && vendor.currencyId === FUNCTIONAL_CURRENCY && rng.chance(0.4) ? percentOf(purchases, rng.pick([500, 625, 825])) : 0n;
    const misc = type === 1 && rng.chance(0.1) ? randomAmount(rng, 5, 200) : 0n;
    const tradeDiscount = type === 1 && rng.chance(0.05) ? percentOf(purchases, rng.int(2, 10) * 100) : 0n;
    const amount = type === 6 ? randomAmount(rng, min, max) : purchases - tradeDiscount + freight + misc + tax;
    const isPayment = type === 6;
    const byCard = isPayment && rng.chance(0.15);
    const number = isPayment ? ++payment : ++voucher;
    extras.push({
      type,
      voucher: String(number).padStart(17, '0'),
      documentNumber: byCard
        ? `CC${rng.int(100_000, 999_999)}`
        : isPayment
          ? pad8(++check)
          : `${({ 1: rng.pick(['', 'INV', 'A']), 2: 'FC', 3: 'MISC', 4: 'RTN', 5: 'CM' } as const)[type]}${rng.int(1000, 999_999)}`,
      vendor,
      documentMs,
      postedMs,
      user: rng.pick(POSTING_USERS),
      batch: `${isPayment ? 'CHECKS' : 'PMTRX'}${compactDay(documentMs)}`,
      audit: `${isPayment ? 'PMCHK' : 'PMTRX'}${pad8(900_000 + i)}`,
      currencyId: vendor.currencyId,
      amount,
      purchases,
      tax,
      freight,
      misc,
      tradeDiscount,
      voided: rng.chance(0.03),
    });
  }
  let highestCheck = check;
  const all = [...drafts, ...extras].sort((a, b) => a.documentMs - b.documentMs);
  for (const draft of all) {
    const { vendor } = draft;
    const isPayment = draft.type === 6;
    const isCredit = draft.type >= 4;
    const s = settle(rng, draft.documentMs, draft.postedMs, draft.amount, draft.voided, isCredit);
    const term = isCredit ? undefined : paymentTerm(vendor.paymentTermsId);
    // Checks carry the 8-digit check number; card payments a card reference (PYENTTYP 0 Check, 2 Credit Card).
    const byCheck = /^\d{8}$/.test(draft.documentNumber);
    const paymentType = isPayment && !byCheck ? 2 : 0;
    if (isPayment && byCheck) highestCheck = Math.max(highestCheck, Number(draft.documentNumber));
    const discountAvailable = term?.discount ? percentOf(draft.purchases, term.discount.percent) : 0n;
    const discountTaken = term?.discount && s.remaining === 0n && !draft.voided && rng.chance(0.5) ? discountAvailable : 0n;
    const row: Record<string, string | number | bigint | undefined> = {
      VCHRNMBR: draft.voucher,
      VENDORID: vendor.id,
      DOCTYPE: draft.type,
      DOCDATE: day(draft.documentMs),
      DOCNUMBR: draft.documentNumber,
      DOCAMNT: draft.amount,
      CURTRXAM: s.remaining,
      DISTKNAM: discountTaken,
      DISCAMNT: discountAvailable,
      BACHNUMB: draft.batch,
      TRXSORCE: draft.audit,
      BCHSOURC: isPayment ? 'PM_Payment' : 'PM_Trxent',
      DISCDATE: term?.discount ? day(draft.documentMs + term.discount.days * DAY_MS) : GP_EMPTY_DATE,
      DUEDATE: isCredit ? GP_EMPTY_DATE : day(dueDateMs(draft.documentMs, vendor.paymentTermsId)),
      TEN99AMNT: draft.type === 1 && vendor.ten99Type > 1 ? draft.purchases : 0n,
      DISAMTAV: s.remaining === 0n ? 0n : discountAvailable,
      TRXDSCRN: rng.pick(PM_DESCRIPTIONS[draft.type]),
      VOIDED: draft.voided ? 1 : 0,
      HOLD: !s.history && !isPayment && s.remaining > 0n && rng.chance(0.03) ? 1 : 0,
      CHEKBKID: isPayment ? vendor.checkbookId || 'UPTOWN TRUST' : '',
      DINVPDOF: s.paidOffMs ? day(s.paidOffMs) : GP_EMPTY_DATE,
      POSTEDDT: day(draft.postedMs),
      PTDUSRID: draft.user,
      MODIFDT: day(s.touchedMs),
      MDFUSRID: draft.user,
      PYENTTYP: paymentType,
      CARDNAME: paymentType === 2 ? rng.pick(['AMEX', 'VISA']) : '',
      PRCHAMNT: draft.purchases,
      TRDISAMT: draft.tradeDiscount,
      MSCCHAMT: draft.misc,
      FRTAMNT: draft.freight,
      TAXAMNT: draft.tax,
      TTLPYMTS: isCredit ? 0n : draft.amount - s.remaining,
      CURNCYID: draft.currencyId,
      PYMTRMID: isCredit ? '' : vendor.paymentTermsId,
      SHIPMTHD: draft.type === 1 ? vendor.shippingMethod : '',
      TAXSCHID: draft.tax > 0n ? vendor.taxScheduleId : '',
      PSTGDATE: day(draft.documentMs),
      Tax_Date: isPayment ? GP_EMPTY_DATE : day(draft.documentMs),
      PRCHDATE: isPayment ? GP_EMPTY_DATE : day(draft.documentMs),
      VNDCHKNM: vendor.checkName,
      VADCDTRO: vendor.remitToCode,
      TEN99TYPE: vendor.ten99Type,
      TEN99BOXNUMBER: vendor.ten99Box,
      DEX_ROW_TS: rowTimestamp(s.touchedMs),
    };
    if (s.history) row.VOIDPDATE = draft.voided ? day(s.voidMs) : GP_EMPTY_DATE;
    (s.history ? history : open).insert(row);
    batches.add(isPayment ? 'PM_Payment' : 'PM_Trxent', draft.batch, draft.documentMs, draft.amount, {
      user: draft.user,
      ...(isPayment ? { checkbookId: 'UPTOWN TRUST' } : {}),
    });
    progress.tick();
  }
  return pad8(highestCheck + 1);
}
