import type { Dialect } from '../sql/dialect.ts';
import type { CompiledQuery, Param } from '../sql/model.ts';
import type { TrackedColumn } from './trackedObjects.ts';
import type { ValueTrackedObject } from './valueTracked.ts';

/**
 * The statements of value-compared detection (valueTracked.ts), for either dialect. Table and column
 * names come from VALUE_TRACKED_OBJECTS only; every value is a parameter. Each row read is: the key's
 * values, the id's, the compared values, the parent's DEX_ROW_TS (NULL without a parent) and
 * DEX_ROW_ID.
 */

const DATETIME = { kind: 'datetime' } as const;

/** A row's select items; its parent's stamp is `stamp` where the statement has it already, else a seek per row. */
function rowItems(d: Dialect, company: string, tracked: ValueTrackedObject, alias: string, stamp = 'NULL'): string[] {
  const column = (c: TrackedColumn) => d.selectExpression({ alias, column: c.column, type: c.type });
  const parent = tracked.parent;
  if (parent && stamp === 'NULL') {
    const table = d.tableName(company, { database: 'company', table: parent.table, alias: 'p' });
    const p = d.quote('p');
    stamp = `(SELECT ${d.selectExpression({ alias: 'p', column: 'DEX_ROW_TS', type: DATETIME })} FROM ${table} AS ${p} WHERE ${p}.${d.quote(parent.key)} = ${d.quote(alias)}.${d.quote(parent.key)})`;
  }
  return [...[...tracked.key, ...tracked.idColumns, ...tracked.values].map(column), stamp, `${d.quote(alias)}.${d.quote('DEX_ROW_ID')}`];
}

function onlyTerm(d: Dialect, tracked: ValueTrackedObject, alias: string, params: Param[]): string | null {
  if (!tracked.only) return null;
  const placeholders = tracked.only.values.map((v) => {
    params.push(d.encode(v, { kind: 'int' }));
    return d.placeholder(params.length - 1);
  });
  return `${d.residual(`${d.quote(alias)}.${d.quote(tracked.only.column)}`)} IN (${placeholders.join(', ')})`;
}

/** Every row of the object, in key order: the first reading, a sweep, and each poll of a table without a parent. */
export function valueRowsQuery(d: Dialect, company: string, tracked: ValueTrackedObject): CompiledQuery {
  const params: Param[] = [];
  const t = d.quote('t');
  const only = onlyTerm(d, tracked, 't', params);
  const order = tracked.key.map((k) => `${t}.${d.quote(k.column)}`).join(', ');
  return {
    sql:
      `SELECT ${rowItems(d, company, tracked, 't').join(', ')} FROM ${d.tableName(company, { database: 'company', table: tracked.table, alias: 't' })} AS ${t}` +
      `${only ? ` WHERE ${only}` : ''} ORDER BY ${order}`,
    params,
  };
}

/**
 * The parents stamped at or after `since` (an ISO-8601 UTC time), each with its rows of the object as
 * they are now: the parent's key and DEX_ROW_TS, then a row read as valueRowsQuery reads it, all NULL
 * for a parent that has none left. The parent table is scanned (GP has no index on DEX_ROW_TS, as
 * for any watermark), its rows' rows sought by the key's leading column.
 */
export function parentStampedQuery(d: Dialect, company: string, tracked: ValueTrackedObject, since: string): CompiledQuery {
  const parent = tracked.parent;
  if (!parent) throw new Error(`${tracked.table} has no parent whose stamp finds its changes`);
  const params: Param[] = [];
  const t = d.quote('t');
  const s = d.quote('s');
  const key = d.quote(parent.key);
  const only = onlyTerm(d, tracked, 't', params);
  params.push(d.encode(since, DATETIME));
  const sinceAt = d.placeholder(params.length - 1);
  const parentKey = d.selectExpression({ alias: 's', column: parent.key, type: tracked.key[0]!.type });
  const parentTs = d.selectExpression({ alias: 's', column: 'DEX_ROW_TS', type: DATETIME });
  return {
    sql:
      `SELECT ${parentKey}, ${parentTs}, ${rowItems(d, company, tracked, 't', parentTs).join(', ')} ` +
      `FROM ${d.tableName(company, { database: 'company', table: parent.table, alias: 's' })} AS ${s} ` +
      `LEFT JOIN ${d.tableName(company, { database: 'company', table: tracked.table, alias: 't' })} AS ${t} ON ${t}.${key} = ${s}.${key}${only ? ` AND ${only}` : ''} ` +
      `WHERE ${s}.${d.quote('DEX_ROW_TS')} >= ${sinceAt}`,
    params,
  };
}
