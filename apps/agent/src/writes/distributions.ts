import { Decimal } from 'decimal.js';

/**
 * The GL distributions eConnect creates with a receivables or payables document (CREATEDIST 1, the
 * default): which distribution types, on which side, for which amount, in which order, as
 * taRMDistributionCreate and taPMDistributionCreate build them (docs/decisions.md#writes). Pure:
 * the accounts are resolved by the caller, which knows the database.
 *
 * Only the amounts the API takes are distributed (sales or purchases, freight, tax); discounts,
 * costs, commissions and cash taken with the document are always zero here, so their rows, which
 * GP deletes when zero, never appear.
 */

/** One distribution line: its type, the posting-setup slot its account comes from, and its amounts. */
export interface Distribution {
  /** DISTTYPE (RM: 3 RECV, 9 SALES, 11 FREIGHT, 13 TAXES, …; PM: 2 PAY, 6 PURCH, 10 TAX, …). */
  type: number;
  /** Where the account comes from when the customer or vendor names none: SY01100 SERIES and SEQNUMBR. */
  setup: { series: number; sequence: number };
  debit: Decimal;
  credit: Decimal;
}

export interface ReceivableAmounts {
  sales: Decimal;
  freight: Decimal;
  tax: Decimal;
}

export interface PayableAmounts {
  purchases: Decimal;
  tax: Decimal;
}

/** RM posting setup (SY01100 SERIES 3) slots taRMDistributionCreate reads. */
const RM = {
  receivables: 100,
  debitMemos: 400,
  financeCharges: 800,
  sales: 1100,
  serviceRepairs: 1300,
  warrantyCredit: 1400,
  warrantyDebit: 1500,
  creditMemos: 300,
  returns: 1200,
  freight: 1800,
} as const;

/** PM posting setup (SY01100 SERIES 4) slots taPMDistributionCreate reads. */
const PM = { payables: 200, financeCharges: 500, purchases: 600, tax: 1000 } as const;

const ZERO = new Decimal(0);
const line = (type: number, series: number, sequence: number, debit: Decimal, credit: Decimal): Distribution => ({
  type,
  setup: { series, sequence },
  debit,
  credit,
});

/**
 * A receivables document's distributions (RMDTYPAL 1, 3–8), in taRMDistributionCreate's order. The
 * tax line stands in for GP's tax detail lines (RM10601), which the embedded database does not
 * keep: one line for the document's tax, on the purchasing tax slot (SERIES 4, 1000), which is
 * where GP itself posts a tax detail that names no account.
 */
export function receivableDistributions(type: number, amounts: ReceivableAmounts): Distribution[] {
  const { sales, freight, tax } = amounts;
  const document = sales.plus(freight).plus(tax);
  const taxLine = (debit: boolean) => line(13, 4, PM.tax, debit ? tax : ZERO, debit ? ZERO : tax);
  let lines: Distribution[];
  switch (type) {
    case 1: // invoice: SALES credit, FREIGHT credit, TAXES credit, RECV debit
    case 3: // debit memo: DEBIT MEMO (18) instead of SALES
    case 4: // finance charge: FINCHRG (16)
    case 5: {
      // service/repairs: SERVICE (20)
      const [salesType, slot] = (
        { 1: [9, RM.sales], 3: [18, RM.debitMemos], 4: [16, RM.financeCharges], 5: [20, RM.serviceRepairs] } as const
      )[type];
      lines = [
        line(salesType, 3, slot, ZERO, sales),
        line(11, 3, RM.freight, ZERO, freight),
        taxLine(false),
        line(3, 3, RM.receivables, document, ZERO),
      ];
      break;
    }
    case 6:
      // warranty: 21 debit sales + tax, 22 credit sales, freight and tax credited, no receivable (GP
      // enters no amount due); with freight these do not balance, in GP as here.
      lines = [
        line(21, 3, RM.warrantyDebit, sales.plus(tax), ZERO),
        line(22, 3, RM.warrantyCredit, ZERO, sales),
        line(11, 3, RM.freight, ZERO, freight),
        taxLine(false),
      ];
      break;
    case 7: // credit memo: the invoice reversed, CREDIT MEMO (19) debit, RECV credit
      lines = [
        line(19, 3, RM.creditMemos, sales, ZERO),
        line(11, 3, RM.freight, freight, ZERO),
        line(3, 3, RM.receivables, ZERO, document),
        taxLine(true),
      ];
      break;
    case 8: // return: RECV credit first, RETURNS (17) debit last
      lines = [
        line(3, 3, RM.receivables, ZERO, document),
        line(11, 3, RM.freight, freight, ZERO),
        taxLine(true),
        line(17, 3, RM.returns, sales, ZERO),
      ];
      break;
    default:
      throw new Error(`not a receivables document type eConnect writes: ${type}`);
  }
  return lines.filter((d) => !d.debit.plus(d.credit).isZero());
}

/**
 * A payables document's distributions (DOCTYPE 1–5), in taPMDistributionCreate's order: the
 * purchase (or finance charge) and tax on one side, the payable on the other; returns and credit
 * memos (4, 5) reverse the sides.
 */
export function payableDistributions(type: number, amounts: PayableAmounts): Distribution[] {
  const { purchases, tax } = amounts;
  const document = purchases.plus(tax);
  if (![1, 2, 3, 4, 5].includes(type)) throw new Error(`not a payables document type eConnect writes: ${type}`);
  const reversed = type === 4 || type === 5;
  const side = (amount: Decimal, debit: boolean): [Decimal, Decimal] => (debit !== reversed ? [amount, ZERO] : [ZERO, amount]);
  // Finance charges (2) post to FINCHRG (5); the others to PURCH (6).
  const [chargeType, slot] = type === 2 ? [5, PM.financeCharges] : [6, PM.purchases];
  const lines = [
    line(chargeType, 4, slot, ...side(purchases, true)),
    line(10, 4, PM.tax, ...side(tax, true)),
    line(2, 4, PM.payables, ...side(document, false)),
  ];
  return lines.filter((d) => !d.debit.plus(d.credit).isZero());
}
