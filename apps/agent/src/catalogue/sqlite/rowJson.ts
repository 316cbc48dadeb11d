import type { CompiledQuery, Param } from '../../sql/model.ts';
import type { Codec, ColumnSource, ResourceDef } from '../types.ts';

/**
 * The codecs of ../codecs.ts written in SQLite SQL, over the embedded database's storage (gp-schema's sqliteSchema.ts):
 * char(n) padded with blanks, numeric(19,5) as integers scaled by 100000, datetimes as
 * `YYYY-MM-DD HH:MM:SS.SSS`. A list page on the embedded database is then written by SQLite itself,
 * one json_object per row, and leaves it as UTF-8 bytes: no value becomes a JavaScript string only to
 * be written out again, which was half the SQLite thread's time on an export (pageJson.ts gathers a
 * page of them). sqliteJson.test.ts holds it equal to jsonWriterFor value by value, and over every
 * row of every resource of the demo.
 *
 * The SQL here holds no request value: column references from the catalogue, format constants, and
 * the catalogue's texts (JSON keys, enum names), which are bound as parameters all the same.
 */

const TEXT = { kind: 'varchar', length: 255 } as const;

/** GP's scaled storage of numeric(19,5): 5 decimal digits. */
const NUMERIC_DIGITS = 5;
/** Percents are smallints in hundredths: 2 decimal digits. */
const PERCENT_DIGITS = 2;

/**
 * An integer `x` scaled by 10^digits as a plain decimal string: at least `minDecimals` decimals,
 * more only where significant, as trimDecimal writes it ("-0.0005", "1250.00", "12"). Branches on
 * how many trailing fraction digits are zero, then cuts the zero-padded fraction to length.
 *
 * Zero is answered first, as a constant: most amounts in GP are zero (a GL line is a debit or a
 * credit, never both), and building "0.00" piece by piece was some 5% of an export page's statement.
 */
function scaledDecimal(x: string, digits: number, minDecimals: number): string {
  const unit = 10 ** digits;
  const zero = minDecimals === 0 ? '0' : `0.${'0'.repeat(minDecimals)}`;
  const fraction = (shown: number) => (shown === 0 ? "''" : `'.' || substr(abs(${x}) % ${unit} + ${unit}, 2, ${shown})`);
  const branches: string[] = [];
  // Up to minDecimals significant digits, one test: whatever the zeros, minDecimals are shown.
  for (let significant = minDecimals; significant < digits; significant++) {
    branches.push(`WHEN ${x} % ${10 ** (digits - significant)} = 0 THEN ${fraction(significant)}`);
  }
  const sign = `CASE WHEN ${x} < 0 THEN '-' ELSE '' END`;
  return `CASE WHEN ${x} = 0 THEN '${zero}' ELSE ${sign} || (abs(${x}) / ${unit}) || CASE ${branches.join(' ')} ELSE ${fraction(digits)} END END`;
}

/**
 * The SQL expression whose value, given to json_object, becomes the same JSON as
 * `jsonWriterFor(codec)` writes for the raw value of the column expression `x`. `bind` adds a
 * catalogue text as a parameter and returns its placeholder.
 */
export function sqliteJsonValue(x: string, codec: Codec, bind: Bind): string {
  if (typeof codec === 'object') {
    // An unknown code passes through as its number in string form (docs/api.md#enumerations).
    const code = `coalesce(${x}, 0)`;
    const names = Object.entries(codec.enum).map(([value, name]) => `WHEN ${Number(value)} THEN ${bind(name)}`);
    return names.length ? `CASE ${code} ${names.join(' ')} ELSE CAST(${code} AS TEXT) END` : `CAST(${code} AS TEXT)`;
  }
  switch (codec) {
    case 'string':
      return `nullif(rtrim(${x}), '')`;
    case 'money':
      return scaledDecimal(x, NUMERIC_DIGITS, 2);
    case 'quantity':
      return scaledDecimal(x, NUMERIC_DIGITS, 0);
    case 'percent':
      return scaledDecimal(`coalesce(${x}, 0)`, PERCENT_DIGITS, 0);
    case 'date':
      return `nullif(substr(${x}, 1, 10), '1900-01-01')`;
    case 'timestamp':
      return `CASE WHEN substr(${x}, 1, 10) = '1900-01-01' THEN NULL ELSE substr(${x}, 1, 10) || 'T' || substr(${x}, 12, 12) || 'Z' END`;
    // json('true') keeps its JSON subtype through CASE, so json_object writes it bare.
    case 'flag':
      return `CASE WHEN coalesce(${x}, 0) <> 0 THEN json('true') ELSE json('false') END`;
    case 'int':
      return `coalesce(${x}, 0)`;
  }
}

/** Adds a catalogue text as a parameter and returns its placeholder. */
export type Bind = (text: string) => string;

/**
 * One row's JSON object as a select-list expression with its parameters (`?`, in order): the fields
 * in order, each a key and the SQL of its value (sqliteJsonValue, or a computed field's twin).
 */
export function sqliteJsonObject(fields: ReadonlyArray<{ name: string; value: (bind: Bind) => string }>): CompiledQuery {
  const params: Param[] = [];
  const bind: Bind = (text) => {
    params.push({ value: text, type: TEXT });
    return '?';
  };
  const members = fields.map((f) => {
    // Placeholders number in the order they appear: the key's before its value's enum names.
    const key = bind(f.name);
    return `${key}, ${f.value(bind)}`;
  });
  return { sql: `json_object(${members.join(', ')})`, params };
}

/**
 * A resource's row as SQLite writes it (PreparedResource.jsonRow), `column` naming each column as
 * the resource's statements do; null when a computed field has no SQLite twin (FieldDef.sqlite).
 */
export function sqliteRowJson(fields: ResourceDef['fields'], column: (source: ColumnSource) => string): CompiledQuery | null {
  const members: Array<{ name: string; value: (bind: Bind) => string }> = [];
  for (const [name, field] of Object.entries(fields)) {
    if ('codec' in field) {
      members.push({ name, value: (bind) => sqliteJsonValue(column(field), field.codec, bind) });
    } else if (field.sqlite) {
      const sqlite = field.sqlite;
      members.push({ name, value: (bind) => sqlite(field.columns.map((c) => sqliteJsonValue(column(c), c.codec, bind))) });
    } else {
      return null;
    }
  }
  return sqliteJsonObject(members);
}
