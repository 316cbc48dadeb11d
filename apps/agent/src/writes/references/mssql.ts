import type sql from 'mssql';
import type { WritableObjectName, WriteBody } from '@gp-gateway/protocol';
import { DEFAULT_SYSTEM_DATABASE } from '../../db/executor.ts';
import type { TsqlBatch, TsqlParam } from '../mssql/econnectCalls.ts';
import { bindParams } from '../mssql/bindParams.ts';
import { checksOf, settle, type Check, type Resolved } from './describe.ts';

/**
 * The reference checks (describe.ts) on SQL Server: one batch, one `SELECT TOP (1)` per reference,
 * every value a typed parameter and every identifier a GP table's or column's name from
 * packages/gp-schema; the company database bracket-quoted after the writer checked it against
 * SY01500. Currencies are looked up in the system database's MC40200 (GP_SYSTEM_DATABASE), as GP keeps them.
 */
export function referenceBatch(company: string, checks: readonly Check[], systemDatabase = DEFAULT_SYSTEM_DATABASE): TsqlBatch {
  if (!/^[A-Za-z0-9_]{1,5}$/.test(company)) throw new Error(`not a GP company id: ${company}`);
  const params: TsqlParam[] = [];
  const statements = checks
    .filter((check) => !check.oversized)
    .map((check) => {
      const { table, join, key, canonical } = check.lookup;
      const database = (name: string) => `[${table.database === 'system' ? systemDatabase : company}].[dbo].[${name}]`;
      const on = (column: string) => (join && !table.columns.some((c) => c.name === column) ? '[j]' : '[t]');
      const select = [
        ...(canonical ? [`RTRIM([t].[${key}]) AS [key]`] : []),
        ...check.columns.map((column) => `${on(column)}.[${column}] AS [${column}]`),
      ];
      const where = Object.entries(check.where).map(([column, value]) => {
        const def = table.columns.find((c) => c.name === column)!;
        const name = `p${params.length}`;
        params.push({ name, type: def.type === 'char' ? `varchar(${def.length!})` : def.type, value });
        return `[t].[${column}] = @${name}`;
      });
      return (
        `SELECT TOP (1) ${select.length ? select.join(', ') : '1 AS [found]'} FROM ${database(table.name)} AS [t]` +
        (join ? ` JOIN ${database(join.table.name)} AS [j] ON [j].[${join.on}] = [t].[${join.on}]` : '') +
        ` WHERE ${where.join(' AND ')};`
      );
    });
  return { sql: statements.join('\n'), params };
}

/** Runs a body's reference checks in one round trip; refuses the write (400, details.issues) when any is broken. */
export async function checkReferencesMssql(
  request: () => sql.Request,
  company: string,
  object: WritableObjectName,
  body: WriteBody,
  systemDatabase: string,
): Promise<Resolved> {
  const checks = checksOf(object, body);
  const batch = referenceBatch(company, checks, systemDatabase);
  const sets = batch.sql
    ? ((await bindParams(request(), batch.params).query(batch.sql)).recordsets as unknown as Record<string, unknown>[][])
    : [];
  let next = 0;
  return settle(
    checks,
    checks.map((check) => (check.oversized ? undefined : sets[next++]?.[0])),
  );
}
