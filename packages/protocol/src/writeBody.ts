import { Decimal } from 'decimal.js';
import { z } from 'zod';
import { AR_DISTRIBUTION_TYPES, AR_DOCUMENT_TYPES, codeOf } from './enums.ts';
import { idProblem, textProblem, textRule } from './text.ts';
import { DateOnlySchema } from './values.ts';
import {
  fitsNumeric,
  MAX_WRITE_AMOUNT,
  safely,
  WRITES,
  WriteDecimalSchema,
  type WritableObjectName,
  type WriteField,
  type WriteSpec,
} from './writes.ts';

/**
 * Checking a write body against what writes.ts declares writable: the strict zod schema built from
 * each object's fields (REST, MCP `create_record` and the agent all use it), then the rules across
 * fields GP would otherwise refuse a document for, every issue reported with its path.
 */

function fieldSchema(field: WriteField): z.ZodType {
  switch (field.kind) {
    case 'id':
      // The rule sees the id as sent: trim() would take a no-break space or a BOM off its ends unseen.
      return z
        .string()
        .superRefine(textRule(idProblem))
        .trim()
        .min(1, 'must not be empty')
        .max(field.maxLength, `at most ${field.maxLength} characters`)
        .transform((v) => v.toUpperCase())
        .describe(field.description);
    case 'text':
      return z
        .string()
        .max(field.maxLength, `at most ${field.maxLength} characters`)
        .superRefine(textRule(textProblem))
        .describe(field.description);
    case 'decimal': {
      const positive = field.min === 'positive';
      return WriteDecimalSchema.refine(
        safely((v) => (positive ? new Decimal(v).greaterThan(0) : new Decimal(v).greaterThanOrEqualTo(0))),
        { message: positive ? 'must be greater than zero' : 'must not be negative' },
      ).describe(field.description);
    }
    case 'date':
      return DateOnlySchema.refine(
        safely((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v)),
        {
          message: 'not a calendar date',
        },
      )
        .refine((v) => v >= '1900-01-02', { message: 'GP stores 1900-01-01 as "no date"; use a later date' })
        .describe(field.description);
    case 'flag':
      return z.boolean().describe(field.description);
    case 'enum': {
      const values = field.allowed as [string, ...string[]];
      return z.enum(values).describe(field.description);
    }
  }
}

function objectSchema(fields: Readonly<Record<string, WriteField>>): z.ZodObject {
  const shape: Record<string, z.ZodType> = {};
  for (const [name, field] of Object.entries(fields)) {
    const schema = fieldSchema(field);
    shape[name] = field.kind !== 'flag' && field.kind !== 'enum' && field.required ? schema : schema.optional();
  }
  return z.strictObject(shape);
}

function buildBodySchema(spec: WriteSpec): z.ZodType {
  const header = objectSchema({ ...spec.fields, ...spec.extraFields });
  if (!spec.lines) return header;
  const { fields, min, max, optional } = spec.lines;
  const lines = z
    .array(objectSchema(fields))
    .min(min, `at least ${min} line${min === 1 ? '' : 's'}`)
    .max(max, `at most ${max} lines`);
  return header.extend({ lines: optional ? lines.optional() : lines });
}

const bodySchemas = new Map<string, z.ZodType>(Object.entries(WRITES).map(([name, spec]) => [name, buildBodySchema(spec)]));

/**
 * The strict body schema of a writable object. Rules that span fields (a journal entry balances,
 * each of its lines is a debit or a credit) are checked by `checkWriteBody`, which also runs this.
 */
export function writeBodySchema(object: WritableObjectName): z.ZodType {
  return bodySchemas.get(object)!;
}

/**
 * Resource fields no body may set, with the reason a caller is told. GP's eConnect refuses a
 * document's tax amount unless tax detail lines with a tax detail id add up to it
 * (taSopHdrIvcInsert 82/799, taRMTransaction 712, taPMTransactionInsert 313; docs/decisions.md,
 * Writes): v1 writes documents without tax, and GP adds it when the document is completed there.
 */
const NOT_WRITTEN: Readonly<Record<string, string>> = {
  taxAmount:
    "taxAmount is not written: GP computes a sales document's tax from the customer's tax schedule, and accepts a tax amount on other documents only with tax detail lines, which v1 writes do not take (their tax is added in GP)",
};

/** A write body after validation: ids upper-cased, every field as the schema gives it. */
export type WriteBody = Record<string, unknown> & { lines?: Record<string, unknown>[] };

export type WriteBodyCheck = { ok: true; body: WriteBody } | { ok: false; issues: { path: string; message: string }[] };

/** Validates a body completely: the schema, then the rules across fields. Every issue is reported, with its path. */
export function checkWriteBody(object: WritableObjectName, input: unknown): WriteBodyCheck {
  const parsed = writeBodySchema(object).safeParse(input);
  if (!parsed.success) {
    return {
      ok: false,
      issues: parsed.error.issues.flatMap((issue) => {
        const path = issue.path.length ? issue.path.join('.') : 'body';
        if (issue.code !== 'unrecognized_keys') return [{ path, message: issue.message }];
        // Own properties only: `toString` or `__proto__` as a field is unknown, not Object.prototype's.
        const known = issue.keys.filter((key) => Object.hasOwn(NOT_WRITTEN, key));
        const unknown = issue.keys.filter((key) => !Object.hasOwn(NOT_WRITTEN, key));
        return [
          ...known.map((key) => ({ path: issue.path.length ? `${path}.${key}` : key, message: NOT_WRITTEN[key]! })),
          ...(unknown.length ? [{ path, message: `unknown field${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}` }] : []),
        ];
      }),
    };
  }
  const body = parsed.data as WriteBody;
  const issues = [
    ...(object === 'gl-entries' ? journalEntryIssues(body) : []),
    ...((object === 'ar-invoices' || object === 'ap-invoices') && body.lines ? distributionIssues(object, body) : []),
    ...totalIssues(object, body),
  ];
  return issues.length ? { ok: false, issues } : { ok: true, body };
}

const decimal = (value: unknown) => new Decimal((value as string | undefined) ?? '0');
const TOO_LARGE = `is more than ${MAX_WRITE_AMOUNT} (numeric(19,5) as GP's databases store it)`;

/**
 * What GP computes from a body must fit numeric(19,5) too: a sales line's extension (quantity times
 * unit price, to 5 decimals), a document's total (lines and freight; sales and freight) and a
 * journal entry's debits; each field alone was checked by the schema.
 */
function totalIssues(object: WritableObjectName, body: WriteBody): { path: string; message: string }[] {
  const issues: { path: string; message: string }[] = [];
  if (object === 'sales-orders') {
    let total = decimal(body.freightAmount);
    body.lines!.forEach((line, index) => {
      const extended = decimal(line.quantity).times(decimal(line.unitPrice)).toDecimalPlaces(5);
      if (!fitsNumeric(extended)) issues.push({ path: `lines.${index}`, message: `quantity × unitPrice ${TOO_LARGE}` });
      total = total.plus(extended);
    });
    if (issues.length === 0 && !fitsNumeric(total))
      issues.push({ path: 'lines', message: `the order's total (lines and freight) ${TOO_LARGE}` });
  }
  if (object === 'ar-invoices' && !fitsNumeric(decimal(body.salesAmount).plus(decimal(body.freightAmount))))
    issues.push({ path: 'salesAmount', message: `salesAmount + freightAmount ${TOO_LARGE}` });
  // taPMTransactionInsert: "if (@I_vTEN99AMNT > 0) and (@I_vPRCHAMNT - @I_vTRDISAMT < @I_vTEN99AMNT)" is
  // error 714; a body carries no trade discount, so the limit is the purchases amount.
  if (object === 'ap-invoices' && decimal(body.ten99Amount).greaterThan(decimal(body.purchasesAmount)))
    issues.push({ path: 'ten99Amount', message: 'more than purchasesAmount: GP refuses a 1099 amount above the purchases (error 714)' });
  if (object === 'gl-entries') {
    const debits = body.lines!.reduce((sum, line) => sum.plus(decimal(line.debit)), new Decimal(0));
    if (!fitsNumeric(debits)) issues.push({ path: 'lines', message: `the entry's total (its debits) ${TOO_LARGE}` });
  }
  return issues;
}

function journalEntryIssues(body: WriteBody): { path: string; message: string }[] {
  const issues: { path: string; message: string }[] = [];
  let debits = new Decimal(0);
  let credits = new Decimal(0);
  body.lines!.forEach((line, index) => {
    const debit = decimal(line.debit);
    const credit = decimal(line.credit);
    if (debit.greaterThan(0) === credit.greaterThan(0)) {
      issues.push({ path: `lines.${index}`, message: 'a line is either a debit or a credit, greater than zero' });
    }
    debits = debits.plus(debit);
    credits = credits.plus(credit);
  });
  if (issues.length === 0 && !debits.equals(credits)) {
    issues.push({ path: 'lines', message: 'the entry does not balance: debits and credits must be equal' });
  }
  return issues;
}

/**
 * The distribution types taRMDistribution takes per receivables document type (TLECO line 5: "if
 * ( @I_vRMDTYPAL = 1 and @I_vDISTTYPE not in (1,2,3,5,8,9,10,11,12,13,14,15,23,24,25) or … ) … 1339";
 * 25 is not among the types eConnect documents, and not offered).
 */
const AR_TYPES_OF_DOCUMENT: Readonly<Record<number, readonly number[]>> = {
  1: [1, 2, 3, 5, 8, 9, 10, 11, 12, 13, 14, 15, 23, 24],
  3: [1, 2, 3, 5, 8, 10, 11, 12, 13, 14, 15, 18, 23, 24],
  4: [1, 2, 3, 5, 8, 10, 11, 12, 13, 14, 15, 16, 23, 24],
  5: [1, 2, 3, 5, 8, 10, 11, 12, 13, 14, 15, 20, 23, 24],
  6: [8, 10, 11, 12, 13, 14, 15, 21, 22],
  7: [1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12, 13, 14, 15, 19],
  8: [1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12, 13, 14, 15, 17, 21, 23, 24],
};

/**
 * A document's own distributions, as GP checks each line (taRMDistribution 1342-1344, taPMDistribution
 * 772 and 739: one side, above zero; 1339: a type the document type takes), then, as the agent's own
 * rule so that a document is written only as it can be posted, debits equal to credits and to the
 * document's amount: eConnect checks neither on entry (docs/decisions.md#distribution-lines).
 */
function distributionIssues(object: 'ar-invoices' | 'ap-invoices', body: WriteBody): { path: string; message: string }[] {
  const issues: { path: string; message: string }[] = [];
  const documentType = object === 'ar-invoices' ? codeOf(AR_DOCUMENT_TYPES, String(body.type ?? 'invoice'))! : null;
  let debits = new Decimal(0);
  let credits = new Decimal(0);
  body.lines!.forEach((line, index) => {
    const debit = decimal(line.debit);
    const credit = decimal(line.credit);
    if (debit.greaterThan(0) === credit.greaterThan(0))
      issues.push({ path: `lines.${index}`, message: 'a line is either a debit or a credit, greater than zero' });
    if (documentType !== null && !AR_TYPES_OF_DOCUMENT[documentType]!.includes(codeOf(AR_DISTRIBUTION_TYPES, String(line.type))!))
      issues.push({
        path: `lines.${index}.type`,
        message: `GP takes no ${String(line.type)} distribution on a ${String(body.type ?? 'invoice')} (error 1339)`,
      });
    debits = debits.plus(debit);
    credits = credits.plus(credit);
  });
  if (issues.length) return issues;
  if (!debits.equals(credits)) return [{ path: 'lines', message: 'the distributions do not balance: debits and credits must be equal' }];
  const amount = object === 'ar-invoices' ? decimal(body.salesAmount).plus(decimal(body.freightAmount)) : decimal(body.purchasesAmount);
  if (!debits.equals(amount))
    return [{ path: 'lines', message: `the distributions total ${debits.toFixed()}, not the document's amount ${amount.toFixed()}` }];
  return [];
}
