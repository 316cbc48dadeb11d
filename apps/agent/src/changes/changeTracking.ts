import type { Dialect } from '../sql/dialect.ts';
import { mssqlDialect as mssql } from '../sql/mssqlDialect.ts';
import type { CompiledQuery } from '../sql/model.ts';
import type { Finding } from '../diagnostics/findings.ts';
import { READ_ROLE } from '../mssql/readOnlyRole.ts';
import { trackedChangesQuery } from './statements.ts';
import { TRACKED_OBJECTS } from './trackedObjects.ts';

/**
 * SQL Server Change Tracking (docs/decisions.md#change-tracking), where a customer's DBA has turned
 * it on: what `diagnose` reads to say whether it is on, per company and table, and the statements
 * the DBA runs to turn it on, with what they cost. Reading it needs SELECT and VIEW CHANGE TRACKING
 * on the tables only. Every name comes from TRACKED_OBJECTS; the company's only from SY01500.
 */

const bracket = (name: string) => `[${name.replaceAll(']', ']]')}]`;

/** The tables change detection reads, each once, in the order of TRACKED_OBJECTS. */
export function trackedTables(): string[] {
  return [...new Set(TRACKED_OBJECTS.flatMap((t) => t.sources.map((s) => s.table)))];
}

/** How long SQL Server keeps change information when the agent's statements turn it on. */
const CHANGE_RETENTION_DAYS = 2;

/**
 * Per tracked table of the company database: its name, whether Change Tracking is on for it (its
 * row in sys.change_tracking_tables) and whether it is on for the database. One statement, read
 * through the company's own catalog views (visible for tables the login may read).
 */
export function changeTrackingStatusQuery(dialect: Dialect, company: string): CompiledQuery {
  if (dialect.name !== 'mssql') throw new Error('Change Tracking is SQL Server’s');
  const db = bracket(company);
  const tables = trackedTables();
  const params = tables.map((table) => dialect.encode(table, { kind: 'char', length: 128 }));
  const list = tables.map((_, i) => dialect.placeholder(i)).join(', ');
  return {
    sql:
      `SELECT [t].[name], CASE WHEN [c].[object_id] IS NULL THEN 0 ELSE 1 END, ` +
      `CASE WHEN EXISTS (SELECT 1 FROM [sys].[change_tracking_databases] AS [d] WHERE [d].[database_id] = DB_ID(N'${company.replaceAll("'", "''")}')) THEN 1 ELSE 0 END, ` +
      `CONVERT(varchar(20), [c].[min_valid_version]) ` +
      `FROM ${db}.[sys].[tables] AS [t] LEFT JOIN ${db}.[sys].[change_tracking_tables] AS [c] ON [c].[object_id] = [t].[object_id] ` +
      `WHERE [t].[schema_id] = SCHEMA_ID(N'dbo') AND [t].[name] IN (${list}) ORDER BY [t].[name]`,
    params,
  };
}

/** What the status query found of one company. */
export interface ChangeTrackingStatus {
  company: string;
  /** Change Tracking on for the database. */
  database: boolean;
  /** Tracked tables of the company's, each with whether Change Tracking is on for it. */
  tables: ReadonlyMap<string, boolean>;
  /** Per table where it is on, the oldest version whose changes it still keeps (older ones are purged). */
  minValidVersions: ReadonlyMap<string, string>;
}

/**
 * The database's current version (CHANGE_TRACKING_CURRENT_VERSION, which reads the database it runs
 * in: run there by its sp_executesql), as text: a bigint.
 */
export function currentVersionQuery(company: string): CompiledQuery {
  return {
    sql: `EXEC ${bracket(company)}.[sys].[sp_executesql] N'SELECT CONVERT(varchar(20), CHANGE_TRACKING_CURRENT_VERSION())'`,
    params: [],
  };
}

/** The status query's rows as a status. */
export function changeTrackingStatusOf(company: string, rows: readonly unknown[][]): ChangeTrackingStatus {
  return {
    company,
    database: rows.some((r) => Number(r[2]) === 1),
    tables: new Map(rows.map((r) => [String(r[0]), Number(r[1]) === 1])),
    minValidVersions: new Map(rows.filter((r) => r[3] !== null && r[3] !== undefined).map((r) => [String(r[0]), String(r[3])])),
  };
}

/**
 * What a DBA runs to turn Change Tracking on for the company and the tables the agent reads, and to
 * let the agent's role (`gp-agent mssql grant-read`'s) read it: the database once, each table, and VIEW CHANGE TRACKING per table.
 */
export function enableChangeTrackingStatements(company: string, tables: readonly string[], role = READ_ROLE): string[] {
  const db = bracket(company);
  return [
    `ALTER DATABASE ${db} SET CHANGE_TRACKING = ON (CHANGE_RETENTION = ${CHANGE_RETENTION_DAYS} DAYS, AUTO_CLEANUP = ON);`,
    ...tables.flatMap((table) => [
      `ALTER TABLE ${db}.[dbo].${bracket(table)} ENABLE CHANGE_TRACKING WITH (TRACK_COLUMNS_UPDATED = OFF);`,
      `USE ${db}; GRANT VIEW CHANGE TRACKING ON [dbo].${bracket(table)} TO ${bracket(role)};`,
    ]),
  ];
}

/** What turning it on costs the customer, in the words `diagnose` prints. */
const COST =
  'Cost: every insert, update and delete of these tables also writes the row’s key and a version to an internal table, ' +
  `in the same transaction (about one more row written per row changed); that table keeps ${CHANGE_RETENTION_DAYS} days of keys and is purged by a background task; ` +
  'ALTER TABLE … ENABLE CHANGE_TRACKING takes a schema lock briefly: run it outside GP’s busy hours. Without it the agent polls DEX_ROW_TS (a scan per table and poll).';

/** `diagnose`'s finding: Change Tracking per company and table, and what turns it on where it is off. */
export function changeTrackingFinding(statuses: readonly ChangeTrackingStatus[]): Finding {
  const check = 'Change Tracking';
  const wanted = trackedTables();
  const off = statuses.map((s) => ({ company: s.company, database: s.database, tables: wanted.filter((t) => s.tables.get(t) !== true) }));
  const partly = off.filter((s) => !s.database || s.tables.length);
  if (!partly.length)
    return {
      check,
      status: 'ok',
      summary: `on for every table the agent reads in ${statuses.map((s) => s.company).join(', ')}: changes are read from it`,
    };
  const on = off.filter((s) => s.database && !s.tables.length).map((s) => s.company);
  const summary =
    partly.map((s) => (s.database ? `${s.company}: on, but not for ${s.tables.join(', ')}` : `${s.company}: off`)).join('; ') +
    (on.length ? `; on in ${on.join(', ')}` : '');
  return {
    check,
    // Optional: without it the agent detects changes by DEX_ROW_TS.
    status: 'warn',
    summary: `${summary}. Changes are detected by DEX_ROW_TS instead (it works; Change Tracking is exact and cheaper per poll)`,
    details: [
      ...partly.flatMap((s) => enableChangeTrackingStatements(s.company, s.tables).filter((line, i) => s.database === false || i > 0)),
      COST,
    ],
    fix: 'optional: a SQL Server administrator who agrees to the cost runs the statements above, then diagnose says on',
  };
}

/**
 * Every Change Tracking statement, as it runs on SQL Server for company TWO (parameters declared as
 * the driver declares them): the golden file's content and what the T-SQL parse test parses.
 */
export function changeTrackingStatements(): { label: string; sql: string; runBy: 'agent' | 'dba' }[] {
  const declare = (q: CompiledQuery) =>
    q.params.length
      ? `DECLARE ${q.params.map((p, i) => `@p${i} ${p.type.kind === 'char' ? `nvarchar(${p.type.length})` : p.type.kind === 'int' ? 'int' : 'numeric(19, 5)'}`).join(', ')};\n`
      : '';
  const run = (label: string, q: CompiledQuery) => ({ label, sql: `${declare(q)}${q.sql};`, runBy: 'agent' as const });
  return [
    run('status: per tracked table, on for it and for the database, and its oldest version kept', changeTrackingStatusQuery(mssql, 'TWO')),
    run('the current version', currentVersionQuery('TWO')),
    ...TRACKED_OBJECTS.flatMap((t) =>
      t.sources.map((s) =>
        run(`${t.object} ${s.table}: changes since a version, up to another`, trackedChangesQuery(mssql, 'TWO', s, '41', '57')),
      ),
    ),
    ...enableChangeTrackingStatements('TWO', ['RM00101', 'RM20101']).map((sql) => ({
      label: 'what a DBA runs to turn it on',
      sql,
      runBy: 'dba' as const,
    })),
  ];
}
