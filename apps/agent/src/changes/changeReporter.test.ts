import { test } from 'node:test';
import assert from 'node:assert/strict';
import pino from 'pino';
import { decodeFrame, GatewayToAgentFrameSchema, AgentToGatewayFrameSchema, type Change, type ChangesFrame } from '@gp-gateway/protocol';
import type { ChangeDetector } from './changeDetector.ts';
import { ChangeReporter } from './changeReporter.ts';
import { TRACKED_OBJECTS } from './trackedObjects.ts';
import { subscribeAgentEvents, type ChangePollEvent } from '../telemetry/events.ts';

/** A detector that learns at once and then finds one change per poll until it is committed. */
function fakeDetector() {
  const learnt = new Set<string>();
  const committed: string[] = [];
  let polls = 0;
  const change: Change = { kind: 'updated', id: 'A', version: 'v1', changedAt: '2026-03-01T00:00:00.000Z', record: { id: 'A' } };
  const detector = {
    knows: (company: string, tracked: { object: string }) => learnt.has(`${company}/${tracked.object}`),
    async poll(company: string, tracked: { object: string }) {
      polls++;
      const key = `${company}/${tracked.object}`;
      if (!learnt.has(key)) return { changes: [], commit: () => void learnt.add(key) };
      const done = committed.includes(key);
      return { changes: done ? [] : [change], commit: () => void committed.push(key) };
    },
  };
  return { detector: detector as unknown as ChangeDetector, committed, polls: () => polls };
}

const customers = TRACKED_OBJECTS.filter((t) => t.object === 'customers');
const frames = (sent: string[]) => sent.map((s) => (decodeFrame(AgentToGatewayFrameSchema, s) as { frame: ChangesFrame }).frame);
const ack = (id: string, extra: Record<string, unknown> = {}) => {
  const decoded = decodeFrame(GatewayToAgentFrameSchema, JSON.stringify({ v: 1, type: 'changes-ack', id, stored: 1, ...extra }));
  assert.ok(decoded.ok && decoded.frame.type === 'changes-ack');
  return decoded.frame;
};

/** A reporter of the customers of TWO over the fake detector, attached to a link that keeps what it sends; rounds run when the test asks. */
function attachedReporter(fake: ReturnType<typeof fakeDetector>) {
  const sent: string[] = [];
  const reporter = new ChangeReporter({
    detector: fake.detector,
    companies: async () => ['TWO'],
    log: pino({ level: 'silent' }),
    schedule: { intervalMs: 3_600_000, budgetMs: 10_000, ackTimeoutMs: 5_000 },
    tracked: customers,
  });
  reporter.attach((text) => sent.push(text));
  return { reporter, sent };
}

test('a poll is committed only once the gateway acknowledges its changes without error', async () => {
  const fake = fakeDetector();
  const { reporter, sent } = attachedReporter(fake);
  await reporter.settled();
  assert.deepEqual(sent, [], 'the first round learns the table and reports nothing');

  // The gateway could not store them: nothing is committed, the next round reports them again.
  const refused = reporter.round();
  await waitFor(() => sent.length === 1);
  assert.deepEqual(
    frames(sent)[0]!.changes.map((c) => c.id),
    ['A'],
  );
  reporter.acked(ack(frames(sent)[0]!.id, { stored: 0, error: 'the gateway could not store the changes; send them again' }));
  await refused;
  assert.deepEqual(fake.committed, []);

  const stored = reporter.round();
  await waitFor(() => sent.length === 2);
  reporter.acked(ack(frames(sent)[1]!.id));
  await stored;
  assert.deepEqual(fake.committed, ['TWO/customers']);

  // A link lost while a frame waits for its acknowledgement: not committed, nothing left waiting.
  fake.committed.length = 0;
  const lost = reporter.round();
  await waitFor(() => sent.length === 3);
  reporter.detach();
  await lost;
  assert.deepEqual(fake.committed, []);
});

test('each poll reports its cost to the metrics: the object, its time, and the changes it found', async () => {
  const polls: ChangePollEvent[] = [];
  const unsubscribe = subscribeAgentEvents({ operation() {}, sql() {}, connection() {}, changePoll: (event) => polls.push(event) });
  try {
    const fake = fakeDetector();
    const { reporter, sent } = attachedReporter(fake);
    await reporter.settled();
    const second = reporter.round();
    await waitFor(() => sent.length === 1);
    reporter.acked(ack(frames(sent)[0]!.id));
    await second;
    reporter.detach();
    assert.deepEqual(
      polls.map((p) => [p.object, p.changes]),
      [
        ['customers', 0],
        ['customers', 1],
      ],
      'the learning poll finds nothing; the next, its change',
    );
    assert.ok(polls.every((p) => p.seconds >= 0 && p.seconds < 60));
  } finally {
    unsubscribe();
  }
});

async function waitFor(done: () => boolean): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!done()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setImmediate(r));
  }
}
