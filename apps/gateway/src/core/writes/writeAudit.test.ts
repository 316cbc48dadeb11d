import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { pollUntil } from '@gp-gateway/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { AuditEntry } from '../../infrastructure/store/store.ts';
import { startWriteHarness, type WriteHarness } from '../../testing/writeHarness.ts';
import { createdRecordId, RECORD_CREATED } from './writeAudit.ts';

/**
 * API writes in the audit log (issue 36): a record created through REST or MCP create_record is
 * recorded with its key's id and name, the object and the record's id; validate-only and replays
 * are not; a store that cannot take the entry neither fails nor holds up the write.
 */
test('the created record’s id: plain, composite as the REST path takes it, a journal entry’s number, or none', () => {
  const bytes = (value: unknown) => Buffer.from(JSON.stringify(value));
  assert.equal(createdRecordId('customers', bytes({ id: 'ACME001', name: 'Acme' })), 'ACME001');
  assert.equal(createdRecordId('customer-addresses', bytes({ customerId: 'ACME001', code: 'PRIMARY' })), 'ACME001:PRIMARY');
  assert.equal(createdRecordId('sales-orders', bytes({ type: 'order', number: 'ORD0001' })), 'order:ORD0001');
  assert.equal(createdRecordId('gl-entries', bytes([{ journalEntryNumber: 1234 }, { journalEntryNumber: 1234 }])), '1234');
  assert.equal(createdRecordId('gl-entries', bytes([{ accountNumber: '000-1100-00' }])), null);
  assert.equal(createdRecordId('customers', Buffer.from('not json')), null);
});

let h: WriteHarness;
let writerKey: { id: string; name: string };

before(async () => {
  h = await startWriteHarness();
  await h.agent('hq');
  const keys = await h.store.listApiKeys(h.orgId);
  const key = keys.find((k) => h.keys.writer.startsWith(k.prefix))!;
  writerKey = { id: key.id, name: key.name };
});
after(() => h.close());

/** The organisation's write entries, once `count` of them are there (the entry is written after the answer). */
function writesInAudit(count: number): Promise<AuditEntry[]> {
  return pollUntil(`${count} write entries in the audit log`, async () => {
    const entries = (await h.store.listAudit(h.orgId, 100)).filter((e) => e.action === RECORD_CREATED);
    return entries.length >= count && entries;
  });
}

test('a REST write and an MCP create_record are in the audit log with the key, the object and the record’s id', async () => {
  const rest = await h.post('/v1/customers', { id: 'acme001', name: 'Acme' }, { 'idempotency-key': 'audit-rest-1' });
  assert.equal(rest.status, 201, rest.text);
  const [entry] = await writesInAudit(1);
  assert.ok(entry, 'the write is in the audit log');
  assert.equal(entry.orgId, h.orgId);
  assert.equal(entry.actor, `API key ${writerKey.id}`);
  assert.equal(entry.target, 'customers ACME001');
  assert.deepEqual(entry.details, {
    keyId: writerKey.id,
    keyName: writerKey.name,
    object: 'customers',
    recordId: 'ACME001',
    connectionId: h.connections.hq.id,
    company: 'TWO',
    requestId: rest.headers.get('x-request-id'),
  });
  assert.equal('validateOnly' in entry.details!, false);

  const client = new Client({ name: 'audit-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${h.gateway.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${h.keys.writer}`, 'x-connection-id': h.connections.hq.id } },
    }),
  );
  try {
    const result = await client.callTool({
      name: 'create_record',
      arguments: { object: 'customer-addresses', fields: { customerId: 'acme001', code: 'ship' } },
    });
    assert.equal(result.isError, undefined);
  } finally {
    await client.close();
  }
  const entries = await writesInAudit(2);
  assert.equal(entries.length, 2);
  assert.equal(entries[0]!.target, 'customer-addresses ACME001:SHIP');
  assert.equal((entries[0]!.details as { keyName: string }).keyName, writerKey.name);
});

test('validate-only and a replay under the same Idempotency-Key add nothing', async () => {
  const before = (await writesInAudit(0)).length;
  assert.equal((await h.post('/v1/customers?validateOnly=true', { id: 'tried', name: 'Tried' })).status, 200);
  assert.equal((await h.post('/v1/customers', { id: 'acme001', name: 'Acme' }, { 'idempotency-key': 'audit-rest-1' })).status, 201);
  // A write after them is entered after anything they would have entered: once its entry is there, theirs would be too.
  assert.equal((await h.post('/v1/customers', { id: 'later01', name: 'Later' })).status, 201);
  const entries = await writesInAudit(before + 1);
  assert.deepEqual(
    entries.slice(0, entries.length - before).map((e) => e.target),
    ['customers LATER01'],
  );
});

test('a store that cannot take the entry: the write still answers 201, and a warning is logged', async () => {
  const recordAudit = h.store.recordAudit;
  let called = 0;
  h.store.recordAudit = async () => {
    called++;
    throw new Error('audit log unavailable');
  };
  try {
    const r = await h.post('/v1/customers', { id: 'acme002', name: 'Acme 2' });
    assert.equal(r.status, 201, r.text);
    assert.equal(called, 1);
    await pollUntil('the warning', () => h.logs.join('').includes('could not record the write in the audit log'));
  } finally {
    h.store.recordAudit = recordAudit;
  }
});
