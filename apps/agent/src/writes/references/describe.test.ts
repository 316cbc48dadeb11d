import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GP_TABLES, MC40200 } from '@gp-gateway/gp-schema';
import { WRITABLE_OBJECT_NAMES, WRITES } from '@gp-gateway/protocol';
import { WRITE_READ_TABLES } from '../../mssql/writeRole.ts';
import { goldenBody } from '../mssql/goldenBodies.ts';
import { WriteRefusal } from '../refusals.ts';
import { checksOf, LOOKUPS, REFERENCES, settle, UNCHECKED } from './describe.ts';
import { referenceBatch } from './mssql.ts';

/** A body field that names another GP record: an id other than the record's own, or an account number. */
const namesARecord = (field: string) => (field.endsWith('Id') && field !== 'id') || field === 'accountNumber';

test('every field of every writable body that names a GP record is checked, or listed as unchecked with its reason', () => {
  for (const object of WRITABLE_OBJECT_NAMES) {
    const spec = WRITES[object] as {
      fields: Record<string, unknown>;
      extraFields?: Record<string, unknown>;
      lines?: { fields: Record<string, unknown> };
    };
    const described = REFERENCES[object];
    const checked = new Set([...described.header.map((r) => r.field), ...(described.batch ? ['batchId'] : [])]);
    for (const field of Object.keys({ ...spec.fields, ...spec.extraFields }).filter(namesARecord))
      assert.ok(checked.has(field) || field in UNCHECKED, `${object}.${field} is neither checked nor listed as unchecked`);
    const lineChecked = new Set((described.lines ?? []).map((r) => r.field));
    for (const field of Object.keys(spec.lines?.fields ?? {}).filter(namesARecord))
      assert.ok(lineChecked.has(field) || field in UNCHECKED, `${object}.lines.${field} is neither checked nor listed as unchecked`);
    // And nothing is described that the body does not have.
    for (const field of checked) assert.ok(field in spec.fields || field in (spec.extraFields ?? {}), `${object}.${field}`);
    for (const field of lineChecked) assert.ok(field in (spec.lines?.fields ?? {}), `${object}.lines.${field}`);
  }
});

test('every lookup names columns of its GP tables, and SQL Server lets the write role read each table', () => {
  const readable = new Set<string>([...WRITE_READ_TABLES, 'RM00101', 'PM00200', 'RM00301', MC40200.name]);
  for (const [name, lookup] of Object.entries(LOOKUPS)) {
    const tables = [lookup.table, ...('join' in lookup ? [lookup.join.table] : [])];
    for (const table of tables) {
      assert.ok(table === MC40200 || Object.values(GP_TABLES).includes(table as never), `${name}: ${table.name}`);
      assert.ok(readable.has(table.name), `${name}: the write role cannot read ${table.name}`);
    }
  }
  // checksOf resolves every selected column against the tables (it throws on an unknown one).
  for (const object of WRITABLE_OBJECT_NAMES) checksOf(object, goldenBody(object));
});

test('issues come in body order: the header, each line, the batch; absent optional fields are not looked up', () => {
  const body = goldenBody('sales-orders');
  assert.deepEqual(
    checksOf('sales-orders', body).map((c) => c.path),
    ['customerId', 'docTypeId', 'siteId', 'lines.0.itemId', 'lines.1.siteId', 'lines.1.itemId', 'lines.1.priceLevel', 'batchId'],
  );
  const refused = (() => {
    try {
      settle(checksOf('sales-orders', body), []);
    } catch (error) {
      return error;
    }
  })();
  assert.ok(refused instanceof WriteRefusal);
  // Nothing found: every reference is named, except the batch, which is created when absent.
  assert.deepEqual((refused.details as { issues: { path: string; message: string }[] }).issues, [
    { path: 'customerId', message: 'no customer with this id' },
    { path: 'docTypeId', message: 'no order document type id with this id' },
    { path: 'siteId', message: 'no site with this id' },
    { path: 'lines.0.itemId', message: 'no item with this id' },
    { path: 'lines.1.siteId', message: 'no site with this id' },
    { path: 'lines.1.itemId', message: 'no item with this id' },
    { path: 'lines.1.priceLevel', message: 'no price level with this id (GP error 928)' },
  ]);
  assert.deepEqual(
    checksOf('customers', { id: 'X', name: 'x' }).map((c) => c.path),
    [],
  );
});

test("the rules: an inactive customer, an inactive or unit account, a batch of another series or being posted, in GP's columns", () => {
  const issue = (object: 'ar-invoices' | 'gl-entries', rows: Record<string, unknown>[]) => {
    // The invoice without its distribution lines: only its header's references and its batch.
    const body =
      object === 'ar-invoices'
        ? { ...goldenBody('ar-invoices'), lines: undefined }
        : { ...goldenBody('gl-entries'), lines: [goldenBody('gl-entries').lines![0]!] };
    try {
      return settle(checksOf(object, body), rows) && [];
    } catch (error) {
      return ((error as WriteRefusal).details as { issues: unknown[] }).issues;
    }
  };
  assert.deepEqual(issue('ar-invoices', [{ INACTIVE: 1 }, { SERIES: 3, BCHSTTUS: 0, MKDTOPST: 0 }]), [
    { path: 'customerId', message: 'the customer is inactive' },
  ]);
  assert.deepEqual(issue('ar-invoices', [{ INACTIVE: 0 }, { SERIES: 2, BCHSTTUS: 0, MKDTOPST: 0 }]), [
    { path: 'batchId', message: 'the batch is of another series' },
  ]);
  assert.deepEqual(issue('ar-invoices', [{ INACTIVE: 0 }, { SERIES: 3, BCHSTTUS: 1, MKDTOPST: 0 }]), [
    { path: 'batchId', message: 'the batch is being posted or is marked to post; use another batch id' },
  ]);
  assert.deepEqual(issue('ar-invoices', [{ INACTIVE: 0 }, undefined as never]), []);
  assert.deepEqual(issue('gl-entries', [{ ACTINDX: 1, ACTIVE: 0, ACCTTYPE: 1 }]), [
    { path: 'lines.0.accountNumber', message: 'the account is inactive' },
  ]);
  assert.deepEqual(issue('gl-entries', [{ ACTINDX: 1, ACTIVE: 1, ACCTTYPE: 2 }]), [
    { path: 'lines.0.accountNumber', message: 'the account takes no postings (a unit or allocation account)' },
  ]);
});

test('the SQL Server batch: every value a typed parameter, every identifier a GP name, a value too long for its column never sent', () => {
  for (const object of WRITABLE_OBJECT_NAMES) {
    const body = goldenBody(object);
    const checks = checksOf(object, body);
    const batch = referenceBatch('TWO', checks);
    assert.equal(batch.sql.split('\n').length, checks.length, object);
    const names = new Set(['TWO', 'DYNAMICS', 'dbo', 't', 'j', 'key', 'found']);
    for (const check of checks) {
      names.add(check.lookup.table.name);
      for (const column of check.lookup.table.columns) names.add(column.name);
      if (check.lookup.join) {
        names.add(check.lookup.join.table.name);
        for (const column of check.lookup.join.table.columns) names.add(column.name);
      }
    }
    for (const [, identifier] of batch.sql.matchAll(/\[([^\]]*)\]/g)) assert.ok(names.has(identifier!), `${object}: [${identifier}]`);
    for (const param of batch.params) if (typeof param.value === 'string') assert.ok(!batch.sql.includes(param.value), object);
  }
  const long = checksOf('customer-addresses', { customerId: 'X'.repeat(16), code: 'A' });
  assert.equal(long[0]!.oversized, true);
  assert.equal(referenceBatch('TWO', long).sql, '');
  assert.throws(() => referenceBatch('TWO]; DROP TABLE x; --', long), /not a GP company id/);
});
