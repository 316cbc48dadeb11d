import type Database from 'better-sqlite3';
import { Decimal } from 'decimal.js';
import { codeOf, type CodeNames, type WriteBody } from '@gp-gateway/protocol';
import type { ResourceDef } from '../../catalogue/types.ts';
import type { Resolved } from '../references/describe.ts';

/** What one object's writer on the embedded database is given (sqliteWriter.ts builds it per write). */

export type Db = Database.Database;

/** How a written record is read back, on the writer's connection inside its transaction. */
export interface ReadBack {
  /** The record with these id parts, as a GET answers it. */
  one(def: ResourceDef, parts: string[]): string;
  /** The rows of one list query (a journal entry's lines), as a JSON array. */
  lines(def: ResourceDef, filters: Record<string, number>): string;
}

export interface WriteContext {
  db: Db;
  /** The company's id, checked against SY01500 and upper-cased. */
  company: string;
  body: WriteBody;
  /** The body's references, checked and their rows read (references/sqlite.ts). */
  checks: Resolved;
  /** The sandbox's validate-only: every check, no row written, the answer built from the body. */
  dry: boolean;
  read: ReadBack;
}

/** How each writable object is written: the id the journal records and how it reads back. */
export interface Written {
  /** The id the journal records (the API's id, or the journal entry number). */
  id: string;
  /** The created record as a GET answers it (gl-entries: the array of the entry's lines). */
  readBack(): string;
}

/** A dry run's answer: the record as the body and the checks describe it, nothing read back. */
export function preview(id: string, record: Record<string, unknown>): Written {
  return { id, readBack: () => JSON.stringify(record) };
}

/** Local date, as eConnect's `convert(varchar(12), getdate())` sets CREATDDT and MODIFDT. */
export function today(): string {
  const now = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** Receivables and payables invoices carry no tax (GP takes a tax amount only with tax detail lines: the protocol's NOT_WRITTEN). */
export const NO_TAX = new Decimal(0);

/** A distribution line to insert: its type, the account's index, its amounts and reference. */
export interface DistributionRow {
  type: number;
  account: number;
  debit: Decimal;
  credit: Decimal;
  reference: string;
}

/** A body's own distribution lines, their accounts as the reference checks found them (GL00105.ACTINDX). */
export function bodyDistributions(body: WriteBody, checks: Resolved, types: CodeNames): DistributionRow[] {
  return body.lines!.map((line, i) => ({
    type: codeOf(types, String(line.type))!,
    account: Number(checks.row(`lines.${i}.accountNumber`)!.ACTINDX),
    debit: new Decimal(String(line.debit ?? '0')),
    credit: new Decimal(String(line.credit ?? '0')),
    reference: String(line.reference ?? ''),
  }));
}
