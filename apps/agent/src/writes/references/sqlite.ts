import type Database from 'better-sqlite3';
import { padChar } from '@gp-gateway/gp-schema';
import type { WritableObjectName, WriteBody } from '@gp-gateway/protocol';
import { checksOf, settle, type Check, type Resolved } from './describe.ts';
import type { GpWriteValue } from '../fieldColumns.ts';
import { preparedOnce } from '../preparedStatements.ts';
import { storedValue } from '../sqliteRows.ts';

/**
 * The reference checks (describe.ts) on the embedded database: one query per reference, on the
 * write's own connection and inside its transaction, so what is checked is what the write sees.
 */
export function checkReferencesSqlite(db: Database.Database, object: WritableObjectName, body: WriteBody): Resolved {
  const checks = checksOf(object, body);
  return settle(
    checks,
    checks.map((check) => (check.oversized ? undefined : check.name === 'currency' ? knownCurrency(db, check) : lookUp(db, check))),
  );
}

/** A key value as the embedded database stores it (the writer's encoding, sqliteRows.ts). */
function encode(check: Check, column: string, value: unknown): unknown {
  const tables = [check.lookup.table, ...(check.lookup.join ? [check.lookup.join.table] : [])];
  return storedValue(
    tables.flatMap((t) => t.columns).find((c) => c.name === column)!,
    value as GpWriteValue,
  );
}

function lookUp(db: Database.Database, check: Check): Record<string, unknown> | undefined {
  const { table, join, key, canonical } = check.lookup;
  const on = (column: string) => (join && !table.columns.some((c) => c.name === column) ? 'j' : 't');
  const select = [
    ...(canonical ? [`rtrim(t."${key}") AS "key"`] : []),
    ...check.columns.map((column) => `${on(column)}."${column}" AS "${column}"`),
  ];
  const where = Object.keys(check.where);
  const sql =
    `SELECT ${select.length ? select.join(', ') : '1 AS "found"'} FROM "${table.name}" AS t` +
    (join ? ` JOIN "${join.table.name}" AS j ON j."${join.on}" = t."${join.on}"` : '') +
    ` WHERE ${where.map((column) => `t."${column}" = ?`).join(' AND ')} LIMIT 1`;
  return preparedOnce(db, sql).get(...where.map((column) => encode(check, column, check.where[column]))) as
    Record<string, unknown> | undefined;
}

/**
 * The embedded database has no currency table (DYNAMICS..MC40200 on GP): a currency is known when
 * a customer, vendor or checkbook of the company uses it. A stand-in, kept to the embedded database.
 */
function knownCurrency(db: Database.Database, check: Check): Record<string, unknown> | undefined {
  const id = padChar(String(check.where.CURNCYID), 15);
  return preparedOnce(
    db,
    'SELECT 1 AS "found" FROM RM00101 WHERE CURNCYID = ? UNION ALL SELECT 1 FROM PM00200 WHERE CURNCYID = ? UNION ALL SELECT 1 FROM CM00100 WHERE CURNCYID = ? LIMIT 1',
  ).get(id, id, id) as Record<string, unknown> | undefined;
}
