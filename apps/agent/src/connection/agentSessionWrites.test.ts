import { test } from 'node:test';
import assert from 'node:assert/strict';
import pino from 'pino';
import {
  AgentToGatewayFrameSchema,
  decodeFrame,
  PROTOCOL_VERSION,
  type OutcomeOperation,
  type WriteCheck,
  type WriteOperation,
} from '@gp-gateway/protocol';
import { AgentError } from '../service/agentError.ts';
import type { OperationHandler } from '../service/readService.ts';
import { WRITES_OFF_MESSAGE, type WriteAnswer, type WriteHandler } from '../writes/writeService.ts';
import { AgentSession } from './agentSession.ts';

/** What the session sends for write and outcome frames: the answer with its outcome, or the error with its details. */
const reads: OperationHandler = {
  handle: () => Promise.reject(new Error('no reads here')),
  health: () => Promise.resolve({ companies: [], health: { database: 'ok', databaseMessage: null, gpVersion: null, checkedAt: '' } }),
};

function session(writes?: WriteHandler) {
  const sent: string[] = [];
  const s = new AgentSession({ send: (frame) => sent.push(String(frame)) }, reads, pino({ level: 'silent' }), writes ? { writes } : {});
  const ask = async (op: WriteOperation | OutcomeOperation) => {
    s.receive(JSON.stringify({ v: PROTOCOL_VERSION, type: 'request', id: 'r1', timeoutMs: 1000, op }));
    await s.drain(1000);
    return sent.map((frame) => {
      const newline = frame.indexOf('\n');
      return newline === -1
        ? { header: JSON.parse(frame), payload: null }
        : { header: JSON.parse(frame.slice(0, newline)), payload: frame.slice(newline + 1) };
    });
  };
  return ask;
}

const write: WriteOperation = {
  kind: 'write',
  object: 'customers',
  company: 'TWO',
  operationId: 'operation-000000001',
  body: { id: 'A', name: 'a' },
  validateOnly: false,
};

test('without a write handler, writes and outcomes are refused with the words the gateway shows', async () => {
  const frames = await session()(write);
  const error = frames.find((f) => f.header.type === 'error')!;
  assert.deepEqual([error.header.code, error.header.message], ['FORBIDDEN', WRITES_OFF_MESSAGE]);
});

test('a write answers with its outcome and the created record as payload', async () => {
  const handler: WriteHandler = {
    write: async (): Promise<WriteAnswer> => ({ outcome: 'created', payload: '{"id":"A"}' }),
    outcome: async (): Promise<WriteAnswer> => ({ outcome: 'not_executed', payload: null }),
  };
  const [answer] = (await session(handler)(write)).filter((f) => f.header.type === 'response');
  assert.equal(answer!.header.outcome, 'created');
  assert.equal(answer!.payload, '{"id":"A"}');
  const [settled] = (await session(handler)({ kind: 'outcome', company: 'TWO', operationId: write.operationId })).filter(
    (f) => f.header.type === 'response',
  );
  assert.deepEqual([settled!.header.outcome, settled!.payload], ['not_executed', null]);
});

test("a refused write's error frame carries details.issues", async () => {
  const handler: WriteHandler = {
    write: () =>
      Promise.reject(
        new AgentError('VALIDATION_ERROR', 'no', null, { issues: [{ path: 'customerId', message: 'no customer with this id' }] }),
      ),
    outcome: () => Promise.reject(new Error('unused')),
  };
  const [error] = (await session(handler)(write)).filter((f) => f.header.type === 'error');
  assert.deepEqual(error!.header.details, { issues: [{ path: 'customerId', message: 'no customer with this id' }] });
});

test("the last write check goes into the agent's health: a status frame as soon as it finished, then in every report", async () => {
  let last: WriteCheck | null = null;
  const listeners = new Set<() => void>();
  const handler: WriteHandler = {
    write: async (): Promise<WriteAnswer> => ({ outcome: 'validated', payload: '{}' }),
    outcome: async (): Promise<WriteAnswer> => ({ outcome: 'not_executed', payload: null }),
    lastCheck: () => last,
    onCheck: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  const sent: string[] = [];
  const s = new AgentSession({ send: (frame) => sent.push(String(frame)) }, reads, pino({ level: 'silent' }), {
    writes: handler,
    statusIntervalMs: 0,
  });
  const agent = { version: '1', host: 'h', platform: 'linux', dialect: 'sqlite' } as const;
  await s.hello(agent);
  assert.equal(JSON.parse(sent[0]!).health.writeCheck, undefined);
  last = {
    checkedAt: '2026-11-26T12:00:00.000Z',
    companies: [
      {
        company: 'TWO',
        objects: [
          { object: 'customers', status: 'works' },
          { object: 'ap-invoices', status: 'refused', gp: [{ code: 310, message: 'The voucher number already exists' }] },
        ],
      },
    ],
  };
  for (const listener of listeners) listener();
  // The listener started a refresh; this waits for that same one.
  await s.refreshHealth();
  const status = JSON.parse(sent.at(-1)!);
  assert.equal(status.type, 'status');
  assert.deepEqual(status.health.writeCheck, last);
  assert.equal(decodeFrame(AgentToGatewayFrameSchema, sent.at(-1)!).ok, true);
  // Nothing changed since: no second status frame.
  await s.refreshHealth();
  assert.equal(sent.filter((f) => JSON.parse(f).type === 'status').length, 1);
  s.closed();
  assert.equal(listeners.size, 0, 'a closed session listens no more');
});
