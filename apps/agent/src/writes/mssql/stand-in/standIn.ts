import { fileURLToPath } from 'node:url';
import { Decimal } from 'decimal.js';
import type { TsqlBatch } from '../econnectCalls.ts';

/**
 * The STAND-IN for GP's eConnect procedures (econnect-stand-in.sql beside this file): test-only, for
 * the gated SQL Server write suite (e2e/mssqlWrites.test.ts) on a throwaway server. It is not
 * eConnect: it reproduces only the GP checks the writer's behaviour rests on (system-database reads
 * and executes, numbering, amounts, returns); docs/decisions.md#writes-on-the-agent says which.
 */
export const STAND_IN_SCRIPT = fileURLToPath(new URL('./econnect-stand-in.sql', import.meta.url));

/** The stand-in's own error codes, described in its DYNAMICS..taErrorCode rows. */
export const STAND_IN_REFUSAL = {
  /** A customer of this name is refused by taUpdateCreateCustomerRcd, as eConnect refuses. */
  customerName: 'STANDIN-REFUSE',
  gp: [
    { code: 90001, message: 'STAND-IN: the customer name asks to be refused' },
    { code: 90002, message: 'STAND-IN: a second code for the same refusal' },
  ],
} as const;

/** The calls the stand-in recorded, oldest first, with the parameters each was given (values as text, dates YYYY-MM-DD). */
export function recordedCallsSql(company: string): string {
  if (!/^[A-Za-z0-9_]{1,5}$/.test(company)) throw new Error(`not a GP company id: ${company}`);
  return [
    'SELECT c.[CALL_ID] AS [call], c.[PROCEDURE_NAME] AS [procedure], p.[PARAMETER_NAME] AS [name],',
    "  CASE WHEN SQL_VARIANT_PROPERTY(p.[PARAMETER_VALUE], 'BaseType') = 'datetime'",
    '    THEN CONVERT(nvarchar(10), CAST(p.[PARAMETER_VALUE] AS datetime), 23)',
    '    ELSE RTRIM(CONVERT(nvarchar(4000), p.[PARAMETER_VALUE])) END AS [value]',
    `FROM [${company}].[dbo].[GPGW_STANDIN_CALLS] AS c`,
    `LEFT JOIN [${company}].[dbo].[GPGW_STANDIN_PARAMETERS] AS p ON p.[CALL_ID] = c.[CALL_ID] AND p.[PARAMETER_VALUE] IS NOT NULL`,
    'ORDER BY c.[CALL_ID], p.[PARAMETER_NAME]',
  ].join('\n');
}

/** One procedure call: its name and the input parameters it is given, as the stand-in records them. */
export interface Call {
  procedure: string;
  parameters: Record<string, string>;
}

/** A value as the stand-in's record shows it: char trimmed, numeric(19,5) with its 5 decimals, a date's day. */
function asRecorded(type: string, value: string | number | null): string {
  if (type === 'numeric(19,5)') return new Decimal(String(value)).toFixed(5);
  if (type === 'datetime') return String(value).slice(0, 10);
  if (/char\(/.test(type)) return String(value).trimEnd();
  return String(Number(value));
}

/** The calls a writer's batch makes, in order, with their input parameters (outputs left out). */
export function plannedCalls(batch: TsqlBatch): Call[] {
  const calls: Call[] = [];
  for (const [, procedure, args] of batch.sql.matchAll(/EXEC @rc = \[\w+\]\.\[dbo\]\.\[(\w+)\] ([^;]*);/g)) {
    const parameters: Record<string, string> = {};
    for (const arg of args!.split(', ')) {
      const [name, value] = arg.split(' = ') as [string, string];
      if (value.endsWith(' OUTPUT')) continue;
      const param = batch.params.find((p) => `@${p.name}` === value);
      parameters[name.slice(1)] = param ? asRecorded(param.type, param.value) : value;
    }
    calls.push({ procedure: procedure!, parameters });
  }
  return calls;
}
