/**
 * Small setup tables every document refers to: payment terms (SY03300), salespeople (RM00301),
 * sites (IV40700) and checkbooks (CM00100). They do not grow with the scale.
 */
import type Database from 'better-sqlite3';
import { GP_EMPTY_DATE, gpDate } from '@gp-gateway/gp-schema';
import type { ChartOfAccounts } from './chartOfAccounts.ts';
import { DEMO_TIMELINE_END_MS, addDays, dateOnly, rowTimestamp, timelineTimestamp } from './clock.ts';
import { FUNCTIONAL_CURRENCY, fromFunctional } from './money.ts';
import type { Rng } from './prng.ts';
import type { TableWriter } from './tableWriter.ts';
import { PAYMENT_TERM_DEFINITIONS, PLACES, SALESPERSON_DETAILS, SITE_DETAILS } from './vocabulary.ts';

export const SETUP_DATE = gpDate('2023-12-15');

export function writePaymentTerms(rng: Rng, terms: TableWriter): void {
  for (const term of PAYMENT_TERM_DEFINITIONS) {
    const edited = rng.chance(0.3);
    terms.insert({
      PYMTRMID: term.id,
      DUETYPE: term.dueType,
      DUEDTDS: term.dueDays,
      // DISCTYPE follows DUETYPE's codes: 1 Days; terms without a discount keep 1 and 0 days.
      DISCTYPE: 1,
      DISCDTDS: term.discount?.days ?? 0,
      // DSCLCTYP 1 Percent, 2 Amount.
      DSCLCTYP: 1,
      DSCPCTAM: term.discount?.percent ?? 0,
      SALPURCH: term.discount ? 1 : 0,
      DISCNTCB: 0,
      FREIGHT: 0,
      MISC: 0,
      TAX: 0,
      LSTUSRED: 'sa',
      CREATDDT: SETUP_DATE,
      MODIFDT: edited ? dateOnly(timelineTimestamp(rng, rng.next())) : SETUP_DATE,
    });
  }
}

export function writeSalespeople(rng: Rng, salespeople: TableWriter): void {
  const home = PLACES[0];
  SALESPERSON_DETAILS.forEach((person, i) => {
    const rowTsMs = timelineTimestamp(rng, person.inactive ? 0.3 + rng.next() * 0.4 : (i / SALESPERSON_DETAILS.length) * 0.1);
    salespeople.insert({
      SLPRSNID: person.id,
      EMPLOYID: person.employee,
      SLPRSNFN: person.first,
      SPRSNSMN: person.middle,
      SPRSNSLN: person.last,
      ADDRESS1: person.last === 'House Account' ? '' : `${rng.int(100, 9999)} ${rng.pick(['Oak', 'Elm', 'Lake', 'Park'])} St.`,
      CITY: home?.city ?? '',
      STATE: home?.state ?? '',
      ZIP: home?.postalCode(rng.int(0, 99999)) ?? '',
      COUNTRY: 'USA',
      PHONE1: person.last === 'House Account' ? '' : `312555${String(rng.int(0, 9999)).padStart(4, '0')}0000`,
      INACTIVE: person.inactive ? 1 : 0,
      SALSTERR: person.territory,
      COMMCODE: person.commission > 0 ? 'STANDARD' : '',
      COMPRCNT: person.commission,
      STDCPRCT: person.commission,
      COMAPPTO: 0,
      KPCALHST: 1,
      KPERHIST: 1,
      CREATDDT: SETUP_DATE,
      MODIFDT: dateOnly(rowTsMs),
      DEX_ROW_TS: rowTimestamp(rowTsMs),
    });
  });
}

export function writeSites(sites: TableWriter): void {
  for (const site of SITE_DETAILS) {
    sites.insert({
      LOCNCODE: site.id,
      LOCNDSCR: site.name,
      ADDRESS1: `${site.id === 'WAREHOUSE' ? 2200 : 100 + site.name.length * 37} Industrial Pkwy`,
      CITY: site.city,
      STATE: site.state,
      ZIPCODE: site.zip,
      COUNTRY: 'USA',
      PHONE1: site.inactive ? '' : `${site.zip.slice(0, 3)}55501000000`,
      STAXSCHD: site.inactive ? '' : 'USASTCITY-6*',
      PCTAXSCH: site.inactive ? '' : 'USASTE-PS6N0',
      INCLDDINPLNNNG: site.inactive ? 0 : 1,
      CCode: 'US',
      INACTIVE: site.inactive ? 1 : 0,
    });
  }
}

export interface CheckbookRef {
  id: string;
  currencyId: string;
  inactive: boolean;
}

const CHECKBOOK_DEFINITIONS = [
  {
    id: 'UPTOWN TRUST',
    name: 'Uptown Trust - Operating',
    bank: 'UPTOWN',
    mainAccount: '1100',
    currency: FUNCTIONAL_CURRENCY,
    nextCheck: 'next',
    inactive: false,
  },
  {
    id: 'FIRST NATIONAL',
    name: 'First National - Payroll',
    bank: 'FIRSTNAT',
    mainAccount: '1110',
    currency: FUNCTIONAL_CURRENCY,
    nextCheck: '300001',
    inactive: false,
  },
  {
    id: 'CANADIAN BANK',
    name: 'Canadian Bank - CAD Account',
    bank: 'CANBANK',
    mainAccount: '1120',
    currency: 'Z-C$',
    nextCheck: '5001',
    inactive: false,
  },
  { id: 'PETTY CASH', name: 'Petty Cash', bank: '', mainAccount: '1140', currency: FUNCTIONAL_CURRENCY, nextCheck: '1', inactive: true },
] as const;

/**
 * Checkbooks with their cash accounts. CURRBLNC is the cash account's current GL balance (open
 * year, BBF included), in the checkbook's currency, so the two agree as they would after a
 * reconcile. `nextCheck` 'next' continues after the highest check number the payables used.
 */
export function writeCheckbooks(
  rng: Rng,
  db: Database.Database,
  chart: ChartOfAccounts,
  checkbooks: TableWriter,
  nextCheckNumber: string,
): CheckbookRef[] {
  const balanceOf = db
    .prepare('SELECT coalesce(sum(DEBITAMT) - sum(CRDTAMNT), 0) FROM GL20000 WHERE ACTINDX = ?')
    .safeIntegers(true)
    .pluck();
  return CHECKBOOK_DEFINITIONS.map((book) => {
    // The company-wide (department 000) account, whatever the number's other segments.
    const account = chart.all.find((a) => a.department === '000' && a.main === book.mainAccount);
    if (!account) throw new Error(`checkbook ${book.id}: no account ${book.mainAccount}`);
    const glBalance = balanceOf.get(account.index) as bigint;
    const balance = fromFunctional(glBalance, book.currency);
    const reconciledMs = addDays(DEMO_TIMELINE_END_MS, -rng.int(5, 40));
    checkbooks.insert({
      CHEKBKID: book.id,
      DSCRIPTN: book.name,
      BANKID: book.bank,
      CURNCYID: book.currency,
      ACTINDX: account.index,
      BNKACTNM: book.bank ? String(rng.int(10_000_000, 99_999_999)) : '',
      NXTCHNUM: book.nextCheck === 'next' ? nextCheckNumber : book.nextCheck,
      Next_Deposit_Number: book.bank ? `DEP${String(rng.int(1000, 9999))}` : '',
      INACTIVE: book.inactive ? 1 : 0,
      DUPCHNUM: 0,
      OVCHNUM1: 1,
      Last_Reconciled_Date: book.inactive ? GP_EMPTY_DATE : dateOnly(reconciledMs),
      Last_Reconciled_Balance: book.inactive ? 0n : balance - fromFunctional(BigInt(rng.int(0, 2_000_000)) * 1000n, book.currency),
      CURRBLNC: balance,
      CREATDDT: SETUP_DATE,
      MODIFDT: dateOnly(reconciledMs),
      CHKBKTYP: 1,
    });
    return { id: book.id, currencyId: book.currency, inactive: book.inactive };
  });
}

/**
 * GP's posting setup (SY01100): the account each kind of amount of a series posts to when the
 * customer or vendor names none of its own (docs/decisions.md#writes). The slots the receivables
 * and payables distributions of a write use; descriptions as GP's Posting Accounts Setup shows them.
 */
export function writePostingAccounts(chart: ChartOfAccounts, setup: TableWriter): void {
  const slots: [series: number, sequence: number, description: string, role: Parameters<ChartOfAccounts['one']>[0]][] = [
    [3, 100, 'Accounts Receivable', 'receivables'],
    [3, 300, 'Credit Memos', 'productSales'],
    [3, 400, 'Debit Memos', 'productSales'],
    [3, 800, 'Finance Charges', 'serviceSales'],
    [3, 1100, 'Sales', 'productSales'],
    [3, 1200, 'Returns', 'productSales'],
    [3, 1300, 'Service/Repairs', 'serviceSales'],
    [3, 1400, 'Warranty Expense', 'costOfGoods'],
    [3, 1500, 'Warranty Sales', 'productSales'],
    [3, 1800, 'Freight', 'freightIncome'],
    [4, 200, 'Accounts Payable', 'payables'],
    [4, 500, 'Finance Charges', 'interestExpense'],
    [4, 600, 'Purchases', 'purchases'],
    [4, 1000, 'Taxes', 'salesTax'],
  ];
  for (const [series, sequence, description, role] of slots)
    setup.insert({ SERIES: series, SEQNUMBR: sequence, ACTINDX: chart.one(role).index, PTGACDSC: description });
}
