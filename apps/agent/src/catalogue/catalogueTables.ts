import { ACCOUNT_FRAMEWORK_TABLES } from './accountFramework.ts';
import { CATALOGUE } from './index.ts';
import { WORK_READS } from './resources/work.ts';

/**
 * Every table the catalogue reads, by database, sorted: what the read-only role is granted
 * (mssql/readOnlyRole.ts) and what `gp-agent diagnose` checks the login may read.
 */
export function catalogueTables(): { system: string[]; company: string[] } {
  const system = new Set<string>();
  const company = new Set<string>();
  // The work tables too: lists of unposted documents and gets read them (catalogue/resources/work.ts).
  for (const def of [...Object.values(CATALOGUE), ...Object.values(WORK_READS).map((w) => w.def)]) {
    const into = def.database === 'system' ? system : company;
    for (const source of def.sources) into.add(source.table);
    // Joined tables live in the same database as the main table (the dialect qualifies them alike).
    for (const join of def.joins ?? []) into.add(join.table);
  }
  // The account framework, which the accounts' keys are built from (catalogue/accountFramework.ts).
  for (const table of ACCOUNT_FRAMEWORK_TABLES) system.add(table);
  return { system: [...system].sort(), company: [...company].sort() };
}
