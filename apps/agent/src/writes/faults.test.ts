import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { generateDemo } from '@gp-gateway/gp-demo';
import { FAULT_EXIT_CODE, faultFromEnv } from './faults.ts';
import { JOURNAL_TABLE } from './journal.ts';

/**
 * GP_AGENT_FAULT=exit-after-commit, in a real process: it dies right after the COMMIT, before any
 * answer, and the document and its journal row are both in the database: what the gateway's
 * exactly-once tests kill the agent at.
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-fault-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

test('a fault the environment names is one there is; anything else is an error', () => {
  assert.equal(faultFromEnv({}), null);
  assert.equal(faultFromEnv({ GP_AGENT_FAULT: 'exit-after-commit' }), 'exit-after-commit');
  assert.throws(() => faultFromEnv({ GP_AGENT_FAULT: 'crash' }), /must be one of exit-after-commit/);
});

test('exit-after-commit ends the process after the COMMIT and before the answer', () => {
  generateDemo({ dir, seed: 3 });
  const common = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'cli', 'common.ts');
  const script = `
    const { openServing } = await import(${JSON.stringify(common)});
    const serving = openServing({ kind: 'sqlite', dir: ${JSON.stringify(dir)} }, { sqliteThreads: 1, testDelayMs: 0, allowWrites: true, fault: 'exit-after-commit' });
    await serving.writes.write({ kind: 'write', object: 'customers', company: 'TWO', operationId: 'fault-operation-0001', body: { id: 'FAULTED', name: 'Faulted' }, validateOnly: false });
    console.log('ANSWERED');
  `;
  const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  assert.equal(child.status, FAULT_EXIT_CODE, child.stderr);
  assert.doesNotMatch(child.stdout, /ANSWERED/);
  assert.match(child.stderr, /exit-after-commit/);
  const db = new Database(path.join(dir, 'TWO.sqlite'), { readonly: true });
  try {
    assert.equal(db.prepare("SELECT count(*) FROM RM00101 WHERE CUSTNMBR = 'FAULTED        '").pluck().get(), 1);
    assert.equal(db.prepare(`SELECT STATE FROM ${JOURNAL_TABLE} WHERE OPERATION_ID = 'fault-operation-0001'`).pluck().get(), 'committed');
  } finally {
    db.close();
  }
});
