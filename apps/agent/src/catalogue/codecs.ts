import { Decimal } from 'decimal.js';
import type { Dialect } from '../sql/dialect.ts';
import type { Codec } from './types.ts';

/** GP stores 19 digits; decimal.js' default precision of 20 would be too tight for sums later. */
const Exact = Decimal.clone({ precision: 40 });

const GP_EMPTY_DATE = '1900-01-01';

export type Decoder = (raw: unknown) => unknown;

/** char(n) values are padded with blanks; an empty one is null (decision D1). */
export function decodeString(raw: unknown): string | null {
  if (raw === null || raw === undefined) return null;
  const text = String(raw).trimEnd();
  return text === '' ? null : text;
}

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

/**
 * An exact decimal string with its fraction cut to the significant digits, but never below
 * `minDecimals`. Pure digit work on text that is already exact: no float, and no arithmetic, which
 * is where decimal.js is used. This runs once per amount of every row, so it stays cheap.
 */
function trimDecimal(decimal: string, minDecimals: number): string {
  const m = DECIMAL.exec(decimal);
  if (!m) throw new Error(`not a decimal: ${decimal}`);
  const [, sign, whole, fraction = ''] = m;
  let end = fraction.length;
  while (end > minDecimals && fraction.charCodeAt(end - 1) === 48 /* 0 */) end--;
  const digits = fraction.slice(0, end).padEnd(minDecimals, '0');
  const wholeDigits = whole!.replace(/^0+(?=\d)/, '');
  const zero = /^0*$/.test(wholeDigits + digits);
  return `${zero ? '' : sign}${wholeDigits}${digits ? `.${digits}` : ''}`;
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

/** GP stores percents as integers in hundredths: 250 → "2.5" (decision D1). */
export function formatPercent(hundredths: number): string {
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
    // An unknown code from a real install passes through as its number in string form (D2).
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
