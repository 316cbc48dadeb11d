import type { WriteOutcome } from '@gp-gateway/protocol';
import { AgentError } from '../service/agentError.ts';

/**
 * The write journal (docs/decisions.md#the-write-journal): one row per operation id, in each company
 * database, written in the same transaction as the document it records, so that the two commit or
 * roll back together. It is the agent's own table, not GP's: GP never reads it, and its one index is
 * its primary key, the operation id. `state` is `committed` (the answer is the created record's
 * JSON) or `abandoned` (an outcome asked before the write committed: the row's primary key then
 * stops that write from ever committing).
 */
export const JOURNAL_TABLE = 'GPGW_WRITE_JOURNAL';

export type JournalState = 'committed' | 'abandoned';

export interface JournalRow {
  state: JournalState;
  object: string;
  createdId: string | null;
  answer: string | null;
}

/** SQLite: created by the writer on first use in each company database. */
export const SQLITE_JOURNAL_DDL =
  `CREATE TABLE IF NOT EXISTS ${JOURNAL_TABLE} (` +
  'OPERATION_ID TEXT NOT NULL PRIMARY KEY, ' +
  'OBJECT_NAME TEXT NOT NULL, ' +
  'CREATED_ID TEXT, ' +
  "STATE TEXT NOT NULL CHECK (STATE IN ('committed', 'abandoned')), " +
  'ANSWER TEXT, ' +
  'RECORDED_AT TEXT NOT NULL)';

/** SQL Server: created by the write role script (mssql/writeRole.ts) in each company database, by the customer's IT. */
export const MSSQL_JOURNAL_DDL =
  `IF OBJECT_ID(N'dbo.${JOURNAL_TABLE}', N'U') IS NULL CREATE TABLE [dbo].[${JOURNAL_TABLE}] (` +
  '[OPERATION_ID] varchar(64) NOT NULL CONSTRAINT [PK_GPGW_WRITE_JOURNAL] PRIMARY KEY, ' +
  '[OBJECT_NAME] varchar(40) NOT NULL, ' +
  '[CREATED_ID] varchar(100) NULL, ' +
  "[STATE] varchar(12) NOT NULL CONSTRAINT [CK_GPGW_WRITE_JOURNAL_STATE] CHECK ([STATE] IN ('committed', 'abandoned')), " +
  '[ANSWER] nvarchar(max) NULL, ' +
  '[RECORDED_AT] datetime2(3) NOT NULL CONSTRAINT [DF_GPGW_WRITE_JOURNAL_AT] DEFAULT (sysutcdatetime()))';

/**
 * A second request for an operation the journal knows: the answer it committed with, replayed; or,
 * when its outcome was settled as not executed before it ran, a refusal, since it can never run now.
 */
export function replayFromJournal(
  known: { state: string; answer: string | null },
  operationId: string,
): { outcome: WriteOutcome; answer: string | null } {
  if (known.state === 'committed') return { outcome: 'replayed', answer: known.answer };
  throw new AgentError(
    'IDEMPOTENCY_CONFLICT',
    `operation ${operationId} was settled as not executed (its outcome was asked before it ran); it can never run now`,
    null,
    { operationId, outcome: 'not_executed' },
  );
}
