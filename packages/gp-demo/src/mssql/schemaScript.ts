import {
  DEFAULT_ACCOUNT_FRAMEWORK,
  DEX_ROW_ID,
  DEX_ROW_TS,
  gpTablesOf,
  isGpCompanyId,
  type AccountFramework,
  type GpColumn,
  type GpIndex,
  type GpTable,
} from '@gp-gateway/gp-schema';
import { SYSTEM_DATABASE_NAME } from '../generator/companies.ts';
import { tsqlName } from './tsqlName.ts';

/**
 * A T-SQL script that creates GP-shaped databases on SQL Server from the same table declarations
 * as the embedded demo (@gp-gateway/gp-schema): DYNAMICS with SY01500, and one database per company,
 * with GP's own column types and defaults, so that the demo data can be loaded into a real SQL Server
 * and the same contract suite run against both dialects. Not a copy of GP's DDL: only the tables and
 * columns gp-schema declares, plus GP's own keys and indexes of them and the DEX_ROW_TS triggers.
 */
const q = tsqlName;

function columnType(column: GpColumn): string {
  switch (column.type) {
    case 'char':
      return `char(${column.length ?? 1})`;
    case 'numeric':
      return 'numeric(19,5)';
    default:
      return column.type;
  }
}

/** GP's bound defaults (GPS_CHAR, GPS_INT, GPS_MONEY, GPS_DATE): every column NOT NULL. */
function columnDefault(column: GpColumn): string {
  switch (column.type) {
    case 'char':
      return "''";
    case 'datetime':
      return "'19000101'";
    default:
      return '0';
  }
}

function columnDefinition(column: GpColumn): string {
  if (column.name === DEX_ROW_ID) return `${q(DEX_ROW_ID)} int IDENTITY(1,1) NOT NULL`;
  if (column.name === DEX_ROW_TS) return `${q(DEX_ROW_TS)} datetime NOT NULL DEFAULT (getutcdate())`;
  return `${q(column.name)} ${columnType(column)} NOT NULL DEFAULT (${columnDefault(column)})`;
}

/** The statements that create one table in the current database, GO-separated batches. */
export function createTableBatches(table: GpTable): string[] {
  const batches: string[] = [];
  const columns = table.columns.map((c) => `  ${columnDefinition(c)}`);
  // Exactly GP's keys and indexes (gp-schema's gpIndexes.ts): a heap unless GP clusters an index.
  const indexes = table.indexes ?? [];
  const primaryKey = indexes.find((index) => index.primaryKey);
  if (!primaryKey) throw new Error(`${table.name} has no primary key`);
  const kind = (index: GpIndex) => (index.clustered ? 'CLUSTERED' : 'NONCLUSTERED');
  const key = `  CONSTRAINT ${q(primaryKey.name)} PRIMARY KEY ${kind(primaryKey)} (${primaryKey.columns.map(q).join(', ')})`;
  batches.push(`CREATE TABLE [dbo].${q(table.name)} (\n${[...columns, key].join(',\n')}\n)`);
  for (const index of indexes) {
    if (index.primaryKey) continue;
    const unique = index.unique ? 'UNIQUE ' : '';
    batches.push(`CREATE ${unique}${kind(index)} INDEX ${q(index.name)} ON [dbo].${q(table.name)} (${index.columns.map(q).join(', ')})`);
  }
  // Rows are found through GP's primary key: DEX_ROW_ID is indexed only where GP indexes it.
  const sameKey = (columns: readonly string[], other: string) => columns.map((c) => `t.${q(c)} = ${other}.${q(c)}`).join(' AND ');
  if (table.hasRowTs) {
    // As GP's zDT_<table>U triggers: any update stamps the row with the current UTC time.
    batches.push(
      `CREATE TRIGGER [dbo].${q(`zDT_${table.name}U`)} ON [dbo].${q(table.name)} AFTER UPDATE AS\n` +
        `SET NOCOUNT ON;\n` +
        `UPDATE t SET ${q(DEX_ROW_TS)} = GETUTCDATE() FROM [dbo].${q(table.name)} AS t ` +
        `INNER JOIN inserted AS i ON ${sameKey(primaryKey.columns, 'i')}`,
    );
  }
  const parent = table.bumpsParentRowTs;
  if (parent) {
    // As the embedded demo's (and GP's) triggers: a change to a child row (an address, a site's
    // quantities) stamps its parent, whose DEX_ROW_TS is what updatedSince reads.
    batches.push(
      `CREATE TRIGGER [dbo].${q(`zDT_${table.name}_${parent.table}`)} ON [dbo].${q(table.name)} AFTER INSERT, UPDATE, DELETE AS\n` +
        `SET NOCOUNT ON;\n` +
        `UPDATE t SET ${q(DEX_ROW_TS)} = GETUTCDATE() FROM [dbo].${q(parent.table)} AS t ` +
        `WHERE EXISTS (SELECT 1 FROM inserted AS i WHERE ${sameKey(parent.key, 'i')}) ` +
        `OR EXISTS (SELECT 1 FROM deleted AS d WHERE ${sameKey(parent.key, 'd')})`,
    );
  }
  return batches;
}

/**
 * SY00100 as GP 2013 and later have it in each company database: the name of the system database
 * the company belongs to (one row, the company's CMPANYID). Not in gp-schema: no list reads it, and
 * the embedded demo has one system database only; the agent's diagnose reads it on SQL Server.
 */
const SY00100 =
  "CREATE TABLE [dbo].[SY00100] (\n  [CMPANYID] smallint NOT NULL DEFAULT (0),\n  [DBNAME] char(11) NOT NULL DEFAULT (''),\n" +
  '  [DEX_ROW_ID] int IDENTITY(1,1) NOT NULL,\n  CONSTRAINT [PKSY00100] PRIMARY KEY CLUSTERED ([CMPANYID])\n)';

/** A name GP accepts for a named system database: up to 10 letters, digits or _, not starting with a digit. */
const SYSTEM_DATABASE = /^[A-Za-z_][A-Za-z0-9_]{0,9}$/;

/**
 * The whole script: databases (created if missing) and their tables. `systemDatabase` is the name
 * of GP's system database (DYNAMICS unless GP was installed with a named one); `framework` the
 * install's account framework, which gives GL00100 and GL00105 their segment columns.
 */
export function schemaScript(
  companies: readonly string[],
  systemDatabase: string = SYSTEM_DATABASE_NAME,
  framework: AccountFramework = DEFAULT_ACCOUNT_FRAMEWORK,
): string {
  if (!SYSTEM_DATABASE.test(systemDatabase)) throw new Error(`not a GP system database name: ${systemDatabase}`);
  const out: string[] = [];
  const database = (name: string, tables: GpTable[]) => {
    out.push(`IF DB_ID(N'${name}') IS NULL CREATE DATABASE ${q(name)}`, `USE ${q(name)}`);
    for (const table of tables) out.push(...createTableBatches(table));
  };
  database(systemDatabase, gpTablesOf('system'));
  for (const company of companies) {
    if (!isGpCompanyId(company)) throw new Error(`not a GP company id: ${company}`);
    database(company, gpTablesOf('company', framework));
    out.push(SY00100, `CREATE UNIQUE NONCLUSTERED INDEX [AK2SY00100] ON [dbo].[SY00100] ([DBNAME])`);
  }
  return `${out.join('\nGO\n')}\nGO\n`;
}
