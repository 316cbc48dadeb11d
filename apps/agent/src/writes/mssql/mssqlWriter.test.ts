import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AgentError } from '../../service/agentError.ts';
import { MssqlWriter } from './mssqlWriter.ts';

/**
 * What the writer answers when the connection fails under a write, without a server: its steps
 * that talk to SQL Server replaced (the gated e2e/mssqlWrites.test.ts runs them for real).
 */
type Journal = { state: string; answer: string | null } | null;
type Step = (pool: unknown, company: string, request: unknown, afterCommit: unknown, committing: () => void) => Promise<never>;

function writerWith(attempt: Step, journal: Journal): { writer: MssqlWriter; journalReads: () => number } {
  const writer = new MssqlWriter('Server=gp.invalid;User Id=agent;Password=x');
  let reads = 0;
  Object.assign(writer as object, {
    connected: async () => ({}),
    company: async () => 'TWO',
    attempt,
    journal: async () => {
      reads++;
      return journal;
    },
  });
  return { writer, journalReads: () => reads };
}

const request = { object: 'customers' as const, company: 'TWO', operationId: 'op-1', body: { id: 'C1', name: 'x' }, validateOnly: false };
const lost = () => Object.assign(new Error('Connection lost - write ECONNRESET'), { code: 'ESOCKET' });

test('a connection lost while COMMIT was on its way is settled by the journal: a committed row answers created', async () => {
  const { writer, journalReads } = writerWith(
    async (_p, _c, _r, _a, committing) => {
      committing();
      throw lost();
    },
    { state: 'committed', answer: '{"id":"C1"}' },
  );
  assert.deepEqual(await writer.write(request), { outcome: 'created', answer: '{"id":"C1"}' });
  assert.equal(journalReads(), 1);
});

test('with no committed row the write is ERP_UNAVAILABLE (the gateway asks for the outcome, which fences it)', async () => {
  const { writer } = writerWith(async (_p, _c, _r, _a, committing) => {
    committing();
    throw lost();
  }, null);
  await assert.rejects(writer.write(request), (error: unknown) => error instanceof AgentError && error.code === 'ERP_UNAVAILABLE');
});

test('a failure before COMMIT is not looked up: the transaction was rolled back, nothing was written', async () => {
  const { writer, journalReads } = writerWith(
    async () => {
      throw lost();
    },
    { state: 'committed', answer: '{}' },
  );
  await assert.rejects(writer.write(request), (error: unknown) => error instanceof AgentError && error.code === 'ERP_UNAVAILABLE');
  assert.equal(journalReads(), 0);
  const denied = writerWith(async () => {
    throw Object.assign(new Error("The EXECUTE permission was denied on the object 'taRMTransaction', database 'TWO', schema 'dbo'."), {
      number: 229,
    });
  }, null);
  await assert.rejects(denied.writer.write(request), (error: unknown) => error instanceof AgentError && error.code === 'FORBIDDEN');
});

test('the system database and the lock timeout are checked before they are written into a statement', () => {
  assert.throws(() => new MssqlWriter('Server=gp.invalid', { systemDatabase: 'GP]SYS' }), /not a system database name/);
  assert.throws(() => new MssqlWriter('Server=gp.invalid', { lockTimeoutMs: -1 }), /not a lock timeout/);
  assert.doesNotThrow(() => new MssqlWriter('Server=gp.invalid', { systemDatabase: 'GPSYS', lockTimeoutMs: 0 }));
});
