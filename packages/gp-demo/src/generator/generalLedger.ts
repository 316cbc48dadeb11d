/**
 * Posted GL lines: history years into GL30000 (HSTYEAR), the open year into GL20000 (OPENYEAR).
 * Each year starts with the entry GP's year-end close creates in period 0 (BBF lines carrying the
 * balance sheet forward plus a P/L line closing last year's profit to Retained Earnings); the first
 * year starts with the go-live opening balances as BBF lines. Every journal entry balances exactly
 * in functional currency.
 */
import { GP_EMPTY_DATE, gpDate } from '@gp-gateway/gp-schema';
import type { ChartOfAccounts } from './chartOfAccounts.ts';
import {
  DAY_MS,
  DEMO_TIMELINE_END_MS,
  HISTORY_YEARS,
  OPEN_YEAR,
  addDays,
  businessTimeOfDayMs,
  clampToTimeline,
  dateOnly,
  isoDay,
  lastDayOfYearMs,
  rowTimestamp,
  yearEndCloseMs,
} from './clock.ts';
import type { CustomerRef } from './customers.ts';
import { FUNCTIONAL_CURRENCY, KIND_WEIGHTS, draftJournalEntry } from './journalEntries.ts';
import type { DraftLine, JournalEntryDraft, JournalEntryKind } from './journalEntries.ts';
import type { PhaseProgress } from './progress.ts';
import type { Rng } from './prng.ts';
import type { TableWriter } from './tableWriter.ts';
import { POSTING_USERS } from './vocabulary.ts';

/** GL lines per company at scale 1, spread over the years in proportion to their days. */
const GL_LINES_PER_SCALE = 5000;

/** Functional currency per originating unit, 7 decimals as GP's XCHGRATE numeric(19,7). */
export const EXCHANGE_RATES: Record<string, bigint> = { 'Z-US$': 10_000_000n, 'Z-C$': 7_300_000n, 'Z-EURO': 10_850_000n };
export const RATE_ONE = 10_000_000n;
export const CURRENCY_INDEX: Record<string, number> = { 'Z-US$': 1007, 'Z-C$': 1001, 'Z-EURO': 1003 };
/** Cents to numeric(19,5) scaled integers. */
const CENTS_TO_SCALED = 1000n;
/** GP numbers journal lines in steps of 16384, leaving room for inserts. */
const LINE_SEQUENCE_STEP = 16384;

const SUBLEDGER = {
  SJ: { batch: 'SALES', audit: 'RMSLS', document: 'INV' },
  CRJ: { batch: 'CASH', audit: 'RMCSH', document: 'PYMNT' },
  PJ: { batch: 'PMTRX', audit: 'PMTRX', document: '' },
  CDJ: { batch: 'CHECKS', audit: 'PMCHK', document: '' },
  GJ: { batch: 'GLJE', audit: '', document: '' },
  IVADJ: { batch: 'IVADJ', audit: 'IVADJ', document: 'IADJ' },
} as const satisfies Record<JournalEntryKind, { batch: string; audit: string; document: string }>;

export interface WriteGeneralLedgerOptions {
  rng: Rng;
  chart: ChartOfAccounts;
  customers: readonly CustomerRef[];
  scale: number;
  openYear: TableWriter;
  history: TableWriter;
  progress: PhaseProgress;
  /**
   * Sees every regular (non-closing) journal entry right after it is written, so subledger
   * documents can be derived from the same postings (ORDOCNUM/ORMSTRID then name real documents).
   * It must not draw from `rng`.
   */
  onPosted?: ((entry: PostedEntry) => void) | undefined;
}

/** A posted journal entry as onPosted sees it: functional lines plus the header GP stores on them. */
export interface PostedEntry {
  kind: JournalEntryKind;
  trxMs: number;
  header: EntryHeader;
  lines: readonly PostedLine[];
}

export interface PostedLine {
  accountIndex: number;
  debit: bigint;
  credit: bigint;
  origDebit: bigint;
  origCredit: bigint;
  description: string;
  sourceDocument: string;
}

export function glLineTarget(scale: number): number {
  return GL_LINES_PER_SCALE * scale;
}

export function writeGeneralLedger(options: WriteGeneralLedgerOptions): void {
  const { rng, chart, customers, scale, progress } = options;
  const years = [...HISTORY_YEARS, OPEN_YEAR];
  const daysOf = (year: number) => (lastDayOfYearMs(year) - Date.UTC(year, 0, 1)) / DAY_MS + 1;
  const totalDays = years.reduce((sum, year) => sum + daysOf(year), 0);
  const counters = new Counters();
  const activeCustomers = customers.filter((c) => !c.inactive);
  let carriedForward = openingBalances(chart);

  for (const year of years) {
    const isOpen = year === OPEN_YEAR;
    const writer = isOpen ? options.openYear : options.history;
    const balances = new Map<number, bigint>();
    const post = (entry: EntryHeader, lines: readonly PostedLine[]) => {
      const journalEntry = counters.next('JRNENTRY');
      const glAudit = `GLTRX${pad8(counters.next('GLTRX'))}`;
      const postedDate = dateOnly(entry.postedMs);
      lines.forEach((line, i) => {
        balances.set(line.accountIndex, (balances.get(line.accountIndex) ?? 0n) + line.debit - line.credit);
        writer.insert({
          OPENYEAR: isOpen ? year : undefined,
          HSTYEAR: isOpen ? undefined : year,
          // The base ledger; GP 2013 and later post reporting ledgers' adjustments with other ids.
          Ledger_ID: 1,
          JRNENTRY: journalEntry,
          SOURCDOC: line.sourceDocument,
          REFRENCE: entry.reference,
          DSCRIPTN: line.description,
          TRXDATE: entry.date,
          TRXSORCE: glAudit,
          ACTINDX: line.accountIndex,
          LASTUSER: entry.user,
          LSTDTEDT: postedDate,
          USWHPSTD: entry.user,
          ORGNTSRC: entry.batch,
          ORTRXSRC: entry.originatingAudit || glAudit,
          OrigDTASeries: entry.series - 1,
          SERIES: entry.series,
          ORTRXTYP: entry.documentType,
          ORCTRNUM: entry.controlNumber,
          ORMSTRID: entry.master?.id ?? '',
          ORMSTRNM: entry.master?.name ?? '',
          ORDOCNUM: entry.documentNumber,
          ORPSTDDT: entry.subledgerPostedDate,
          SEQNUMBR: (i + 1) * LINE_SEQUENCE_STEP,
          PERIODID: entry.period,
          DEBITAMT: line.debit,
          CRDTAMNT: line.credit,
          ORDBTAMT: line.origDebit,
          ORCRDAMT: line.origCredit,
          CURNCYID: entry.currencyId,
          CURRNIDX: CURRENCY_INDEX[entry.currencyId] ?? 0,
          VOIDED: entry.voided ? 1 : 0,
          // Lines of one posting land within a few milliseconds of each other.
          DEX_ROW_TS: rowTimestamp(Math.min(DEMO_TIMELINE_END_MS, entry.postedMs + i * 3)),
        });
      });
      progress.tick(lines.length);
    };

    post(closingHeader(year, year === years[0]), carriedForward);

    const target = Math.round((glLineTarget(scale) * daysOf(year)) / totalDays);
    const yearStart = Date.UTC(year, 0, 1);
    const context = { rng, chart, customers: isOpen ? activeCustomers : customers };
    for (let written = 0; written < target;) {
      // Dates advance with the year's progress; some entries are back-dated a few days.
      const day = Math.floor((written / target) * daysOf(year)) - (rng.chance(0.15) ? rng.int(1, 5) : 0);
      const trxMs = addDays(yearStart, Math.max(0, day));
      const draft = draftJournalEntry(rng.weighted(KIND_WEIGHTS), context);
      const header = regularHeader(rng, counters, draft, trxMs);
      const lines = toFunctional(draft);
      post(header, lines);
      options.onPosted?.({ kind: draft.kind, trxMs, header, lines });
      written += lines.length;
    }
    carriedForward = yearEndClose(chart, balances);
  }
}

export interface EntryHeader {
  series: number;
  reference: string;
  date: string;
  period: number;
  postedMs: number;
  user: string;
  batch: string;
  originatingAudit: string;
  documentType: number;
  controlNumber: string;
  documentNumber: string;
  subledgerPostedDate: string;
  master?: { id: string; name: string } | undefined;
  currencyId: string;
  voided: boolean;
}

function regularHeader(rng: Rng, counters: Counters, draft: JournalEntryDraft, trxMs: number): EntryHeader {
  const lagDays = rng.weighted([
    [0, 50],
    [rng.int(1, 3), 35],
    [rng.int(4, 15), 15],
  ] as const);
  let postedMs = addDays(trxMs, lagDays) + businessTimeOfDayMs(rng) + rng.int(0, 999);
  if (postedMs > DEMO_TIMELINE_END_MS) postedMs = DEMO_TIMELINE_END_MS - rng.int(0, 3_600_000);
  const subledger = SUBLEDGER[draft.kind];
  const day = isoDay(trxMs);
  const audit = subledger.audit ? `${subledger.audit}${pad8(counters.next(subledger.audit))}` : '';
  const { documentNumber, controlNumber } = documentNumbers(rng, counters, draft.kind);
  return {
    series: draft.series,
    reference: draft.reference,
    date: gpDate(day),
    period: Number(day.slice(5, 7)),
    postedMs: clampToTimeline(postedMs),
    user: rng.pick(POSTING_USERS),
    batch: `${subledger.batch}${day.replaceAll('-', '')}`,
    originatingAudit: audit,
    documentType: draft.documentType,
    controlNumber,
    documentNumber,
    subledgerPostedDate: draft.kind === 'GJ' ? GP_EMPTY_DATE : dateOnly(postedMs),
    master: draft.master,
    currencyId: draft.currencyId,
    voided: rng.chance(0.005),
  };
}

function documentNumbers(rng: Rng, counters: Counters, kind: JournalEntryKind): { documentNumber: string; controlNumber: string } {
  switch (kind) {
    case 'SJ':
    case 'CRJ':
    case 'IVADJ': {
      const number = `${SUBLEDGER[kind].document}${pad8(counters.next(kind))}`;
      return { documentNumber: number, controlNumber: number };
    }
    case 'PJ':
      return { documentNumber: `V${rng.int(10000, 99999)}`, controlNumber: String(counters.next('voucher')).padStart(17, '0') };
    case 'CDJ':
      return { documentNumber: pad8(counters.next('check')), controlNumber: String(counters.next('payment')).padStart(17, '0') };
    case 'GJ':
      return { documentNumber: '', controlNumber: '' };
  }
}

/** Header of the period-0 entry that opens a year (go-live balances, or last year's close). */
function closingHeader(year: number, isGoLive: boolean): EntryHeader {
  return {
    series: 2,
    reference: isGoLive ? 'Opening balances' : 'Year-End Close',
    date: gpDate(`${year}-01-01`),
    period: 0,
    postedMs: clampToTimeline(isGoLive ? Date.UTC(year, 0, 2, 15) : yearEndCloseMs(year - 1)),
    user: 'sa',
    batch: '',
    originatingAudit: '',
    documentType: 0,
    controlNumber: '',
    documentNumber: '',
    subledgerPostedDate: GP_EMPTY_DATE,
    currencyId: FUNCTIONAL_CURRENCY,
    voided: false,
  };
}

function openingBalances(chart: ChartOfAccounts): PostedLine[] {
  const signed = chart.all
    .filter((a) => a.openingCents !== undefined)
    .map((a) => ({ index: a.index, amount: BigInt(a.openingCents ?? 0) * CENTS_TO_SCALED }));
  const plug = -signed.reduce((sum, line) => sum + line.amount, 0n);
  signed.push({ index: chart.one('retainedEarnings').index, amount: plug });
  return signed.map(({ index, amount }) => signedLine(index, amount, 'BBF'));
}

/**
 * GP's year-end close: every balance sheet account's balance is brought forward (BBF) and the
 * net of the P&L accounts goes to Retained Earnings (P/L). The lines sum to the year's trial
 * balance, which is zero, so the entry balances.
 */
function yearEndClose(chart: ChartOfAccounts, balances: ReadonlyMap<number, bigint>): PostedLine[] {
  const lines: PostedLine[] = [];
  let profitAndLoss = 0n;
  for (const account of chart.all) {
    const balance = balances.get(account.index) ?? 0n;
    if (balance === 0n) continue;
    if (account.postingType === 1) profitAndLoss += balance;
    else lines.push(signedLine(account.index, balance, 'BBF'));
  }
  if (profitAndLoss !== 0n) lines.push(signedLine(chart.one('retainedEarnings').index, profitAndLoss, 'P/L'));
  return lines;
}

function signedLine(accountIndex: number, amount: bigint, sourceDocument: string): PostedLine {
  const debit = amount > 0n ? amount : 0n;
  const credit = amount < 0n ? -amount : 0n;
  return { accountIndex, debit, credit, origDebit: debit, origCredit: credit, description: '', sourceDocument };
}

/**
 * Converts each line to functional currency (rounded half-up to the cent); a rounding difference
 * goes onto the largest line of the short side, as GP posts it to keep the entry in balance.
 */
function toFunctional(draft: JournalEntryDraft): PostedLine[] {
  const rate = EXCHANGE_RATES[draft.currencyId];
  if (rate === undefined) throw new Error(`no exchange rate for ${draft.currencyId}`);
  const convert = (cents: bigint) => (cents * rate + RATE_ONE / 2n) / RATE_ONE;
  const functional = draft.lines.map((line: DraftLine) => ({ line, debit: convert(line.debitCents), credit: convert(line.creditCents) }));
  const difference = functional.reduce((sum, l) => sum + l.debit - l.credit, 0n);
  if (difference !== 0n) {
    const side = difference > 0n ? 'credit' : 'debit';
    const largest = functional.reduce((best, l) => (l[side] > best[side] ? l : best));
    largest[side] += difference > 0n ? difference : -difference;
  }
  return functional.map(({ line, debit, credit }) => ({
    accountIndex: line.account.index,
    debit: debit * CENTS_TO_SCALED,
    credit: credit * CENTS_TO_SCALED,
    origDebit: line.debitCents * CENTS_TO_SCALED,
    origCredit: line.creditCents * CENTS_TO_SCALED,
    description: line.description,
    sourceDocument: draft.sourceDocument,
  }));
}

/** Document and audit-trail sequences, each counting from its own start. */
class Counters {
  readonly #values = new Map<string, number>();

  next(name: string): number {
    const value = (this.#values.get(name) ?? 1000) + 1;
    this.#values.set(name, value);
    return value;
  }
}

function pad8(value: number): string {
  return String(value).padStart(8, '0');
}
