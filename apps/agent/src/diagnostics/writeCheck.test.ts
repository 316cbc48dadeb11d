import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { generateDemo } from '@gp-gateway/gp-demo';
import { diagnose } from '../cli/commands/diagnose.ts';
import { AgentError } from '../service/agentError.ts';
import { runWriteCheck, type CheckReferences } from '../writes/writeCheck.ts';
import { writeCheckFindings } from './writeCheck.ts';

/**
 * `gp-agent diagnose --writes` on the embedded database, end to end: every writable object through
 * the agent's own write path, validate-only, references read from the company; nothing written and
 * no number taken; a company GP would refuse named per object.
 */
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'write-check-'));
const pristine = path.join(root, 'pristine');
generateDemo({ dir: pristine, seed: 7 });
after(() => fs.rmSync(root, { recursive: true, force: true }));

let copies = 0;
function copy(): string {
  const dir = path.join(root, `copy-${copies++}`);
  fs.cpSync(pristine, dir, { recursive: true });
  return dir;
}

/** Without a gateway: the configuration check fails on the token, the database checks and the write check run. */
async function check(dir: string, company?: string) {
  const report = await diagnose(
    { sqliteDir: dir, gateway: 'http://127.0.0.1:9', token: 'not-a-token' },
    {},
    {
      writes: true,
      ...(company && { company }),
    },
  );
  return report.findings.filter((f) => f.check.startsWith('Write check'));
}

/** What a write would change: numbering, batches, the records the check names. */
function state(dir: string): string {
  const db = new Database(path.join(dir, 'TWO.sqlite'), { readonly: true });
  try {
    return JSON.stringify([
      db.prepare('SELECT NJRNLENT FROM GL40000').all(),
      db.prepare('SELECT NTVCHNUM FROM PM40100').all(),
      db.prepare('SELECT RMDTYPAL, DOCNUMBR FROM RM40401 ORDER BY RMDTYPAL').all(),
      db.prepare('SELECT SOPTYPE, DOCID, SOPNUMBE FROM SOP40200 ORDER BY SOPTYPE, DOCID').all(),
      db.prepare('SELECT COUNT(*) AS n FROM SY00500').get(),
      db.prepare("SELECT COUNT(*) AS n FROM sqlite_master WHERE name = 'GPGW_WRITE_JOURNAL'").get(),
      db.prepare("SELECT COUNT(*) AS n FROM RM00101 WHERE CUSTNMBR LIKE 'GPAGENT-CHECK%'").get(),
    ]);
  } finally {
    db.close();
  }
}

test('every writable object passes a validate-only write on the demo, and nothing is written or numbered', async () => {
  const dir = copy();
  const before = state(dir);
  const [finding, ...more] = await check(dir, 'two');
  assert.equal(more.length, 0);
  assert.equal(finding!.check, 'Write check TWO');
  assert.equal(finding!.status, 'ok');
  assert.equal(finding!.summary, '8 of 8 objects pass a validate-only write in TWO');
  assert.deepEqual(finding!.details, [
    'customers: works',
    'customer-addresses: works',
    'vendors: works',
    'vendor-addresses: works',
    'sales-orders: works',
    'ar-invoices: works',
    'ap-invoices: works',
    'gl-entries: works',
  ]);
  assert.equal(state(dir), before);
});

test('without --company, each company is checked', async () => {
  const findings = await check(copy());
  assert.deepEqual(
    findings.map((f) => [f.check, f.status]),
    [
      ['Write check TWO', 'ok'],
      ['Write check NWIND', 'ok'],
    ],
  );
});

test('a company GP would refuse: each object says why, and what the company lacks is not checked', async () => {
  const dir = copy();
  const db = new Database(path.join(dir, 'TWO.sqlite'));
  db.exec('DELETE FROM GL40000; UPDATE PM00200 SET VENDSTTS = 2');
  db.close();
  const [finding] = await check(dir, 'TWO');
  assert.equal(finding!.status, 'fail');
  assert.match(finding!.summary, /^5 of 8 objects pass a validate-only write in TWO; gl-entries would not be written; 2 not checked/);
  assert.ok(finding!.details!.includes('gl-entries: refused (GP has no general ledger setup (GL40000))'), finding!.details!.join('\n'));
  assert.ok(finding!.details!.includes('ap-invoices: not checked (the company has no active vendor)'));
  assert.ok(finding!.fix);
});

test('--company names a company the agent does not serve: the check says which it serves', async () => {
  const [finding] = await check(copy(), 'XYZ');
  assert.equal(finding!.status, 'fail');
  assert.equal(finding!.summary, 'there is no company XYZ');
  assert.match(finding!.fix!, /TWO, NWIND/);
});

test("GP's error codes and a missing grant are reported per object, in words", async () => {
  const refs: CheckReferences = {
    customerId: 'C',
    vendorId: 'V',
    itemId: 'I',
    siteId: 'S',
    accounts: ['1', '2'],
    salesDocTypeId: 'STDORD',
  };
  const writes = {
    async write(op: { object: string }) {
      if (op.object === 'sales-orders')
        throw new AgentError('VALIDATION_ERROR', 'GP refused the record (taSopLineIvcInsert): see details.gp', null, {
          gp: [{ code: 4647, message: 'The extended price does not equal the unit price times the quantity' }],
        });
      if (op.object === 'ap-invoices')
        throw new AgentError('FORBIDDEN', "the agent's SQL login lacks EXECUTE on DYNAMICS..smGetConstantInt: run the script");
      return { outcome: 'validated', payload: '{}' };
    },
  };
  const checked = await runWriteCheck(writes, 'TWO', refs, '2026-11-26');
  const [finding] = writeCheckFindings({ checkedAt: '2026-11-26T00:00:00.000Z', companies: [checked] });
  assert.equal(finding!.status, 'fail');
  assert.ok(
    finding!.details!.includes(
      'sales-orders: refused (GP error 4647: The extended price does not equal the unit price times the quantity — GP refused the record (taSopLineIvcInsert): see details.gp)',
    ),
    finding!.details!.join('\n'),
  );
  assert.ok(
    finding!.details!.includes(
      "ap-invoices: not permitted (the agent's SQL login lacks EXECUTE on DYNAMICS..smGetConstantInt: run the script)",
    ),
  );
  assert.match(finding!.fix!, /grant-write/);
});
