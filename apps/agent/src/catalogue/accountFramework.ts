/**
 * The GP install's account framework, read from its system database (docs/decisions.md#the-chart-of-accounts):
 * SY003001.MXNUMSEG, the number of segments, which GP's own functions take as the number of
 * ACTNUMBR_n columns (glGetAccountSegmentColumns, qdGetAccountNumberString), and SY00302, one row
 * per segment with its length, from which taUpdateCreateAccountRcd lists the columns it inserts.
 */
import { AccountFrameworkError, checkedAccountFramework, GP_TABLES, type AccountFramework } from '@gp-gateway/gp-schema';
import type { Executor } from '../db/executor.ts';
import type { ColumnRef, SelectQuery } from '../sql/model.ts';
import { renderSelect } from '../sql/render.ts';
import { sqlTypeOf, type PreparedResource } from './compile.ts';

/** The system tables the framework is read from: the read role grants them, diagnose checks them. */
export const ACCOUNT_FRAMEWORK_TABLES = ['SY003001', 'SY00302'] as const;

const SEGMENT_COLUMN = /^ACTNUMBR_\d+$/;

/** Whether a resource's statements name segment columns (its keys walk them): its SQL then depends on the framework. */
export function readsAccountSegments(resource: PreparedResource): boolean {
  return resource.def.sources.some((source) => resource.columns(source.table).some((column) => SEGMENT_COLUMN.test(column.column)));
}

const column = (table: string, name: string): ColumnRef => ({ alias: 't', column: name, type: sqlTypeOf(table, name, GP_TABLES) });

function select(table: string, columns: readonly string[], orderBy: string, limit: number): SelectQuery {
  return {
    company: null,
    from: { database: 'system', table, alias: 't' },
    joins: [],
    columns: columns.map((name) => column(table, name)),
    where: [],
    orderBy: [column(table, orderBy)],
    limit,
  };
}

/**
 * The framework as the system database records it. Rejects with AccountFrameworkError when the two
 * tables disagree or describe no framework GP could have, and with the executor's errors when
 * they cannot be read.
 */
export async function readAccountFramework(executor: Executor): Promise<AccountFramework> {
  const read = (query: SelectQuery) => executor.query(null, renderSelect(query, executor.dialect));
  const sizes = await read(select('SY003001', ['MXNUMSEG'], 'MXLACNUM', 2));
  if (sizes.length !== 1)
    throw new AccountFrameworkError(`${executor.systemDatabase}..SY003001 has ${sizes.length === 0 ? 'no row' : 'more than one row'}`);
  const segments = Number(sizes[0]![0]);
  const rows = await read(select('SY00302', ['SGMTNUMB', 'SGMNTLTH'], 'SGMTNUMB', 11));
  const numbers = rows.map((row) => Number(row[0]));
  if (numbers.length !== segments || numbers.some((number, i) => number !== i + 1))
    throw new AccountFrameworkError(
      `${executor.systemDatabase}..SY003001 says ${segments} segments, but SY00302 has segments ${numbers.join(', ') || 'none'}`,
    );
  return checkedAccountFramework({ segmentLengths: rows.map((row) => Number(row[1])) });
}
