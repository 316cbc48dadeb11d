// GP's tables as declared data, and how they are stored in SQLite: what the agent reads and the
// demo generator writes.
export type { GpColumn, GpColumnType, GpTable } from './gpTable.ts';
export { accountIndexes, GP_INDEXES, type GpIndex } from './gpIndexes.ts';
export {
  AccountFrameworkError,
  accountSegmentNames,
  checkedAccountFramework,
  DEFAULT_ACCOUNT_FRAMEWORK,
  MAX_ACCOUNT_LENGTH,
  MAX_ACCOUNT_SEGMENTS,
  type AccountFramework,
} from './accountFramework.ts';
export { DEX_ROW_ID, DEX_ROW_TS } from './gpTable.ts';
export { isGpCompanyId, parseCompaniesOption } from './companyIds.ts';
export { GP_TABLES, gpTablesFor, gpTablesOf, type GpTableName } from './tables/index.ts';
export { accountTables } from './tables/generalLedger.ts';
export { MC40200 } from './tables/system.ts';
export {
  isRowIdKey,
  sqliteCreateIndexes,
  sqliteCreateTable,
  sqliteCreateTriggers,
  sqliteDdl,
  sqliteSchemaVersion,
} from './sqliteSchema.ts';
// The value encoding, whole: the demo generator writes with these helpers and the agent reads with them.
export * from './sqliteValues.ts';
