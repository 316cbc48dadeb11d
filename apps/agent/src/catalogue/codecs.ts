import { Decimal } from 'decimal.js';
import type { Dialect } from '../sql/dialect.ts';
import type { Codec } from './types.ts';

/** GP stores 19 digits; decimal.js' default precision of 20 would be too tight for sums later. */
const Exact = Decimal.clone({ precision: 40 });

const GP_EMPTY_DATE = '1900-01-01';

export type Decoder = (raw: unknown) => unknown;

/** Characters JSON must escape, and lone surrogates, which JSON.stringify escapes too. */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/**
 * A string as JSON text, exactly as JSON.stringify writes it. GP text almost never needs escaping,
 * and quoting it directly is several times cheaper than JSON.stringify on every value of every row.
 */
export function jsonString(text: string): string {
  return NEEDS_ESCAPE.test(text) ? JSON.stringify(text) : `"${text}"`;
}

/** Any decoded API value as JSON text, exactly as JSON.stringify writes it inside an object. */
export function jsonValue(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return jsonString(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'undefined':
      return 'null';
    default:
      return value === null ? 'null' : JSON.stringify(value);
  }
}

const BLANK = 32;

/**
 * char(n) values are padded with blanks; an empty one is null (docs/api.md#value-formats). Only blanks are
 * padding: a trailing tab or no-break space is data, kept as SQL's RTRIM keeps it (the embedded
 * database's pages are trimmed by SQLite's rtrim, which agrees).
 */
export function decodeString(raw: unknown): string | null {
  if (raw === null || raw === undefined) return null;
  const text = String(raw);
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === BLANK) end--;
  return end === 0 ? null : end === text.length ? text : text.slice(0, end);
}

const ZERO = 48;
const NINE = 57;
const MINUS = 45;
const POINT = 46;

/**
 * An exact decimal string with its fraction cut to the significant digits, but never below
 * `minDecimals`. Pure digit work on text that is already exact: no float, and no arithmetic, which
 * is where decimal.js is used. This runs for every amount of every row the agent reads, so it walks
 * the characters once instead of using regular expressions.
 */
function trimDecimal(decimal: string, minDecimals: number): string {
  const length = decimal.length;
  const negative = decimal.charCodeAt(0) === MINUS;
  const start = negative ? 1 : 0;
  let point = -1;
  let significant = false;
  for (let i = start; i < length; i++) {
    const c = decimal.charCodeAt(i);
    if (c === POINT && point === -1 && i > start && i < length - 1) point = i;
    else if (c < ZERO || c > NINE) throw new Error(`not a decimal: ${decimal}`);
    else if (c !== ZERO) significant = true;
  }
  if (length === start) throw new Error(`not a decimal: ${decimal}`);
  const wholeEnd = point === -1 ? length : point;
  let wholeStart = start;
  while (wholeStart < wholeEnd - 1 && decimal.charCodeAt(wholeStart) === ZERO) wholeStart++;
  let fractionEnd = length;
  if (point !== -1) while (fractionEnd > point + 1 + minDecimals && decimal.charCodeAt(fractionEnd - 1) === ZERO) fractionEnd--;
  let fraction = point === -1 ? '' : decimal.slice(point + 1, fractionEnd);
  if (fraction.length < minDecimals) fraction = fraction.padEnd(minDecimals, '0');
  const whole = decimal.slice(wholeStart, wholeEnd);
  // A zero amount has no sign: "-0.00000" is "0.00".
  const sign = negative && significant ? '-' : '';
  return fraction ? `${sign}${whole}.${fraction}` : `${sign}${whole}`;
}

/** Money: at least 2 decimals, more only when significant, up to GP's 5 ("1250.00", "0.12345"). */
export function formatMoney(decimal: string): string {
  return trimDecimal(decimal, 2);
}

/** Quantities: no trailing zeros ("12", "0.5"). */
export function formatQuantity(decimal: string): string {
  return trimDecimal(decimal, 0);
}

/** Difference of two decimal strings, as a quantity (e.g. available = on hand − allocated). */
export function subtractQuantities(a: string, b: string): string {
  return formatQuantity(new Exact(a).minus(b).toFixed());
}

/** GP stores percents as integers in hundredths: 250 → "2.5" (docs/api.md#value-formats). */
function formatPercent(hundredths: number): string {
  return new Exact(hundredths).div(100).toFixed();
}

/** `YYYY-MM-DD HH:MM:SS.SSS` → `YYYY-MM-DD`, GP's empty date 1900-01-01 → null. */
export function formatDate(dateTime: string): string | null {
  const date = dateTime.slice(0, 10);
  return date === GP_EMPTY_DATE ? null : date;
}

/** DEX_ROW_TS is UTC: `YYYY-MM-DD HH:MM:SS.SSS` → `YYYY-MM-DDTHH:MM:SS.SSSZ`. */
export function formatTimestamp(dateTime: string): string | null {
  if (dateTime.startsWith(GP_EMPTY_DATE)) return null;
  const [date, time = '00:00:00'] = dateTime.split(' ');
  const [hms, ms = ''] = time.split('.');
  return `${date}T${hms}.${ms.padEnd(3, '0').slice(0, 3)}Z`;
}

export function decoderFor(codec: Codec, dialect: Dialect): Decoder {
  if (typeof codec === 'object') {
    const names = codec.enum;
    // An unknown code from a real install passes through as its number in string form (docs/api.md#enumerations).
    return (raw) => {
      const code = dialect.decodeInt(raw);
      return names[code] ?? String(code);
    };
  }
  switch (codec) {
    case 'string':
      return decodeString;
    case 'money':
      return (raw) => formatMoney(dialect.decodeDecimal(raw));
    case 'quantity':
      return (raw) => formatQuantity(dialect.decodeDecimal(raw));
    case 'date':
      return (raw) => formatDate(dialect.decodeDateTime(raw));
    case 'timestamp':
      return (raw) => formatTimestamp(dialect.decodeDateTime(raw));
    case 'percent':
      return (raw) => formatPercent(dialect.decodeInt(raw));
    case 'flag':
      return (raw) => dialect.decodeInt(raw) !== 0;
    case 'int':
      return (raw) => dialect.decodeInt(raw);
  }
}

/**
 * A raw value straight to the JSON text of its decoded value: exactly JSON.stringify(decoder(raw)),
 * but without asking whether text needs escaping when the codec guarantees it does not. Amounts,
 * quantities, percents, dates and timestamps are digits and punctuation our formatters wrote; enum
 * texts are computed once per code. Only free text goes through jsonString.
 */
export function jsonWriterFor(codec: Codec, dialect: Dialect): (raw: unknown) => string {
  if (typeof codec === 'object') {
    const texts = new Map(Object.entries(codec.enum).map(([code, name]) => [Number(code), JSON.stringify(name)]));
    return (raw) => {
      const code = dialect.decodeInt(raw);
      return texts.get(code) ?? `"${code}"`;
    };
  }
  const decode = decoderFor(codec, dialect);
  switch (codec) {
    case 'string':
      return (raw) => {
        const text = decodeString(raw);
        return text === null ? 'null' : jsonString(text);
      };
    case 'money':
    case 'quantity':
    case 'percent':
    case 'date':
    case 'timestamp':
      return (raw) => {
        const text = decode(raw) as string | null;
        return text === null ? 'null' : `"${text}"`;
      };
    case 'flag':
    case 'int':
      return (raw) => jsonValue(decode(raw));
  }
}
