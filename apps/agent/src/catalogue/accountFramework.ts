/**
 * The GP install's account framework, read from its system database (docs/decisions.md#the-chart-of-accounts):
 * SY003001.MXNUMSEG, the number of segments, which GP's own functions take as the number of
 * ACTNUMBR_n columns (glGetAccountSegmentColumns, qdGetAccountNumberString), and SY00302, one row
 * per segment with its length, from which taUpdateCreateAccountRcd lists the columns it inserts.
 */
import {
  AccountFrameworkError,
  checkedAccountFramework,
  GP_TABLES,
  MAX_ACCOUNT_SEGMENTS,
  type AccountFramework,
} from '@gp-gateway/gp-schema';
import type { ColumnRef, SelectQuery } from '../sql/model.ts';
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

/** The statements the framework is read with: SY003001's one row, then SY00302's segments in order. */
export const ACCOUNT_FRAMEWORK_QUERIES = {
  size: select('SY003001', ['MXNUMSEG'], 'MXLACNUM', 2),
  segments: select('SY00302', ['SGMTNUMB', 'SGMNTLTH'], 'SGMTNUMB', MAX_ACCOUNT_SEGMENTS + 1),
};

/**
 * The framework from the rows of ACCOUNT_FRAMEWORK_QUERIES. Throws AccountFrameworkError when the two
 * tables disagree or describe no framework GP could have; `systemDatabase` names where, for the message.
 */
export function accountFrameworkOf(
  sizes: readonly unknown[][],
  segmentRows: readonly unknown[][],
  systemDatabase: string,
): AccountFramework {
  if (sizes.length !== 1)
    throw new AccountFrameworkError(`${systemDatabase}..SY003001 has ${sizes.length === 0 ? 'no row' : 'more than one row'}`);
  const segments = Number(sizes[0]![0]);
  const numbers = segmentRows.map((row) => Number(row[0]));
  if (numbers.length !== segments || numbers.some((number, i) => number !== i + 1))
    throw new AccountFrameworkError(
      `${systemDatabase}..SY003001 says ${segments} segments, but SY00302 has segments ${numbers.join(', ') || 'none'}`,
    );
  return checkedAccountFramework({ segmentLengths: segmentRows.map((row) => Number(row[1])) });
}
