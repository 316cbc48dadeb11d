import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AgentToGatewayFrameSchema, decodeFrame, encodeFrame } from './frames.ts';

/** The write check in the agent's health is an addition to protocol 1: agents and gateways without it still agree. */
const health = { database: 'ok', databaseMessage: null, gpVersion: '18.5', checkedAt: '2026-11-26T00:00:00.000Z' };
const writeCheck = {
  checkedAt: '2026-11-26T00:00:01.000Z',
  companies: [
    {
      company: 'TWO',
      objects: [
        { object: 'customers', status: 'works' },
        { object: 'sales-orders', status: 'refused', message: 'GP refused the record', gp: [{ code: 4647, message: 'extended price' }] },
        { object: 'ap-invoices', status: 'forbidden', message: 'lacks EXECUTE on DYNAMICS..smGetConstantInt' },
      ],
    },
  ],
};

test('a status frame carries the write check, and one without it still decodes', () => {
  const decoded = decodeFrame(
    AgentToGatewayFrameSchema,
    encodeFrame({ v: 1, type: 'status', companies: [], health: { ...health, writeCheck } }),
  );
  assert.ok(decoded.ok);
  assert.deepEqual(decoded.frame.type === 'status' && decoded.frame.health.writeCheck, writeCheck);
  assert.equal(decodeFrame(AgentToGatewayFrameSchema, encodeFrame({ v: 1, type: 'status', companies: [], health })).ok, true);
});

test('a write check with an object or status the protocol does not know is refused', () => {
  const bad = (object: string, status: string) =>
    decodeFrame(
      AgentToGatewayFrameSchema,
      encodeFrame({
        v: 1,
        type: 'status',
        companies: [],
        health: { ...health, writeCheck: { checkedAt: '', companies: [{ company: 'TWO', objects: [{ object, status }] }] } },
      }),
    ).ok;
  assert.equal(bad('customers', 'works'), true);
  assert.equal(bad('items', 'works'), false);
  assert.equal(bad('customers', 'maybe'), false);
});
