/**
 * Batches (SY00500). Every document a generator writes registers its batch here, so each
 * BACHNUMB/BCHSOURC a document carries exists, with NUMOFTRX and BCHTOTAL equal to the count and
 * functional total of its documents. Demo quirk: GP deletes a single-use batch once it is posted;
 * the demo keeps them (BCHSTTUS 0, not marked) so documents' batch ids resolve.
 */
import { GP_EMPTY_DATE } from '@gp-gateway/gp-schema';
import { DAY_MS, DEMO_TIMELINE_END_MS, dateOnly, dayStartMs } from './clock.ts';
import { FUNCTIONAL_CURRENCY, randomAmount } from './money.ts';
import type { Rng } from './prng.ts';
import type { TableWriter } from './tableWriter.ts';

/** BCHSOURC values and their SERIES (2 Financial, 3 Sales, 4 Purchasing). */
const BATCH_SOURCES = {
  GL_Normal: 2,
  RM_Sales: 3,
  RM_Cash: 3,
  'Sales Entry': 3,
  PM_Trxent: 4,
  PM_Payment: 4,
} as const;

export type BatchSource = keyof typeof BATCH_SOURCES;

interface Batch {
  source: BatchSource;
  number: string;
  count: number;
  total: bigint;
  firstMs: number;
  lastMs: number;
  user: string;
  checkbookId: string;
  /** Holds documents not posted yet (SOP work documents, recurring GL entries). */
  unposted: boolean;
  frequency: number;
  comment: string;
}

const COMMENTS: Record<BatchSource, string> = {
  GL_Normal: 'General journal entries',
  RM_Sales: 'Receivables transactions',
  RM_Cash: 'Cash receipts',
  'Sales Entry': 'Sales order processing',
  PM_Trxent: 'Payables vouchers',
  PM_Payment: 'Checks and payments',
};

export class BatchBook {
  readonly #batches = new Map<string, Batch>();

  /** Registers one document of `amount` (functional) dated `dateMs` in batch `number`. */
  add(
    source: BatchSource,
    number: string,
    dateMs: number,
    amount: bigint,
    options: { user?: string; checkbookId?: string; unposted?: boolean } = {},
  ): void {
    if (!number) throw new Error(`${source}: a document needs a batch number`);
    const key = `${source}\u0000${number}`;
    const batch = this.#batches.get(key) ?? {
      source,
      number,
      count: 0,
      total: 0n,
      firstMs: dateMs,
      lastMs: dateMs,
      user: options.user ?? 'sa',
      checkbookId: options.checkbookId ?? '',
      unposted: false,
      frequency: 1,
      comment: COMMENTS[source],
    };
    batch.count++;
    batch.total += amount;
    batch.firstMs = Math.min(batch.firstMs, dateMs);
    batch.lastMs = Math.max(batch.lastMs, dateMs);
    batch.unposted ||= options.unposted === true;
    this.#batches.set(key, batch);
  }

  /** Recurring GL batches, kept in SY00500 between postings as GP keeps them. */
  addRecurring(rng: Rng): void {
    const recurring = [
      { number: 'MONTHLY DEPR', frequency: 5, comment: 'Monthly depreciation', min: 2_000, max: 9_000, count: 3 },
      { number: 'PAYROLL ACCR', frequency: 4, comment: 'Semimonthly payroll accrual', min: 20_000, max: 60_000, count: 2 },
      { number: 'QTR INSURANCE', frequency: 7, comment: 'Quarterly insurance amortization', min: 1_000, max: 4_000, count: 1 },
      { number: 'RENT', frequency: 5, comment: 'Monthly rent', min: 8_000, max: 8_000, count: 1 },
    ];
    for (const r of recurring) {
      const dateMs = dayStartMs(DEMO_TIMELINE_END_MS) - rng.int(0, 20) * DAY_MS;
      let total = 0n;
      for (let i = 0; i < r.count; i++) total += randomAmount(rng, r.min, r.max);
      this.#batches.set(`GL_Normal\u0000${r.number}`, {
        source: 'GL_Normal',
        number: r.number,
        count: r.count,
        total,
        firstMs: Date.UTC(2024, 0, 31),
        lastMs: dateMs,
        user: 'sa',
        checkbookId: '',
        unposted: true,
        frequency: r.frequency,
        comment: r.comment,
      });
    }
  }

  get size(): number {
    return this.#batches.size;
  }

  write(rng: Rng, writer: TableWriter): void {
    const batches = [...this.#batches.values()].sort(
      (a, b) => a.firstMs - b.firstMs || a.source.localeCompare(b.source) || a.number.localeCompare(b.number),
    );
    const recentMs = dayStartMs(DEMO_TIMELINE_END_MS) - 21 * DAY_MS;
    for (const batch of batches) {
      // Unposted batches from the last weeks are often marked, waiting for the posting run.
      const marked = batch.unposted && batch.lastMs >= recentMs && rng.chance(0.6);
      const controlled = rng.chance(0.3);
      writer.insert({
        GLPOSTDT: dateOnly(batch.lastMs),
        BCHSOURC: batch.source,
        BACHNUMB: batch.number,
        SERIES: BATCH_SOURCES[batch.source],
        MKDTOPST: marked ? 1 : 0,
        NUMOFTRX: batch.count,
        BACHFREQ: batch.frequency,
        RCLPSTDT: batch.frequency > 1 ? dateOnly(batch.lastMs) : GP_EMPTY_DATE,
        NOFPSTGS: batch.frequency > 1 ? rng.int(10, 30) : 0,
        BCHCOMNT: batch.comment,
        BRKDNALL: 0,
        CHKSPRTD: 0,
        USERID: marked ? batch.user : '',
        CHEKBKID: batch.checkbookId,
        BCHTOTAL: batch.total,
        BACHDATE: dateOnly(batch.firstMs),
        POSTTOGL: 1,
        MODIFDT: dateOnly(batch.lastMs),
        CREATDDT: dateOnly(batch.firstMs),
        CURNCYID: FUNCTIONAL_CURRENCY,
        // BCHSTTUS 0 Available, 1 marked for posting.
        BCHSTTUS: marked ? 1 : 0,
        CNTRLTRX: controlled ? batch.count : 0,
        CNTRLTOT: controlled ? batch.total : 0n,
        ORIGIN: 1,
      });
    }
  }
}
