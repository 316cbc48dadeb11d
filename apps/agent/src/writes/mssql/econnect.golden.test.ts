import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { WRITABLE_OBJECT_NAMES, type WritableObjectName } from '@gp-gateway/protocol';
import { econnectWrite } from './econnect.ts';
import type { TsqlBatch } from './econnectCalls.ts';
import { goldenBody } from './goldenBodies.ts';
import { plannedCalls } from './stand-in/standIn.ts';
import { checksOf } from '../references/describe.ts';
import { referenceBatch } from '../references/mssql.ts';

/**
 * The eConnect T-SQL of every writable object (econnect.ts): golden files under golden/ that a
 * reviewer reads (run with UPDATE_GOLDEN=1 to rewrite them after an intended change, then read the
 * diff), and every batch parsed by a real T-SQL grammar (sqlfluff, as sql/tsqlParse.test.ts).
 */
const GOLDEN_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'golden');
const OPERATION = 'golden-operation-0001';

/** The number the golden main batches are rendered with, as the number step would have answered. */
const TAKEN: Record<WritableObjectName, string | null> = {
  customers: null,
  'customer-addresses': null,
  vendors: null,
  'vendor-addresses': null,
  'sales-orders': 'ORDST1101',
  'ar-invoices': 'INV00001359',
  'ap-invoices': '00000000000800043',
  'gl-entries': '2426',
};

function batchesOf(object: WritableObjectName): { name: string; batch: TsqlBatch }[] {
  const write = econnectWrite(object, goldenBody(object), OPERATION, 'TWO');
  return [
    ...(write.numbers ? [{ name: 'numbers', batch: write.numbers }] : []),
    ...(write.peek ? [{ name: 'peek (validate-only)', batch: write.peek }] : []),
    { name: 'main', batch: write.main(TAKEN[object]) },
  ];
}

function render(object: WritableObjectName): string {
  const out = [`-- ${object}: the eConnect calls of one write (writes/mssql/econnect.ts); parameters bound as typed below.`];
  // The reference checks run first (writes/references/mssql.ts); sql/tsqlParse.test.ts parses them.
  const references = { name: 'references', batch: referenceBatch('TWO', checksOf(object, goldenBody(object))) };
  for (const { name, batch } of [references, ...batchesOf(object)]) {
    out.push('', `-- ${name}`);
    for (const p of batch.params) out.push(`-- @${p.name} ${p.type} = ${JSON.stringify(p.value)}`);
    out.push(batch.sql);
  }
  return `${out.join('\n')}\n`;
}

test('the eConnect T-SQL of every writable object is the reviewed one', () => {
  for (const object of WRITABLE_OBJECT_NAMES) {
    const file = path.join(GOLDEN_DIR, `${object}.sql`);
    const text = render(object);
    if (process.env.UPDATE_GOLDEN) fs.writeFileSync(file, text);
    assert.equal(text, fs.readFileSync(file, 'utf8'), `${object}: golden/${object}.sql differs (UPDATE_GOLDEN=1 rewrites it)`);
  }
});

test('creates never update: every create passes UpdateIfExists = 0, and each procedure is checked after its call', () => {
  for (const object of WRITABLE_OBJECT_NAMES) {
    const main = batchesOf(object).at(-1)!.batch.sql;
    const calls = main.match(/EXEC @rc = /g)!.length;
    assert.equal(main.match(/IF @rc <> 0 OR @O_iErrorState <> 0/g)!.length, calls, object);
    if (['customers', 'vendors', 'customer-addresses', 'vendor-addresses'].includes(object))
      assert.match(main, /@I_vUpdateIfExists = 0/, object);
    // Every value is a parameter: no literal from the body reaches the text.
    assert.doesNotMatch(main, /AARONFIT0001|API-|Consulting|O''Brien/, object);
  }
  const order = batchesOf('sales-orders').at(-1)!.batch.sql;
  assert.ok(order.indexOf('taSopLineIvcInsert') < order.indexOf('taSopHdrIvcInsert'), 'lines before the header');
  const entry = batchesOf('gl-entries').at(-1)!.batch.sql;
  assert.ok(entry.lastIndexOf('taGLTransactionLineInsert') < entry.indexOf('taGLTransactionHeaderInsert'), 'lines before the header');
});

test('no batch holds a transaction statement: each ends in a status row, and the driver commits or rolls back', () => {
  for (const object of WRITABLE_OBJECT_NAMES) {
    for (const { name, batch } of batchesOf(object)) {
      // A ROLLBACK inside the driver's sp_executesql raises error 266 on its way out and loses the status row.
      assert.doesNotMatch(batch.sql, /\b(BEGIN TRAN|COMMIT|ROLLBACK|SAVE TRAN)/i, `${object} ${name}`);
      // XACT_ABORT ON would abort the batch before a procedure's own @@error check turns a failure into GP's code.
      assert.doesNotMatch(batch.sql, /XACT_ABORT/i, `${object} ${name}`);
      const last = batch.sql.trim().split('\n').at(-1)!;
      assert.match(last, /^SELECT .* AS \[(stopped|number)\]|AS \[state\];$/, `${object} ${name} ends in its status row`);
    }
    // Every refusal returns right after its status row, so that exactly one status row is the batch's last result.
    const main = batchesOf(object).at(-1)!.batch.sql;
    assert.equal(main.match(/AS \[stopped\]/g)!.length, main.match(/RETURN;/g)!.length + 1, object);
  }
});

test('validate-only takes no number: its number is read WITH (NOLOCK) from the numbering table, and no procedure is called for it', () => {
  for (const object of ['sales-orders', 'ar-invoices', 'ap-invoices', 'gl-entries'] as const) {
    const peek = econnectWrite(object, goldenBody(object), OPERATION, 'TWO').peek!;
    assert.doesNotMatch(peek.sql, /EXEC|UPDLOCK|HOLDLOCK|TABLOCK|UPDATE/i, object);
    assert.match(peek.sql, /WITH \(NOLOCK\)/, object);
  }
});

test('sales amounts: quantities and prices go as sent, exactly; GP computes extended prices and totals at its decimals; a return goes back on hand', () => {
  const order = goldenBody('sales-orders');
  const body = { ...order, lines: [{ itemId: 'ACCS-10011-BK', quantity: '1.5', unitPrice: '19.99' }] };
  const calls = plannedCalls(econnectWrite('sales-orders', body, OPERATION, 'TWO').main('ORDST1101'));
  const [line, header] = calls;
  // 1.5 × 19.99 = 29.985 has more decimals than a 2-decimal currency: GP's taSopLineIvcInsert refused it
  // (4647) when the agent sent it; now GP rounds it to its own currency decimals (DEFEXTPRICE).
  assert.equal(line!.parameters.I_vQUANTITY, '1.50000');
  assert.equal(line!.parameters.I_vUNITPRCE, '19.99000');
  assert.equal(line!.parameters.I_vDEFEXTPRICE, '1');
  assert.ok(!('I_vXTNDPRCE' in line!.parameters), 'no extended price of the agent');
  assert.ok(!('I_vQTYONHND' in line!.parameters), 'only returns name a quantity bucket');
  // The header's subtotal and total are the lines' as GP stored them (DEFPRICING; error 67 otherwise).
  assert.equal(header!.parameters.I_vDEFPRICING, '1');
  assert.ok(!('I_vSUBTOTAL' in header!.parameters) && !('I_vDOCAMNT' in header!.parameters));
  const returned = plannedCalls(
    econnectWrite('sales-orders', { ...body, type: 'return', docTypeId: 'STDRTN' }, OPERATION, 'TWO').main('RTN1001'),
  );
  assert.equal(returned[0]!.parameters.I_vQTYONHND, '1.50000', 'the returned quantity goes back to stock on hand (183 otherwise)');
  assert.equal(returned[0]!.parameters.I_vSOPTYPE, '4');
});

test("issue 31 item 9's parameters: a 1099 amount, a line's unit and price level only when given, a document's own distributions before it with CREATEDIST 0", () => {
  const order = goldenBody('sales-orders');
  const [plainLine, ownLine] = plannedCalls(econnectWrite('sales-orders', order, OPERATION, 'TWO').main('ORDST1101'));
  // Absent, GP defaults them (the item's selling unit, the customer's price level): not passed at all.
  assert.ok(!('I_vUOFM' in plainLine!.parameters) && !('I_vPRCLEVEL' in plainLine!.parameters));
  assert.equal(ownLine!.parameters.I_vUOFM, 'CASE');
  assert.equal(ownLine!.parameters.I_vPRCLEVEL, 'RETAIL');

  const ar = goldenBody('ar-invoices');
  const withLines = plannedCalls(econnectWrite('ar-invoices', ar, OPERATION, 'TWO').main('INV1'));
  assert.deepEqual(
    withLines.map((c) => c.procedure),
    ['taRMDistribution', 'taRMDistribution', 'taRMDistribution', 'taRMTransaction'],
  );
  assert.deepEqual(
    withLines
      .slice(0, 3)
      .map((c) => [c.parameters.I_vDISTTYPE, c.parameters.I_vACTNUMST?.trimEnd(), c.parameters.I_vDEBITAMT, c.parameters.I_vCRDTAMNT]),
    [
      ['3', '000-1200-00', '1080.00000', '0.00000'],
      ['9', '000-4100-00', '0.00000', '1000.00000'],
      ['11', '000-4500-00', '0.00000', '80.00000'],
    ],
  );
  assert.ok(withLines.slice(0, 3).every((c) => c.parameters.I_vDOCNUMBR === 'INV1' && c.parameters.I_vRMDTYPAL === '1'));
  assert.equal(withLines[3]!.parameters.I_vCREATEDIST, '0', 'GP creates no distributions of its own');
  const { lines: _ar, ...arHeader } = ar;
  const gpOwn = plannedCalls(econnectWrite('ar-invoices', arHeader, OPERATION, 'TWO').main('INV2'));
  assert.deepEqual(
    gpOwn.map((c) => c.procedure),
    ['taRMTransaction'],
  );
  assert.ok(!('I_vCREATEDIST' in gpOwn[0]!.parameters), "without lines, GP's default (CREATEDIST 1)");

  const ap = goldenBody('ap-invoices');
  const payables = plannedCalls(econnectWrite('ap-invoices', ap, OPERATION, 'TWO').main('00000000000800043'));
  assert.deepEqual(
    payables.map((c) => c.procedure),
    ['taPMDistribution', 'taPMDistribution', 'taPMTransactionInsert'],
  );
  // taPMDistribution takes the voucher as VCHRNMBR, taPMTransactionInsert as VCHNUMWK.
  assert.equal(payables[0]!.parameters.I_vVCHRNMBR, '00000000000800043');
  assert.equal(payables[2]!.parameters.I_vVCHNUMWK, '00000000000800043');
  assert.equal(payables[1]!.parameters.I_vDistRef?.trimEnd(), 'owed');
  assert.equal(payables[2]!.parameters.I_vTEN99AMNT, '400.00000');
  assert.equal(payables[2]!.parameters.I_vCREATEDIST, '0');
});

const available = spawnSync('sqlfluff', ['--version'], { encoding: 'utf8' }).status === 0;
if (!available)
  console.warn('\n*** SKIPPED: eConnect T-SQL parse check needs sqlfluff (apt-get install sqlfluff); .ci/run installs it. ***\n');

test('every eConnect batch parses as T-SQL', { skip: !available && 'sqlfluff is not installed' }, async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'econnect-tsql-'));
  try {
    const files = new Map<string, string>();
    for (const object of WRITABLE_OBJECT_NAMES) {
      for (const { name, batch } of batchesOf(object)) {
        const file = path.join(dir, `${object}-${name}.sql`);
        // Parameters are declared by sp_executesql; declared here so that the batch stands alone.
        const declare = batch.params.length ? `DECLARE ${batch.params.map((p) => `@${p.name} ${p.type}`).join(', ')};\n` : '';
        fs.writeFileSync(file, `${declare}${batch.sql}\n`);
        files.set(file, `${object} ${name}`);
      }
    }
    fs.writeFileSync(path.join(dir, 'zz-broken.sql'), 'EXEC @rc = [dbo].[taRMTransaction] @I_vDOCNUMBR = ;\n');
    const { stdout } = await promisify(execFile)('sqlfluff', ['parse', '--dialect', 'tsql', '--format', 'json', dir], {
      encoding: 'utf8',
      maxBuffer: 1 << 28,
    });
    const results = JSON.parse(stdout) as { filepath: string; segments: unknown }[];
    assert.equal(results.length, files.size + 1);
    const unparsable = results
      .filter((r) => JSON.stringify(r.segments).includes('"unparsable"'))
      .map((r) => files.get(r.filepath) ?? path.basename(r.filepath));
    assert.deepEqual(unparsable, ['zz-broken.sql']);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
