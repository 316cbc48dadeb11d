import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { GlEntrySchema, type WriteOperation } from '@gp-gateway/protocol';
import { demoAccountFramework, generateDemo } from '@gp-gateway/gp-demo';
import { SqliteExecutor } from '../db/sqliteExecutor.ts';
import { AgentError } from '../service/agentError.ts';
import { payloadText, ReadService } from '../service/readService.ts';
import { SqliteWriter } from './sqliteWriter.ts';
import { WriteService } from './writeService.ts';

/**
 * Journal entries on installs whose account framework is not the sample's four segments
 * (docs/decisions.md#the-chart-of-accounts): lines name accounts by their formatted number in that
 * framework, each line lands on the account of that number (also where two accounts share all
 * but their last segment), and the entry reads back through the read catalogue.
 */
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'chart-writes-'));
const closers: Array<() => Promise<void>> = [];
after(async () => {
  for (const close of closers) await close();
  fs.rmSync(root, { recursive: true, force: true });
});

let ids = 0;
const write = (body: Record<string, unknown>): WriteOperation => ({
  kind: 'write',
  object: 'gl-entries',
  company: 'TWO',
  operationId: `chart-${process.pid}-${ids++}`.padEnd(16, 'x'),
  body,
  validateOnly: false,
});

const CASES = [
  { segments: 3, expense: '200-6100-00', other: '300-6100-00', cash: '000-1100-00', foreign: '200-6100-00-00-01' },
  // The two expense accounts differ in the fifth segment only.
  { segments: 5, expense: '200-6100-00-00-01', other: '200-6100-00-00-02', cash: '000-1100-00-00-00', foreign: '200-6100-00' },
];

for (const { segments, expense, other, cash, foreign } of CASES) {
  describe(`journal entries on a ${segments}-segment chart of accounts`, () => {
    const dir = path.join(root, `segments-${segments}`);
    generateDemo({ dir, seed: 13, accountFramework: demoAccountFramework(segments) });
    const writes = new WriteService(new SqliteWriter({ dir, readonly: false }), { allowWrites: true });
    const executor = new SqliteExecutor({ dir });
    const reads = new ReadService(executor);
    closers.push(async () => {
      await writes.close();
      await executor.close();
    });
    const indexOf = (number: string): number => {
      const db = new Database(path.join(dir, 'TWO.sqlite'), { readonly: true });
      try {
        return db.prepare('SELECT ACTINDX FROM GL00105 WHERE rtrim(ACTNUMST) = ?').pluck().get(number) as number;
      } finally {
        db.close();
      }
    };

    test('lines that name accounts by number post to those accounts and read back', async () => {
      const body = {
        reference: `${segments}-segment accrual`,
        date: '2026-11-22',
        batchId: 'CHART-GL',
        lines: [
          { accountNumber: expense, debit: '70.00' },
          { accountNumber: other, debit: '30.00' },
          { accountNumber: cash, credit: '100.00' },
        ],
      };
      const answer = await writes.write(write(body));
      assert.equal(answer.outcome, 'created');
      const lines = (JSON.parse(answer.payload!) as unknown[]).map((line) => GlEntrySchema.parse(line));
      assert.deepEqual(
        lines.map((l) => [l.accountNumber, l.debit, l.credit]),
        [
          [expense, '70.00', '0.00'],
          [other, '30.00', '0.00'],
          [cash, '0.00', '100.00'],
        ],
      );
      const db = new Database(path.join(dir, 'TWO.sqlite'), { readonly: true });
      try {
        const posted = db
          .prepare('SELECT ACTINDX FROM GL10001 WHERE JRNENTRY = ? ORDER BY SQNCLINE')
          .pluck()
          .all(lines[0]!.journalEntryNumber);
        assert.deepEqual(posted, [indexOf(expense), indexOf(other), indexOf(cash)]);
      } finally {
        db.close();
      }
      const page = await reads.handle({
        kind: 'list',
        object: 'gl-entries',
        company: 'TWO',
        filters: { year: 'unposted', journalEntryNumber: lines[0]!.journalEntryNumber! },
        limit: 10,
        after: null,
      });
      assert.deepEqual(JSON.parse(payloadText(page.payload)), JSON.parse(answer.payload!));
    });

    test('a number formatted for another framework names no account, and the line says so', async () => {
      const refused = await writes
        .write(
          write({
            reference: 'wrong framework',
            date: '2026-11-22',
            batchId: 'CHART-GL',
            lines: [
              { accountNumber: foreign, debit: '5.00' },
              { accountNumber: cash, credit: '5.00' },
            ],
          }),
        )
        .then(
          () => assert.fail('the write was not refused'),
          (error: unknown) => error,
        );
      assert.ok(refused instanceof AgentError);
      assert.equal(refused.code, 'VALIDATION_ERROR');
      assert.deepEqual((refused.details as { issues: unknown[] }).issues, [
        { path: 'lines.0.accountNumber', message: 'no account with this number' },
      ]);
    });
  });
}
