/**
 * Checks an agent's answer before its bytes go to a client unparsed: a list page must be one JSON
 * array of objects, a get one JSON object, and nothing else may follow. One pass over the bytes that
 * builds nothing (JSON.parse would build every row only to throw it away): the gateway passes
 * agents' data through without re-serialising it, and must still never send a client
 * `200 application/json` that is not JSON. UTF-8 validity is checked apart (node:buffer isUtf8).
 * A written record (`record`) is either: one object, or for a journal entry the array of its lines.
 */
export type PayloadShape = 'list' | 'get' | 'record';

/** Rows are flat; nesting this deep is not an answer of ours. */
const MAX_DEPTH = 32;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const MINUS = 0x2d;
const PLUS = 0x2b;
const POINT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;

class Malformed extends Error {}

/** Bytes that may stand for themselves inside a JSON string: all but control characters, `"` and `\\`. */
const PLAIN = new Uint8Array(256).map((_, c) => (c >= 0x20 && c !== QUOTE && c !== BACKSLASH ? 1 : 0));

/**
 * The fields every record must have, each once, and no other (docs/api.md#objects: "exactly the
 * fields listed"), looked up by name; built once per object.
 */
export class RecordFields {
  readonly index: ReadonlyMap<string, number>;
  /** Each name's bytes, in the document's order: the order agents write them in, compared without building a string. */
  readonly bytes: readonly Uint8Array[];

  constructor(names: readonly string[]) {
    this.index = new Map(names.map((name, i) => [name, i]));
    this.bytes = names.map((name) => Buffer.from(name));
  }
}

/**
 * Why `bytes` is not a payload of that shape, or null when it is. With `fields`, each record (the
 * page's objects, the got object) must also have exactly those fields: an agent may not hand a
 * client a field the object does not have, `__proto__` included, nor leave one out.
 */
export function payloadProblem(bytes: Uint8Array, shape: PayloadShape, fields?: RecordFields): string | null {
  if (fields !== undefined && shape !== 'record' && isCompactRecords(bytes, shape === 'list', fields)) return null;
  const scan = new Scanner(bytes, fields ?? null);
  try {
    scan.space();
    if (shape === 'list' || (shape === 'record' && bytes[scan.pos] === OPEN_BRACKET)) scan.arrayOfObjects();
    else scan.object(1, true);
    scan.space();
    if (scan.pos !== bytes.length) scan.fail('data after the end');
    return null;
  } catch (error) {
    if (error instanceof Malformed) return error.message;
    throw error;
  }
}

/**
 * The common case, fast: a page (or record) as agents write it, JSON.stringify's output: no blanks,
 * each record's fields in the document's order, flat values. True only when `bytes` is such a
 * payload with exactly `fields`; false for anything else, which the Scanner then reads in full,
 * accepting what is valid but written otherwise and naming what is wrong. One loop over a local
 * position is what V8 runs fastest: this is 2 to 3 times faster than the Scanner on a 100-row
 * page, where the Scanner was 28% of a list request's CPU (docs/performance.md).
 */
export function isCompactRecords(b: Uint8Array, list: boolean, fields: RecordFields): boolean {
  const names = fields.bytes;
  const count = names.length;
  let p = 0;
  if (list) {
    if (b[p++] !== OPEN_BRACKET) return false;
    if (b[p] === CLOSE_BRACKET) return p + 1 === b.length;
  }
  for (;;) {
    if (b[p++] !== OPEN_BRACE) return false;
    for (let ordinal = 0; ordinal < count; ordinal++) {
      if (ordinal > 0 && b[p++] !== COMMA) return false;
      // The name, compared with the field the document has at this place, quotes and colon included.
      const name = names[ordinal]!;
      if (b[p++] !== QUOTE) return false;
      for (let k = 0; k < name.length; k++) if (b[p++] !== name[k]) return false;
      if (b[p++] !== QUOTE || b[p++] !== COLON) return false;
      const c = b[p];
      if (c === QUOTE) {
        p++;
        for (;;) {
          const d = b[p++]!;
          if (PLAIN[d] === 1) continue;
          if (d === QUOTE) break;
          if (d !== BACKSLASH) return false;
          const e = b[p++];
          if (e === 0x75) {
            for (let i = 0; i < 4; i++) if (!isHex(b[p++])) return false;
          } else if (!isSimpleEscape(e)) return false;
        }
      } else if (c === 0x6e /* n */) {
        if (b[p + 1] !== 0x75 || b[p + 2] !== 0x6c || b[p + 3] !== 0x6c) return false;
        p += 4;
      } else if (c === 0x74 /* t */) {
        if (b[p + 1] !== 0x72 || b[p + 2] !== 0x75 || b[p + 3] !== 0x65) return false;
        p += 4;
      } else if (c === 0x66 /* f */) {
        if (b[p + 1] !== 0x61 || b[p + 2] !== 0x6c || b[p + 3] !== 0x73 || b[p + 4] !== 0x65) return false;
        p += 5;
      } else {
        // A number: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
        if (b[p] === MINUS) p++;
        if (b[p] === ZERO) p++;
        else if (!isDigit(b[p])) return false;
        else while (isDigit(b[p])) p++;
        if (b[p] === POINT) {
          if (!isDigit(b[++p])) return false;
          while (isDigit(b[p])) p++;
        }
        if (b[p] === 0x65 || b[p] === 0x45) {
          p++;
          if (b[p] === PLUS || b[p] === MINUS) p++;
          if (!isDigit(b[p])) return false;
          while (isDigit(b[p])) p++;
        }
      }
    }
    if (b[p++] !== CLOSE_BRACE) return false;
    if (!list) return p === b.length;
    const c = b[p++];
    if (c === CLOSE_BRACKET) return p === b.length;
    if (c !== COMMA) return false;
  }
}

class Scanner {
  pos = 0;
  private readonly b: Uint8Array;
  private readonly fields: RecordFields | null;
  /** Which of `fields` the record being read has had, by index. */
  private readonly seen: Uint8Array;

  constructor(bytes: Uint8Array, fields: RecordFields | null) {
    this.b = bytes;
    this.fields = fields;
    this.seen = new Uint8Array(fields?.index.size ?? 0);
  }

  fail(what: string): never {
    throw new Malformed(`${what} at byte ${this.pos}`);
  }

  space(): void {
    const b = this.b;
    let c = b[this.pos];
    while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = b[++this.pos];
  }

  private expect(byte: number, what: string): void {
    if (this.b[this.pos] !== byte) this.fail(`expected ${what}`);
    this.pos++;
  }

  arrayOfObjects(): void {
    this.list('a JSON array', 'between records', () => this.object(2, true));
  }

  /** `[`, then `element` separated by commas, then `]`. */
  private list(opening: string, where: string, element: () => void): void {
    this.expect(OPEN_BRACKET, opening);
    this.space();
    if (this.b[this.pos] === CLOSE_BRACKET) return void this.pos++;
    for (;;) {
      element();
      this.space();
      const c = this.b[this.pos++];
      if (c === CLOSE_BRACKET) return;
      if (c !== COMMA) this.fail(`expected , or ] ${where}`);
      this.space();
    }
  }

  /** An object; a `record` is checked against the fields, when there are any. */
  object(depth: number, isRecord = false): void {
    const record = isRecord && this.fields !== null;
    if (record) this.seen.fill(0);
    this.expect(OPEN_BRACE, 'a JSON object');
    this.space();
    if (this.b[this.pos] === CLOSE_BRACE) {
      this.pos++;
      return record ? this.allFields() : undefined;
    }
    for (let ordinal = 0; ; ordinal++) {
      const start = this.pos;
      this.string();
      if (record) this.field(start, ordinal);
      this.space();
      this.expect(COLON, ':');
      this.space();
      this.value(depth);
      this.space();
      const c = this.b[this.pos++];
      if (c === CLOSE_BRACE) return record ? this.allFields() : undefined;
      if (c !== COMMA) this.fail('expected , or } in an object');
      this.space();
    }
  }

  /**
   * The name that ends at `pos` (a string from `start`, quotes included) is a field of the record,
   * not seen before. It is first compared with the field the document has at this place (`ordinal`),
   * where agents write it, byte by byte; only a name elsewhere is looked up by its text.
   */
  private field(start: number, ordinal: number): void {
    const from = start + 1;
    const end = this.pos - 1;
    const i = this.isAt(from, end, ordinal) ? ordinal : this.fields!.index.get(this.text(from, end));
    if (i === undefined || this.seen[i] === 1) {
      const name = this.text(from, end);
      this.pos = start;
      this.fail(i === undefined ? `a field the object does not have (${JSON.stringify(name.slice(0, 64))})` : `the field ${name} twice`);
    }
    this.seen[i] = 1;
  }

  /** Whether the bytes from `from` to `end` are the name of the document's field at `ordinal`. */
  private isAt(from: number, end: number, ordinal: number): boolean {
    const expected = this.fields!.bytes[ordinal];
    if (expected === undefined || expected.length !== end - from) return false;
    for (let k = 0; k < expected.length; k++) if (this.b[from + k] !== expected[k]) return false;
    return true;
  }

  /** The bytes from `from` to `end` as text, one character a byte: field names are ASCII, and anything else matches none. */
  private text(from: number, end: number): string {
    let text = '';
    for (let p = from; p < end; p++) text += String.fromCharCode(this.b[p]!);
    return text;
  }

  private allFields(): void {
    const missing = this.seen.indexOf(0);
    if (missing !== -1) this.fail(`a record without the field ${[...this.fields!.index.keys()][missing]}`);
  }

  private array(depth: number): void {
    this.list('[', 'in an array', () => this.value(depth));
  }

  private value(depth: number): void {
    if (depth > MAX_DEPTH) this.fail('nesting too deep');
    const c = this.b[this.pos];
    if (c === QUOTE) return this.string();
    if (c === OPEN_BRACE) return this.object(depth + 1);
    if (c === OPEN_BRACKET) return this.array(depth + 1);
    if (c === MINUS || (c !== undefined && c >= ZERO && c <= NINE)) return this.number();
    if (this.literal('true') || this.literal('false') || this.literal('null')) return;
    this.fail('expected a JSON value');
  }

  private literal(word: string): boolean {
    for (let i = 0; i < word.length; i++) if (this.b[this.pos + i] !== word.charCodeAt(i)) return false;
    this.pos += word.length;
    return true;
  }

  private string(): void {
    this.expect(QUOTE, 'a string');
    const b = this.b;
    let p = this.pos;
    for (;;) {
      const c = b[p++]!;
      // Most bytes of a page are plain text: one look-up lets them through.
      if (PLAIN[c] === 1) continue;
      if (c === QUOTE) break;
      this.pos = p - 1;
      if (c === undefined) this.fail('unterminated string');
      if (c < 0x20) this.fail('a control character in a string');
      if (c === BACKSLASH) {
        const e = b[p++];
        if (e === 0x75) {
          for (let i = 0; i < 4; i++, p++) if (!isHex(b[p])) ((this.pos = p), this.fail('a bad \\u escape'));
        } else if (!isSimpleEscape(e)) {
          this.pos = p - 1;
          this.fail('a bad escape');
        }
      }
    }
    this.pos = p;
  }

  private number(): void {
    const b = this.b;
    if (b[this.pos] === MINUS) this.pos++;
    if (b[this.pos] === ZERO) this.pos++;
    else if (!this.digits()) this.fail('a bad number');
    if (b[this.pos] === POINT) {
      this.pos++;
      if (!this.digits()) this.fail('a bad number');
    }
    if (b[this.pos] === 0x65 || b[this.pos] === 0x45) {
      this.pos++;
      if (b[this.pos] === PLUS || b[this.pos] === MINUS) this.pos++;
      if (!this.digits()) this.fail('a bad number');
    }
  }

  /** One or more digits; false when there is none. */
  private digits(): boolean {
    const start = this.pos;
    let c = this.b[this.pos];
    while (c !== undefined && c >= ZERO && c <= NINE) c = this.b[++this.pos];
    return this.pos > start;
  }
}

function isDigit(c: number | undefined): boolean {
  return c !== undefined && c >= ZERO && c <= NINE;
}

/** `\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`: the escapes JSON has besides `\u`. */
function isSimpleEscape(e: number | undefined): boolean {
  return e === QUOTE || e === BACKSLASH || e === 0x2f || e === 0x62 || e === 0x66 || e === 0x6e || e === 0x72 || e === 0x74;
}

function isHex(c: number | undefined): boolean {
  return c !== undefined && ((c >= ZERO && c <= NINE) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66));
}
