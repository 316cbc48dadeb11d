import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { GP_TABLES } from '@gp-gateway/gp-schema';
import {
  checkWriteBody,
  WRITABLE_OBJECT_NAMES,
  WRITES,
  type WritableObjectName,
  type WriteBody,
  type WriteField,
  type WriteSpec,
} from '@gp-gateway/protocol';
import { systemGrants, writeProcedures } from '../../../mssql/writeRole.ts';
import { econnectWrite } from '../econnect.ts';
import type { TsqlBatch } from '../econnectCalls.ts';
import { plannedCalls, STAND_IN_SCRIPT } from './standIn.ts';

/**
 * The stand-in eConnect script can only run on SQL Server (e2e/mssqlWrites.test.ts, gated on
 * MSSQL_URL), so what can be held here is: every procedure the writer calls is there, takes every
 * parameter the writer can pass with the type the writer binds, records each one, and inserts only
 * columns GP's tables have. sql/tsqlParse.test.ts parses it.
 */
const script = fs.readFileSync(STAND_IN_SCRIPT, 'utf8');

/** Each procedure's parameters (name → declared type, OUTPUT or not) and its body. */
const procedures = new Map(
  [...script.matchAll(/CREATE OR ALTER PROCEDURE \[dbo\]\.\[(\w+)\]\n((?: {4}@\w+ [^\n]+\n)+)AS\n([\s\S]*?)\nGO/g)].map(
    ([, name, params, body]) => [
      name!,
      {
        params: new Map(
          [...params!.matchAll(/@(\w+) ([a-z]+(?:\(\d+(?:, \d+)?\))?)( = NULL)?( OUTPUT)?/g)].map(([, p, type, , output]) => [
            p!,
            { type: type!.replace(', ', ','), output: Boolean(output) },
          ]),
        ),
        body: body!,
      },
    ],
  ),
);

function sample(field: WriteField): unknown {
  switch (field.kind) {
    case 'id':
    case 'text':
      return 'X1';
    case 'decimal':
      return '1';
    case 'date':
      return '2026-01-02';
    case 'flag':
      return true;
    case 'enum':
      return field.allowed[0];
  }
}

/** A body with every field the object has (and one without its number fields, so that the number steps run too). */
function fullBodies(object: WritableObjectName): WriteBody[] {
  const spec: WriteSpec = WRITES[object];
  const body: Record<string, unknown> = {};
  for (const [name, field] of Object.entries({ ...spec.fields, ...spec.extraFields })) body[name] = sample(field);
  if (spec.lines) {
    const line = (leaveOut: string) =>
      Object.fromEntries(Object.entries(spec.lines!.fields).flatMap(([name, field]) => (name === leaveOut ? [] : [[name, sample(field)]])));
    body.lines = [line('credit'), line('debit')];
  }
  // A receivables document's distributions add up to its amount (sales and freight): no freight here.
  if (object === 'ar-invoices') body.freightAmount = '0';
  const { number: _n, documentNumber: _d, voucherNumber: _v, ...numberless } = body;
  return [body, numberless].map((b) => {
    const checked = checkWriteBody(object, b);
    assert.ok(checked.ok, `${object}: ${JSON.stringify(checked)}`);
    return checked.body;
  });
}

test('the stand-in defines every procedure the writer calls, with every parameter it passes, typed as the writer binds it', () => {
  assert.deepEqual([...procedures.keys()].filter((p) => p.startsWith('ta')).sort(), writeProcedures());
  for (const object of WRITABLE_OBJECT_NAMES) {
    for (const body of fullBodies(object)) {
      const write = econnectWrite(object, body, 'op', 'TWO');
      const batches: TsqlBatch[] = [...(write.numbers ? [write.numbers] : []), write.main('N1')];
      for (const batch of batches) {
        for (const [, proc, args] of batch.sql.matchAll(/EXEC @rc = \[TWO\]\.\[dbo\]\.\[(\w+)\] ([^;]*);/g)) {
          const declared = procedures.get(proc!);
          assert.ok(declared, `${object}: the stand-in has no ${proc}`);
          for (const arg of args!.split(', ')) {
            const [name, value] = arg.split(' = ') as [string, string];
            const param = declared.params.get(name.slice(1));
            assert.ok(param, `${proc} has no parameter ${name}`);
            assert.equal(param.output, value.endsWith(' OUTPUT'), `${proc} ${name}: OUTPUT`);
            const bound = batch.params.find((p) => `@${p.name}` === value);
            if (bound) assert.equal(param.type, bound.type, `${proc} ${name}: declared ${param.type}, bound as ${bound.type}`);
          }
        }
      }
    }
  }
});

test('each stand-in procedure records every input parameter it takes, and inserts only columns of GP tables', () => {
  for (const [name, { params, body }] of procedures) {
    if (!name.startsWith('ta')) continue;
    const recorded = [...body.matchAll(/\(@call, N'(\w+)', @(\w+)\)/g)].map(([, label, param]) => {
      assert.equal(label, param, `${name}: ${label} records @${param}`);
      return param;
    });
    const inputs = [...params].filter(([, p]) => !p.output).map(([p]) => p);
    assert.deepEqual(recorded.sort(), inputs.sort(), name);
  }
  for (const [, table, columns] of script.matchAll(/INSERT INTO \[dbo\]\.\[(\w+)\] \(([^)]*)\)/g)) {
    const def = (GP_TABLES as Record<string, { columns: { name: string }[] } | undefined>)[table!];
    if (!def) continue;
    for (const [, column] of columns!.matchAll(/\[(\w+)\]/g))
      assert.ok(
        def.columns.some((c) => c.name === column),
        `${table} has no column ${column}`,
      );
  }
});

test('planned calls are read from the writer batch in order, with their values as the stand-in records them', () => {
  const [body] = fullBodies('sales-orders');
  const calls = plannedCalls(econnectWrite('sales-orders', body!, 'op', 'TWO').main('ORD1'));
  assert.deepEqual(
    calls.map((c) => c.procedure),
    ['taSopLineIvcInsert', 'taSopLineIvcInsert', 'taSopHdrIvcInsert'],
  );
  assert.equal(calls[0]!.parameters.I_vSOPNUMBE, 'ORD1');
  assert.equal(calls[0]!.parameters.I_vQUANTITY, '1.00000');
  assert.equal(calls[0]!.parameters.I_vDOCDATE, '2026-01-02');
  assert.equal(calls[2]!.parameters.I_vUpdateExisting, '0');
});

test('on a test server the write role script can run: the stand-in creates every system object it grants that the demo lacks', () => {
  // The demo's DYNAMICS holds the catalogue's system tables (SY01500 among them); GP's other objects are the stand-in's.
  const demo = new Set(['SY01500']);
  for (const grant of systemGrants()) {
    if (grant.optional || demo.has(grant.name)) continue;
    assert.match(script, new RegExp(`IF OBJECT_ID\\(N'\\[DYNAMICS\\]\\.\\[dbo\\]\\.\\[${grant.name}\\]', N'[UP]'\\) IS NULL`), grant.name);
  }
});

test("every GP error code the stand-in answers with has its words in the stand-in's taErrorCode", () => {
  const described = new Set([...script.matchAll(/^\((\d+), 'STAND-IN/gm)].map(([, code]) => Number(code)));
  // The codes the writer can be given: those of the company database's procedures it calls.
  const answered = [...procedures.values()].flatMap(({ body }) =>
    [...body.matchAll(/SET @O_iErrorState = (\d+);/g)].map(([, code]) => Number(code)).filter((code) => code !== 0),
  );
  assert.ok(answered.length > 10);
  for (const code of answered) assert.ok(described.has(code), `${code} has no taErrorCode row`);
});
