import type { WritableObjectName, WriteBody } from '@gp-gateway/protocol';
import { PreparedResource } from '../catalogue/compile.ts';
import type { ResourceDef } from '../catalogue/types.ts';
import { SqliteDatabases } from '../db/sqliteDatabases.ts';
import { SqliteExecutor } from '../db/sqliteExecutor.ts';
import type { SelectQuery } from '../sql/model.ts';
import { renderSelect } from '../sql/render.ts';
import { padChar } from '@gp-gateway/gp-schema';
import { AgentError } from '../service/agentError.ts';
import { JOURNAL_TABLE, replayFromJournal, SQLITE_JOURNAL_DDL, type JournalRow } from './journal.ts';
import { checkReferencesSqlite } from './references/sqlite.ts';
import { preparedOnce } from './preparedStatements.ts';
import { writeAddress, writeCustomer, writeVendor } from './sqlite/cards.ts';
import type { Db, ReadBack, WriteContext, Written } from './sqlite/context.ts';
import { writeJournalEntry } from './sqlite/journalEntries.ts';
import { writePayable } from './sqlite/payables.ts';
import { writeReceivable } from './sqlite/receivables.ts';
import { writeSalesOrder } from './sqlite/salesOrders.ts';

/** Each writable object's writer (sqlite/): its checks, its rows and how it reads back. */
const WRITERS: Record<WritableObjectName, (context: WriteContext) => Written> = {
  customers: writeCustomer,
  'customer-addresses': (context) => writeAddress(context, 'customer'),
  vendors: writeVendor,
  'vendor-addresses': (context) => writeAddress(context, 'vendor'),
  'sales-orders': writeSalesOrder,
  'ar-invoices': writeReceivable,
  'ap-invoices': writePayable,
  'gl-entries': writeJournalEntry,
};

export interface SqliteWriterOptions {
  dir: string;
  /** The sandbox: checks only; validate-only is all it answers. */
  readonly: boolean;
}

/** What a write did: its outcome, the answer JSON, and the id it created. */
export interface WriteDone {
  outcome: 'created' | 'validated' | 'replayed' | 'not_executed';
  answer: string | null;
}

/** A write a checked body describes, as the writer runs it. */
export interface WriteRequest {
  object: WritableObjectName;
  company: string;
  operationId: string;
  body: WriteBody;
  validateOnly: boolean;
}

/**
 * Writes on the embedded database, the way eConnect writes GP's tables (docs/decisions.md#writes):
 * references checked, the next number taken from GP's numbering table, the document's rows, its
 * batch, and the journal row, all in one transaction; each object's rows are written by its module in sqlite/. SQLite has one writer, so every write here
 * runs on one connection per company, synchronously, in `BEGIN IMMEDIATE` (which takes the write
 * lock at once, so no read inside the transaction is ever stale). A read-only database (the
 * sandbox) runs the checks and writes nothing.
 */
export class SqliteWriter {
  private readonly databases: SqliteDatabases;
  private readonly executor: SqliteExecutor;
  private readonly readonly: boolean;
  private readonly resources = new Map<ResourceDef, PreparedResource>();

  constructor(options: SqliteWriterOptions) {
    this.readonly = options.readonly;
    this.databases = new SqliteDatabases({ dir: options.dir, readonly: options.readonly });
    this.executor = new SqliteExecutor({ dir: options.dir }, this.databases);
  }

  /** The companies SY01500 lists, upper-cased: a company id is never used unchecked. */
  private checkCompany(company: string): string {
    const id = company.toUpperCase();
    const row = preparedOnce(this.databases.database('DYNAMICS'), 'SELECT 1 FROM SY01500 WHERE INTERID = ?').get(padChar(id, 5));
    if (!row) throw new AgentError('VALIDATION_ERROR', 'unknown company');
    return id;
  }

  private journalOf(db: Db, operationId: string): JournalRow | null {
    // Created inside the write's transaction: a validate-only write, rolled back, leaves not even the
    // table behind. Looked for first: parsing the DDL on every write cost more than the look-up.
    const exists = () => preparedOnce(db, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(JOURNAL_TABLE);
    if (!exists()) {
      if (this.readonly) return null;
      db.exec(SQLITE_JOURNAL_DDL);
    }
    const row = preparedOnce(db, `SELECT STATE, OBJECT_NAME, CREATED_ID, ANSWER FROM ${JOURNAL_TABLE} WHERE OPERATION_ID = ?`).get(
      operationId,
    ) as { STATE: JournalRow['state']; OBJECT_NAME: string; CREATED_ID: string | null; ANSWER: string | null } | undefined;
    return row ? { state: row.STATE, object: row.OBJECT_NAME, createdId: row.CREATED_ID, answer: row.ANSWER } : null;
  }

  /** Runs `work` in one `BEGIN IMMEDIATE` transaction, committed only when it says so. */
  private transaction<T>(db: Db, work: () => { result: T; commit: boolean }): T {
    db.exec('BEGIN IMMEDIATE');
    let done = false;
    try {
      const { result, commit } = work();
      db.exec(commit ? 'COMMIT' : 'ROLLBACK');
      done = true;
      return result;
    } finally {
      if (!done && db.inTransaction) db.exec('ROLLBACK');
    }
  }

  /**
   * One write: the journal first (a known operation id answers what it answered the first time),
   * then every check, the rows, the read-back and the journal row, committed together; validate-only
   * rolls it all back. `afterCommit` runs right after COMMIT (the test-only fault hook).
   */
  write(request: WriteRequest, afterCommit?: () => void): WriteDone {
    const company = this.checkCompany(request.company);
    const db = this.databases.database(company);
    if (this.readonly && !request.validateOnly)
      throw new AgentError('FORBIDDEN', 'this database is read-only: only validate-only writes are answered here');
    const done = this.readonly
      ? this.checkOnly(db, company, request)
      : this.transaction(db, () => {
          const known = this.journalOf(db, request.operationId);
          if (known) return { result: replayFromJournal(known, request.operationId), commit: false };
          const written = this.writeRows(db, company, request);
          const answer = written.readBack();
          if (request.validateOnly) return { result: { outcome: 'validated', answer } satisfies WriteDone, commit: false };
          preparedOnce(
            db,
            `INSERT INTO ${JOURNAL_TABLE} (OPERATION_ID, OBJECT_NAME, CREATED_ID, STATE, ANSWER, RECORDED_AT) VALUES (?, ?, ?, 'committed', ?, ?)`,
          ).run(request.operationId, request.object, written.id, answer, new Date().toISOString());
          return { result: { outcome: 'created', answer } satisfies WriteDone, commit: true };
        });
    if (done.outcome === 'created') afterCommit?.();
    return done;
  }

  /**
   * What became of an operation: its journal row's answer, or, when there is none, a row that marks
   * it abandoned, inserted now: the write, should it still be running somewhere, then fails on the
   * primary key and can never commit.
   */
  outcome(companyId: string, operationId: string): WriteDone {
    const company = this.checkCompany(companyId);
    const db = this.databases.database(company);
    const settled = (known: JournalRow): WriteDone =>
      known.state === 'committed' ? { outcome: 'replayed', answer: known.answer } : { outcome: 'not_executed', answer: null };
    if (this.readonly) {
      const known = this.journalOf(db, operationId);
      return known ? settled(known) : { outcome: 'not_executed', answer: null };
    }
    return this.transaction(db, () => {
      const known = this.journalOf(db, operationId);
      if (known) return { result: settled(known), commit: false };
      preparedOnce(
        db,
        `INSERT INTO ${JOURNAL_TABLE} (OPERATION_ID, OBJECT_NAME, CREATED_ID, STATE, ANSWER, RECORDED_AT) VALUES (?, '', NULL, 'abandoned', NULL, ?)`,
      ).run(operationId, new Date().toISOString());
      return { result: { outcome: 'not_executed', answer: null } satisfies WriteDone, commit: true };
    });
  }

  /** The sandbox's validate-only: every check in a read-only transaction; nothing is written or read back. */
  private checkOnly(db: Db, company: string, request: WriteRequest): WriteDone {
    const preview = this.transactionReadOnly(db, () => this.writeRows(db, company, request, { dryRun: true }));
    return { outcome: 'validated', answer: preview.readBack() };
  }

  private transactionReadOnly<T>(db: Db, work: () => T): T {
    db.exec('BEGIN');
    try {
      return work();
    } finally {
      db.exec('ROLLBACK');
    }
  }

  private prepared(def: ResourceDef): PreparedResource {
    let resource = this.resources.get(def);
    if (!resource) {
      resource = new PreparedResource(def, this.executor.dialect);
      this.resources.set(def, resource);
    }
    return resource;
  }

  /** How a record written in `company` is read back: on the writer's connection, so inside its transaction. */
  private readBack(company: string): ReadBack {
    const rows = (query: SelectQuery) => {
      const compiled = renderSelect(query, this.executor.dialect);
      return this.databases.run(company, compiled.sql, compiled.params);
    };
    return {
      one: (def, parts) => {
        const resource = this.prepared(def);
        for (const query of resource.getQueries(company, parts)) {
          const [row] = rows(query);
          if (row) return resource.encode(row);
        }
        throw new Error(`${def.object} ${parts.join(':')} was written but cannot be read back`);
      },
      lines: (def, filters) => {
        const resource = this.prepared(def);
        const encoded: string[] = [];
        for (const { query } of resource.listQueries(company, filters, 1000, null))
          for (const row of rows(query)) encoded.push(resource.encode(row));
        return `[${encoded.join(',')}]`;
      },
    };
  }

  private writeRows(db: Db, company: string, request: WriteRequest, options: { dryRun?: boolean } = {}): Written {
    const context: WriteContext = {
      db,
      company,
      body: request.body,
      // Every reference is checked before any row is written (references/describe.ts).
      checks: checkReferencesSqlite(db, request.object, request.body),
      dry: options.dryRun === true,
      read: this.readBack(company),
    };
    return WRITERS[request.object](context);
  }

  close(): void {
    this.databases.close();
  }
}
