import type { GpTable } from '@gp-gateway/gp-schema';
import type { GpWriteValue } from '../fieldColumns.ts';
import { JOURNAL_TABLE } from '../journal.ts';

/**
 * The T-SQL that eConnect writes are made of (econnect.ts says which calls each object makes): typed
 * parameters bound by name, procedure calls that stop the batch when GP refuses, and the number
 * steps. Values only ever travel as parameters.
 */
export interface TsqlParam {
  name: string;
  /** T-SQL type as the procedure declares it: char(n), numeric(19,5), datetime, smallint, int, tinyint, varchar(n). */
  type: string;
  value: string | number | null;
}

export interface TsqlBatch {
  sql: string;
  params: TsqlParam[];
}

/** Procedure parameters that are not columns of the table the procedure writes, typed as the procedure declares them. */
const PARAMETER_TYPES: Record<string, string> = {
  CUSTNMBR: 'char(15)',
  DOCDATE: 'datetime',
  DOCID: 'char(15)',
  ACTNUMST: 'char(75)',
  FREIGHT: 'numeric(19,5)',
  CHRGAMNT: 'numeric(19,5)',
  // A returned line's quantity buckets (taSopLineIvcInsert); SOP10200 keeps them in other columns.
  QTYONHND: 'numeric(19,5)',
  // taPMDistribution's document type ("@I_vDOCTYPE smallint"); PM10100 keeps none.
  DOCTYPE: 'smallint',
};

/** eConnect's parameter names where they differ from the column the field is read from. */
const PARAMETER_OF: Record<string, string> = { PHONE1: 'PHNUMBR1', ZIP: 'ZIPCODE' };
/** The same, for one procedure: taPMTransactionInsert takes the voucher as VCHNUMWK, taPMDistribution as VCHRNMBR. */
const PROCEDURE_PARAMETER_OF: Record<string, Record<string, string>> = { taPMTransactionInsert: { VCHRNMBR: 'VCHNUMWK' } };

/** The T-SQL type of a column as a procedure takes it: the usable length of a char (one less than an even char(n)). */
function parameterType(table: GpTable, column: string, maxLength?: number): string {
  const def = table.columns.find((c) => c.name === column);
  if (!def) {
    // A parameter with no column in the table the procedure writes (a line's document date, a journal line's account number).
    const type = PARAMETER_TYPES[column];
    if (!type) throw new Error(`${table.name} has no column ${column}`);
    return type;
  }
  switch (def.type) {
    case 'char':
      return `char(${maxLength ?? (def.length! % 2 === 0 ? def.length! - 1 : def.length!)})`;
    case 'numeric':
      return 'numeric(19,5)';
    case 'datetime':
      return 'datetime';
    default:
      return def.type;
  }
}

/** Builds one procedure call's parameters, numbered after those already in `params`. */
export class Calls {
  readonly params: TsqlParam[] = [];
  private readonly lines: string[] = [];

  constructor(
    private readonly operationId: string | null,
    private readonly database: string,
  ) {
    if (operationId !== null) this.params.push({ name: 'p0', type: 'varchar(64)', value: operationId });
  }

  /** `EXEC @rc = proc @I_vX = @pN, …`, then the check that stops the batch when GP refused. */
  call(
    proc: string,
    table: GpTable,
    values: Record<string, GpWriteValue | null>,
    lengths: Record<string, number> = {},
    flags: Record<string, number> = {},
  ): void {
    const args: string[] = [];
    for (const [column, value] of Object.entries(values)) {
      if (value === null || value === undefined) continue;
      const name = `p${this.params.length}`;
      this.params.push({ name, type: parameterType(table, column, lengths[column]), value });
      args.push(`@I_v${PROCEDURE_PARAMETER_OF[proc]?.[column] ?? PARAMETER_OF[column] ?? column} = @${name}`);
    }
    for (const [flag, value] of Object.entries(flags)) args.push(`@I_v${flag} = ${value}`);
    args.push('@O_iErrorState = @O_iErrorState OUTPUT', '@oErrString = @oErrString OUTPUT');
    this.lines.push(
      `EXEC @rc = [${this.database}].[dbo].[${proc}] ${args.join(', ')};`,
      'IF @rc <> 0 OR @O_iErrorState <> 0',
      'BEGIN',
      `  SELECT 'gp' AS [stopped], '${proc}' AS [procedure], COALESCE(NULLIF(@O_iErrorState, 0), @rc) AS [state], @oErrString AS [codes];`,
      '  RETURN;',
      'END;',
    );
  }

  batch(): TsqlBatch {
    const journal = [
      `IF EXISTS (SELECT 1 FROM [${this.database}].[dbo].[${JOURNAL_TABLE}] WITH (UPDLOCK, HOLDLOCK) WHERE [OPERATION_ID] = @p0)`,
      'BEGIN',
      "  SELECT 'journal' AS [stopped], '' AS [procedure], 0 AS [state], '' AS [codes];",
      '  RETURN;',
      'END;',
    ];
    const sql = [
      "DECLARE @rc int = 0, @O_iErrorState int = 0, @oErrString varchar(255) = '';",
      ...(this.operationId === null ? [] : journal),
      ...this.lines,
      "SELECT 'ok' AS [stopped], '' AS [procedure], 0 AS [state], '' AS [codes];",
    ].join('\n');
    return { sql, params: this.params };
  }
}

/**
 * A number step: GP's procedure that takes the next number, in a transaction the driver begins and
 * ends (mssqlWriter.ts): the batch only reports the number and GP's error state.
 */
export function numberStep(database: string, proc: string, args: string, output: string, params: TsqlParam[], declare: string): TsqlBatch {
  return {
    sql: [
      `DECLARE ${declare}, @O_iErrorState int = 0, @rc int = 0;`,
      `EXEC @rc = [${database}].[dbo].[${proc}] ${args}, @O_iErrorState = @O_iErrorState OUTPUT;`,
      `SELECT RTRIM(CAST(${output} AS varchar(21))) AS [number], COALESCE(NULLIF(@O_iErrorState, 0), @rc) AS [state];`,
    ].join('\n'),
    params,
  };
}

/**
 * A validate-only write's number: the next one as GP's numbering table shows it now, read WITH
 * (NOLOCK) so that no lock is taken or waited for, and nothing is consumed. GP's procedure would
 * skip a number already used; this one does not, so a validate-only answer may show a number that
 * the real write then skips.
 */
export function peekStep(sql: string, params: TsqlParam[]): TsqlBatch {
  return { sql: `SELECT RTRIM(CAST((${sql}) AS varchar(21))) AS [number], 0 AS [state];`, params };
}
