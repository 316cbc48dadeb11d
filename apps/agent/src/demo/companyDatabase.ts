/** <INTERID>.sqlite: one GP company database with customers, accounts, GL and fiscal years. */
import { GP_TABLES, gpTablesOf } from '../gp/tables.ts';
import { finishBuild, inTransaction, openForBuild } from './buildDatabase.ts';
import { ChartOfAccounts, writeChartOfAccounts } from './chartOfAccounts.ts';
import type { DemoCompany } from './companies.ts';
import { writeCustomers } from './customers.ts';
import { writeFiscalYears } from './fiscalYears.ts';
import { glLineTarget, writeGeneralLedger } from './generalLedger.ts';
import { createRng } from './prng.ts';
import { startPhase } from './progress.ts';
import type { ProgressListener } from './progress.ts';
import { createTableWriter } from './tableWriter.ts';

export const CUSTOMERS_PER_SCALE = 500;

export interface BuildCompanyOptions {
  seed: number;
  scale: number;
  onProgress?: ProgressListener | undefined;
}

export function buildCompanyDatabase(path: string, company: DemoCompany, options: BuildCompanyOptions): Record<string, number> {
  const { seed, scale, onProgress } = options;
  const tables = gpTablesOf('company');
  const db = openForBuild(path, tables);
  try {
    const writers = {
      customers: createTableWriter(db, GP_TABLES.RM00101),
      addresses: createTableWriter(db, GP_TABLES.RM00102),
      accounts: createTableWriter(db, GP_TABLES.GL00100),
      accountNumbers: createTableWriter(db, GP_TABLES.GL00105),
      openYear: createTableWriter(db, GP_TABLES.GL20000),
      history: createTableWriter(db, GP_TABLES.GL30000),
      fiscalYears: createTableWriter(db, GP_TABLES.SY40101),
    };
    // Each phase draws from its own stream, so e.g. more customers do not reshuffle the accounts.
    const rng = (phase: string) => createRng(seed, company.id, phase);

    const customerCount = CUSTOMERS_PER_SCALE * scale;
    const customerProgress = startPhase(onProgress, `${company.id} customers`, customerCount * 2);
    const customers = inTransaction(db, () =>
      writeCustomers({ rng: rng('customers'), count: customerCount, customers: writers.customers, addresses: writers.addresses, progress: customerProgress }),
    );
    customerProgress.finish();

    const chart = new ChartOfAccounts(inTransaction(db, () => writeChartOfAccounts(rng('accounts'), writers.accounts, writers.accountNumbers)));
    inTransaction(db, () => writeFiscalYears(writers.fiscalYears));

    const ledgerProgress = startPhase(onProgress, `${company.id} general ledger`, glLineTarget(scale));
    inTransaction(db, () =>
      writeGeneralLedger({ rng: rng('ledger'), chart, customers, scale, openYear: writers.openYear, history: writers.history, progress: ledgerProgress }),
    );
    ledgerProgress.finish();

    const indexProgress = startPhase(onProgress, `${company.id} indexes`, 1);
    finishBuild(db, tables);
    indexProgress.tick();
    indexProgress.finish();

    return Object.fromEntries(Object.values(writers).map((w) => [w.table.name, w.rowCount]));
  } finally {
    if (db.open) db.close();
  }
}
