/**
 * <INTERID>.sqlite: one GP company database. Master data first (customers, accounts, fiscal
 * calendar, setup tables, vendors, items), then the general ledger, whose subledger entries become
 * the receivables and payables documents, then sales and purchase orders, and last the batches all
 * those documents were entered in.
 */
import type Database from 'better-sqlite3';
import { gpTablesOf, type AccountFramework, type GpTable, type GpTableName } from '@gp-gateway/gp-schema';
import { BatchBook } from './batches.ts';
import { finishBuild, inTransaction, openForBuild } from './buildDatabase.ts';
import { ChartOfAccounts, writeChartOfAccounts } from './chartOfAccounts.ts';
import type { DemoCompany } from './companies.ts';
import { writeCustomers } from './customers.ts';
import { writeFiscalPeriods, writeFiscalYears } from './fiscalYears.ts';
import { glLineTarget, writeGeneralLedger } from './generalLedger.ts';
import { ITEMS_PER_SCALE, writeItems } from './items.ts';
import { writePriceLists } from './priceLists.ts';
import { createRng } from './prng.ts';
import { startPhase } from './progress.ts';
import type { ProgressListener } from './progress.ts';
import { PAYABLE_EXTRAS_PER_SCALE, writePayables } from './payableDocuments.ts';
import { PURCHASE_ORDERS_PER_SCALE, writePurchaseOrders } from './purchasing.ts';
import { RECEIVABLE_EXTRAS_PER_SCALE, writeReceivables } from './receivableDocuments.ts';
import { SALES_DOCUMENTS_PER_SCALE, writeSales } from './sales.ts';
import { SETUP_DATE, writeCheckbooks, writePaymentTerms, writePostingAccounts, writeSalespeople, writeSites } from './setup.ts';
import { SubledgerCollector } from './subledgers.ts';
import { writeNumbering, writeUnposted } from './numbering.ts';
import { createTableWriter } from './tableWriter.ts';
import type { TableWriter } from './tableWriter.ts';
import { VENDORS_PER_SCALE, writeVendors } from './vendors.ts';

const CUSTOMERS_PER_SCALE = 500;

export interface BuildCompanyOptions {
  seed: number;
  scale: number;
  /** The install's account framework: the segment columns of GL00100 and GL00105. */
  framework: AccountFramework;
  onProgress?: ProgressListener | undefined;
}

export function buildCompanyDatabase(path: string, company: DemoCompany, options: BuildCompanyOptions): Record<string, number> {
  const { seed, scale, framework, onProgress } = options;
  const tables = gpTablesOf('company', framework);
  const db = openForBuild(path, tables);
  try {
    const writers = companyWriters(db, tables);
    // Each phase draws from its own stream, so e.g. more customers do not reshuffle the accounts.
    const rng = (phase: string) => createRng(seed, company.id, phase);
    const phase = <T>(name: string, total: number, work: (progress: ReturnType<typeof startPhase>) => T): T => {
      const progress = startPhase(onProgress, `${company.id} ${name}`, total);
      const result = inTransaction(db, () => work(progress));
      progress.finish();
      return result;
    };

    const customerCount = CUSTOMERS_PER_SCALE * scale;
    const customers = phase('customers', customerCount * 2, (progress) =>
      writeCustomers({ rng: rng('customers'), count: customerCount, customers: writers.RM00101, addresses: writers.RM00102, progress }),
    );

    const chart = new ChartOfAccounts(
      inTransaction(db, () => writeChartOfAccounts(rng('accounts'), framework, writers.GL00100, writers.GL00105)),
    );
    inTransaction(db, () => {
      writeFiscalYears(writers.SY40101);
      writeFiscalPeriods(rng('fiscal-periods'), writers.SY40100);
    });

    const vendorCount = VENDORS_PER_SCALE * scale;
    const itemCount = ITEMS_PER_SCALE * scale;
    const { vendors, items } = phase('master data', vendorCount * 2 + itemCount * 3, (progress) => {
      writePaymentTerms(rng('payment-terms'), writers.SY03300);
      writeSalespeople(rng('salespeople'), writers.RM00301);
      writeSites(writers.IV40700);
      writePostingAccounts(chart, writers.SY01100);
      const vendors = writeVendors({
        rng: rng('vendors'),
        count: vendorCount,
        chart,
        vendors: writers.PM00200,
        addresses: writers.PM00300,
        progress,
      });
      const items = writeItems({
        rng: rng('items'),
        count: itemCount,
        chart,
        vendors,
        items: writers.IV00101,
        quantities: writers.IV00102,
        progress,
      });
      writePriceLists({
        items,
        schedules: writers.IV40201,
        units: writers.IV40202,
        levels: writers.IV40800,
        prices: writers.IV00108,
        createdOn: SETUP_DATE,
      });
      return { vendors, items };
    });

    const subledgers = new SubledgerCollector(chart, customers, vendors);
    phase('general ledger', glLineTarget(scale), (progress) =>
      writeGeneralLedger({
        rng: rng('ledger'),
        chart,
        customers,
        scale,
        openYear: writers.GL20000,
        history: writers.GL30000,
        progress,
        onPosted: subledgers.onPosted,
      }),
    );

    const batches = new BatchBook();
    const documentCount =
      subledgers.receivables.length + subledgers.payables.length + (RECEIVABLE_EXTRAS_PER_SCALE + PAYABLE_EXTRAS_PER_SCALE) * scale;
    phase('receivables and payables', documentCount, (progress) => {
      writeReceivables({
        rng: rng('receivables'),
        scale,
        drafts: subledgers.receivables,
        customers,
        open: writers.RM20101,
        history: writers.RM30101,
        batches,
        progress,
      });
      const nextCheck = writePayables({
        rng: rng('payables'),
        scale,
        drafts: subledgers.payables,
        vendors,
        open: writers.PM20000,
        history: writers.PM30200,
        batches,
        progress,
      });
      for (const entry of subledgers.journalBatches)
        batches.add('GL_Normal', entry.batch, entry.dateMs, entry.amount, { user: entry.user });
      writeCheckbooks(rng('checkbooks'), db, chart, writers.CM00100, nextCheck);
    });

    phase('sales orders', SALES_DOCUMENTS_PER_SCALE * scale * 4, (progress) =>
      writeSales({
        rng: rng('sales'),
        scale,
        customers,
        items,
        work: { headers: writers.SOP10100, lines: writers.SOP10200 },
        history: { headers: writers.SOP30200, lines: writers.SOP30300 },
        batches,
        progress,
      }),
    );

    phase('purchase orders', PURCHASE_ORDERS_PER_SCALE * scale * 4, (progress) => {
      writePurchaseOrders({
        rng: rng('purchasing'),
        scale,
        company,
        vendors,
        items,
        customers,
        open: { headers: writers.POP10100, lines: writers.POP10110 },
        history: { headers: writers.POP30100, lines: writers.POP30110 },
        progress,
      });
      const batchRng = rng('batches');
      batches.addRecurring(batchRng);
      batches.write(batchRng, writers.SY00500);
      writeUnposted(db, writers, company.id);
      writeNumbering(db, writers);
    });

    const indexProgress = startPhase(onProgress, `${company.id} indexes`, 1);
    finishBuild(db, tables);
    indexProgress.tick();
    indexProgress.finish();

    return Object.fromEntries(tables.map((t) => [t.name, writers[t.name as GpTableName].rowCount]));
  } finally {
    if (db.open) db.close();
  }
}

/** One writer per company table, keyed by table name (the system tables have none). */
function companyWriters(db: Database.Database, tables: readonly GpTable[]): Record<GpTableName, TableWriter> {
  const writers = Object.fromEntries(tables.map((table) => [table.name, createTableWriter(db, table)]));
  return writers as Record<GpTableName, TableWriter>;
}
