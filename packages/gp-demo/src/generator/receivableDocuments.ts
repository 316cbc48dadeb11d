/** Receivables documents (RM20101 open / RM30101 history): the general ledger's drafts and extras of the other types (subledgers.ts). */
import { GP_EMPTY_DATE } from '@gp-gateway/gp-schema';
import { DAY_MS, rowTimestamp } from './clock.ts';
import type { CustomerRef } from './customers.ts';
import { FUNCTIONAL_CURRENCY, dueDateMs, fractionOf, paymentTerm, percentOf, randomAmount } from './money.ts';
import { compactDay, day, pad8, randomDates, settle, type SubledgerWriteOptions } from './subledgerDocuments.ts';
import type { ReceivableDraft, ReceivableType } from './subledgers.ts';
import { POSTING_USERS } from './vocabulary.ts';

export const RECEIVABLE_EXTRAS_PER_SCALE = 120;

const RM_EXTRA_TYPES = [
  [3, 20],
  [4, 15],
  [5, 10],
  [6, 6],
  [7, 30],
  [8, 19],
] as const;
/** Prefixes of the demo's own receivables document numbers (numbering.ts starts a type no document has at its prefix's 00000001). */
export const RM_PREFIX: Record<ReceivableType, string> = { 1: 'INV', 3: 'DR', 4: 'FC', 5: 'SVC', 6: 'WRN', 7: 'CR', 8: 'RTN', 9: 'PYMNT' };
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

export interface WriteReceivablesOptions extends SubledgerWriteOptions {
  drafts: readonly ReceivableDraft[];
  customers: readonly CustomerRef[];
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
