/**
 * GP table shapes, declared once, one file per GP module. The SQLite schema (sqliteSchema.ts), the
 * demo generator, the SQL Server test schema and the agent's SQLite reader all derive from these
 * entries, so adding a GP table means declaring it in its module and listing it here. Names, types
 * and lengths are GP's own (GP 2015 DDL), but not all of GP: the tables the API reads and the demo
 * needs, and of some wide tables only part of their columns, as their entries say.
 */
import { DEFAULT_ACCOUNT_FRAMEWORK, type AccountFramework } from '../accountFramework.ts';
import type { GpTable } from '../gpTable.ts';
import { CM00100 } from './bankReconciliation.ts';
import { accountTables, GL00100, GL00105, GL20000, GL30000 } from './generalLedger.ts';
import { IV00101, IV00102, IV00108, IV40201, IV40202, IV40700, IV40800 } from './inventory.ts';
import { PM00200, PM00300, PM20000, PM30200 } from './payables.ts';
import { POP10100, POP10110, POP30100, POP30110 } from './purchasing.ts';
import { RM00101, RM00102, RM00301, RM20101, RM30101 } from './receivables.ts';
import { SOP10100, SOP10200, SOP30200, SOP30300 } from './sales.ts';
import { SY003001, SY00302, SY00500, SY01500, SY03300, SY40100, SY40101 } from './system.ts';
import {
  GL10000,
  GL10001,
  GL40000,
  PM10000,
  PM10100,
  PM40100,
  RM00103,
  RM10101,
  RM10301,
  RM40401,
  SOP40200,
  SOP40300,
  SY01100,
} from './work.ts';

/**
 * Every table, keyed by name. The order is the order each database file creates its tables in (and
 * the demo reports its row counts in), so a new table goes at the end rather than beside its module.
 */
export const GP_TABLES = {
  SY01500,
  RM00101,
  RM00102,
  GL00100,
  GL00105,
  GL20000,
  GL30000,
  SY40101,
  SY40100,
  SY03300,
  RM00301,
  CM00100,
  IV40700,
  SY00500,
  PM00200,
  PM00300,
  IV00101,
  IV00102,
  IV40201,
  IV40202,
  IV40800,
  IV00108,
  RM20101,
  RM30101,
  PM20000,
  PM30200,
  SOP10100,
  SOP10200,
  SOP30200,
  SOP30300,
  POP10100,
  POP10110,
  POP30100,
  POP30110,
  RM00103,
  RM10301,
  PM10000,
  GL10000,
  GL10001,
  SOP40200,
  RM40401,
  PM40100,
  GL40000,
  RM10101,
  PM10100,
  SY01100,
  SOP40300,
  SY003001,
  SY00302,
} satisfies Record<string, GpTable>;

export type GpTableName = keyof typeof GP_TABLES;

/**
 * Every table as a GP install with this account framework has it: GP_TABLES, with the account
 * tables' segment columns and indexes those of the framework (accountTables).
 */
export function gpTablesFor(framework: AccountFramework): Readonly<Record<GpTableName, GpTable>> {
  return framework === DEFAULT_ACCOUNT_FRAMEWORK ? GP_TABLES : { ...GP_TABLES, ...accountTables(framework) };
}

/** The tables of one kind of database, in declaration order, in this account framework. */
export function gpTablesOf(database: GpTable['database'], framework: AccountFramework = DEFAULT_ACCOUNT_FRAMEWORK): GpTable[] {
  return Object.values(gpTablesFor(framework)).filter((t) => t.database === database);
}
