import Database from 'better-sqlite3';
import sql from 'mssql';
import { demoDatabasePaths } from '../generator/generate.ts';
import {
  checkedAccountFramework,
  gpTablesOf,
  scaledTextToDecimalString,
  type AccountFramework,
  type GpColumn,
  type GpTable,
} from '@gp-gateway/gp-schema';
import { tsqlName } from './tsqlName.ts';
import { schemaScript } from './schemaScript.ts';
import { SYSTEM_DATABASE_NAME } from '../generator/companies.ts';

/**
 * Copies a generated demo (the embedded SQLite databases) into a SQL Server, so that the same data
 * serves both dialects and one contract suite can run against each. Creates the databases with
 * schemaScript() first. Meant for a throwaway server (tests, demos): it drops and recreates the
 * system database (DYNAMICS unless named otherwise) and the demo companies' databases.
 */
const q = tsqlName;
/** SQL Server allows 2,100 parameters per request. */
const MAX_PARAMS = 2000;

export interface LoadProgress {
  database: string;
  table: string;
  rows: number;
}

/** `GO` separates batches in scripts; a driver sends them one at a time. */
export function batchesOf(script: string): string[] {
  return script
    .split(/^GO$/m)
    .map((b) => b.trim())
    .filter(Boolean);
}

function valueFor(column: GpColumn, raw: unknown): { type: sql.ISqlType | (() => sql.ISqlType); value: unknown } {
  switch (column.type) {
    case 'char':
      return { type: sql.Char(column.length ?? 1), value: raw };
    case 'numeric':
      // Bound as exact text; SQL Server converts varchar to numeric(19,5) without rounding.
      return { type: sql.VarChar(41), value: scaledTextToDecimalString(String(raw)) };
    case 'datetime':
      return { type: sql.DateTime, value: new Date(`${String(raw).replace(' ', 'T')}Z`) };
    default:
      return { type: sql.Int, value: Number(raw) };
  }
}

async function copyTable(pool: sql.ConnectionPool, database: string, source: Database.Database, table: GpTable): Promise<number> {
  const columns = table.columns;
  const rows = source
    .prepare(
      `SELECT ${columns.map((c) => (c.type === 'numeric' ? `CAST("${c.name}" AS TEXT)` : `"${c.name}"`)).join(', ')} FROM "${table.name}" ORDER BY DEX_ROW_ID`,
    )
    .raw(true)
    .all() as unknown[][];
  const perBatch = Math.max(1, Math.floor(MAX_PARAMS / columns.length));
  const target = `${q(database)}.[dbo].${q(table.name)}`;
  const columnList = columns.map((c) => q(c.name)).join(', ');
  for (let start = 0; start < rows.length; start += perBatch) {
    const request = pool.request();
    const tuples: string[] = [];
    rows.slice(start, start + perBatch).forEach((row, r) => {
      tuples.push(
        `(${columns
          .map((column, c) => {
            const name = `v${r}_${c}`;
            const { type, value } = valueFor(column, row[c]);
            request.input(name, type, value);
            return `@${name}`;
          })
          .join(', ')})`,
      );
    });
    // Keep the demo's DEX_ROW_IDs, so both dialects page through identical keys. IDENTITY_INSERT is
    // turned off again when the insert fails too: it stays on for the session otherwise, and a
    // session can have it on for one table only, so every later table would fail for that instead.
    await request.batch(
      `SET IDENTITY_INSERT ${target} ON; ` +
        `BEGIN TRY INSERT INTO ${target} (${columnList}) VALUES ${tuples.join(', ')}; END TRY ` +
        `BEGIN CATCH SET IDENTITY_INSERT ${target} OFF; THROW; END CATCH; ` +
        `SET IDENTITY_INSERT ${target} OFF;`,
    );
  }
  return rows.length;
}

/** The account framework a demo was generated in, as its system database records it (SY003001, SY00302). */
export function demoFrameworkOf(systemDatabaseFile: string): AccountFramework {
  const db = new Database(systemDatabaseFile, { readonly: true, fileMustExist: true });
  try {
    const segments = db.prepare('SELECT MXNUMSEG FROM SY003001').pluck().get() as number;
    const lengths = db.prepare('SELECT SGMNTLTH FROM SY00302 WHERE SGMTNUMB <= ? ORDER BY SGMTNUMB').pluck().all(segments) as number[];
    return checkedAccountFramework({ segmentLengths: lengths });
  } finally {
    db.close();
  }
}

export async function loadDemoIntoSqlServer(
  connection: string,
  demoDir: string,
  onProgress: (p: LoadProgress) => void = () => {},
  systemDatabase: string = SYSTEM_DATABASE_NAME,
): Promise<void> {
  const paths = demoDatabasePaths(demoDir);
  const companies = Object.keys(paths.companyDatabases);
  const framework = demoFrameworkOf(paths.systemDatabase);
  // One connection, so that each `USE <database>` batch of the schema script applies to the next ones.
  const config = (sql.ConnectionPool as unknown as { parseConnectionString(s: string): sql.config }).parseConnectionString(connection);
  const pool = await new sql.ConnectionPool({ ...config, pool: { min: 1, max: 1 } }).connect();
  try {
    // schemaScript checks the name before anything is dropped.
    const script = schemaScript(companies, systemDatabase, framework);
    for (const database of [systemDatabase, ...companies]) {
      await pool
        .request()
        .batch(
          `IF DB_ID(N'${database}') IS NOT NULL BEGIN ALTER DATABASE ${q(database)} SET SINGLE_USER WITH ROLLBACK IMMEDIATE; DROP DATABASE ${q(database)}; END`,
        );
    }
    for (const batch of batchesOf(script)) await pool.request().batch(batch);
    const copy = async (database: string, file: string, tables: GpTable[]) => {
      const source = new Database(file, { readonly: true });
      try {
        for (const table of tables) onProgress({ database, table: table.name, rows: await copyTable(pool, database, source, table) });
      } finally {
        source.close();
      }
    };
    await copy(systemDatabase, paths.systemDatabase, gpTablesOf('system'));
    for (const company of companies) {
      await copy(company, paths.companyDatabases[company]!, gpTablesOf('company', framework));
      // Each company names its system database, as GP Utilities records it.
      await pool
        .request()
        .input('company', sql.VarChar(5), company)
        .input('system', sql.VarChar(11), systemDatabase)
        .query(
          `INSERT INTO ${q(company)}.[dbo].[SY00100] (CMPANYID, DBNAME) ` +
            `SELECT CMPANYID, @system FROM ${q(systemDatabase)}.[dbo].[SY01500] WHERE INTERID = @company`,
        );
    }
  } finally {
    await pool.close();
  }
}
