/** Payables documents (PM20000 open / PM30200 history): the general ledger's drafts and extras of the other types (subledgers.ts). */
import { GP_EMPTY_DATE } from '@gp-gateway/gp-schema';
import { DAY_MS, rowTimestamp } from './clock.ts';
import { FUNCTIONAL_CURRENCY, dueDateMs, paymentTerm, percentOf, randomAmount } from './money.ts';
import { compactDay, day, pad8, randomDates, settle, type SubledgerWriteOptions } from './subledgerDocuments.ts';
import type { PayableDraft, PayableType } from './subledgers.ts';
import type { VendorRef } from './vendors.ts';
import { POSTING_USERS } from './vocabulary.ts';

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

export interface WritePayablesOptions extends SubledgerWriteOptions {
  drafts: readonly PayableDraft[];
  vendors: readonly VendorRef[];
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
