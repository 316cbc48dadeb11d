import { codeOf, type WriteBody } from '@gp-gateway/protocol';
import type { ResourceDef } from '../catalogue/types.ts';

/**
 * A GP value as a write stores it, before any dialect's encoding: char text, a numeric(19,5) as its
 * decimal string, a date as YYYY-MM-DD, integers (flags 0/1, enum codes) as numbers.
 */
export type GpWriteValue = string | number;

/**
 * The GP columns a body's fields set, through the same field definitions the reads use: a field is
 * written to the column it is read from, so a record reads back with the names it was written
 * with. `join` picks the fields of one joined table (a journal entry's header, alias `h`); without
 * it, those of the main table. Computed fields (a customer's credit limit) are the caller's.
 */
export function fieldColumns(def: ResourceDef, body: Readonly<Record<string, unknown>>, join?: string): Record<string, GpWriteValue> {
  const row: Record<string, GpWriteValue> = {};
  for (const [name, value] of Object.entries(body)) {
    const field = def.fields[name];
    if (value === undefined || !field || !('codec' in field) || field.join !== join) continue;
    const { codec, column } = field;
    if (typeof codec === 'object') {
      const code = codeOf(codec.enum, String(value));
      if (code === null) throw new Error(`${def.object}.${name}: ${String(value)} has no GP code`);
      row[column] = code;
    } else if (codec === 'flag') row[column] = value ? 1 : 0;
    else if (codec === 'int') row[column] = Number(value);
    else row[column] = String(value);
  }
  return row;
}

/** The body without its lines: the header's fields. */
export function headerOf(body: WriteBody): Record<string, unknown> {
  const { lines: _lines, ...header } = body;
  return header;
}
