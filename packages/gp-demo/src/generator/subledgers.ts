/**
 * Receivables (RM20101 open / RM30101 history) and payables (PM20000 open / PM30200 history): their
 * document drafts, here, and the rows written from them (receivableDocuments.ts, payableDocuments.ts).
 *
 * Sales invoices (RMDTYPAL 1), cash receipts (9), vouchers (DOCTYPE 1) and checks (6) are the
 * subledger side of the general ledger's SJ/CRJ/PJ/CDJ entries: the GL line's ORDOCNUM is the
 * document number (the voucher or payment number for payables, ORCTRNUM), ORMSTRID the customer
 * or vendor, ORGNTSRC the batch, and the functional amounts agree. The other document types (RM
 * 3-8, PM 2-5, and vouchers/payments of vendors the GL does not use) are generated on their own.
 */
import type { ChartOfAccounts } from './chartOfAccounts.ts';
import type { CustomerRef } from './customers.ts';
import type { PostedEntry } from './generalLedger.ts';
import type { VendorRef } from './vendors.ts';

/** RMDTYPAL: 1 Invoice, 3 Debit Memo, 4 Finance Charge, 5 Service/Repair, 6 Warranty, 7 Credit Memo, 8 Return, 9 Payment. */
export type ReceivableType = 1 | 3 | 4 | 5 | 6 | 7 | 8 | 9;
/** DOCTYPE: 1 Invoice, 2 Finance Charge, 3 Misc Charge, 4 Return, 5 Credit Memo, 6 Payment. */
export type PayableType = 1 | 2 | 3 | 4 | 5 | 6;

/** What a subledger document takes from the journal entry it was posted with (an extra draws its own). */
interface Posting {
  documentMs: number;
  postedMs: number;
  user: string;
  batch: string;
  audit: string;
  currencyId: string;
}

export interface ReceivableDraft extends Posting {
  type: ReceivableType;
  number: string;
  customer: CustomerRef;
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

export interface PayableDraft extends Posting {
  type: PayableType;
  voucher: string;
  documentNumber: string;
  vendor: VendorRef;
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
