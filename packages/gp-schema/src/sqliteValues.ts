/**
 * How GP values are encoded in the SQLite stand-in for a GP database (see sqliteSchema.ts for the
 * full contract). Both the demo generator (writing) and the agent's SQLite reader (reading,
 * binding parameters) go through these helpers, so the two sides cannot drift apart.
 */

/** numeric(19,5) is stored as an integer count of 1/100000 units. */
export const SCALE = 100000n;
const SCALE_DIGITS = 5;

/** GP's bound default for a date column (`GPS_DATE` = '1/1/1900'); the API maps it to null. */
export const GP_EMPTY_DATE = '1900-01-01 00:00:00.000';

const SURROGATE = /[\uD800-\uDFFF]/;
const DECIMAL_PATTERN = /^(-?)(\d+)(?:\.(\d+))?$/;
const ISO_DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** "1250.5" -> 125050000n. Exact: the digits are parsed as text, never as a float. */
export function toScaled(decimal: string): bigint {
  const match = DECIMAL_PATTERN.exec(decimal);
  if (!match) throw new RangeError(`not a decimal number: ${JSON.stringify(decimal)}`);
  const [, sign, whole = '', fraction = ''] = match;
  if (fraction.length > SCALE_DIGITS) {
    throw new RangeError(`more than ${SCALE_DIGITS} decimals: ${JSON.stringify(decimal)}`);
  }
  const magnitude = BigInt(whole + fraction.padEnd(SCALE_DIGITS, '0'));
  return sign === '-' ? -magnitude : magnitude;
}

/**
 * 125050000n -> "1250.50000": always 5 decimals, as GP stores them (rounding to the currency's
 * decimal places is a presentation decision left to the caller). A `number` is accepted because
 * better-sqlite3 returns INTEGER columns as numbers unless safeIntegers is on; it must then be a
 * safe integer, otherwise precision was already lost and we refuse to pretend otherwise.
 */
export function scaledToDecimalString(v: bigint | number): string {
  if (typeof v === 'number' && !Number.isSafeInteger(v)) {
    throw new RangeError(`not an exact scaled integer: ${v} (read it with safeIntegers)`);
  }
  return scaledTextToDecimalString(BigInt(v).toString());
}

/**
 * The same from the integer's text (SQLite's exact `CAST(x AS TEXT)`): moves the decimal point,
 * which spares building a BigInt for every amount of every row the agent reads. It runs that often,
 * so it checks the digits with a loop rather than a regular expression.
 */
export function scaledTextToDecimalString(text: string): string {
  const negative = text.charCodeAt(0) === 45; /* - */
  const start = negative ? 1 : 0;
  if (text.length === start) throw new RangeError(`not a scaled integer: ${text}`);
  for (let i = start; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) throw new RangeError(`not a scaled integer: ${text}`);
  }
  const magnitude = negative ? text.slice(1) : text;
  const digits = magnitude.length > SCALE_DIGITS ? magnitude : magnitude.padStart(SCALE_DIGITS + 1, '0');
  const point = digits.length - SCALE_DIGITS;
  return `${negative ? '-' : ''}${digits.slice(0, point)}.${digits.slice(point)}`;
}

/**
 * Right-pads to exactly `length` characters, as SQL Server stores char(n). Length counts code
 * points so it agrees with SQLite's length(), which the schema's CHECK constraints use.
 */
export function padChar(value: string, length: number): string {
  // Only surrogate pairs make UTF-16 length differ from the code point count; skip the slow count otherwise.
  const codePoints = SURROGATE.test(value) ? [...value].length : value.length;
  if (codePoints > length) {
    throw new RangeError(`value is ${codePoints} characters, longer than char(${length}): ${JSON.stringify(value)}`);
  }
  const missing = length - codePoints;
  return missing === 0 ? value : value + (missing <= BLANKS.length ? BLANKS.slice(0, missing) : ' '.repeat(missing));
}

/** Padding source: slicing a prebuilt run of blanks is cheaper than repeat() on every value. */
const BLANKS = ' '.repeat(256);

/** 'YYYY-MM-DD' -> 'YYYY-MM-DD 00:00:00.000' (GP date-only columns carry a zero time). */
export function gpDate(isoDate: string): string {
  const match = ISO_DATE_PATTERN.exec(isoDate);
  const [, year, month, day] = match ?? [];
  if (!match || !isRealDate(Number(year), Number(month), Number(day))) {
    throw new RangeError(`not a date YYYY-MM-DD: ${JSON.stringify(isoDate)}`);
  }
  return `${isoDate} 00:00:00.000`;
}

/** Epoch milliseconds -> 'YYYY-MM-DD HH:MM:SS.SSS' in UTC, the DEX_ROW_TS encoding. */
export function gpTimestampFromEpochMs(epochMs: number): string {
  if (!Number.isSafeInteger(epochMs)) throw new RangeError(`not an integer epoch ms: ${epochMs}`);
  return new Date(epochMs).toISOString().slice(0, 23).replace('T', ' ');
}

function isRealDate(year: number, month: number, day: number): boolean {
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}
