import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_HELLO_BYTES } from '@gp-gateway/protocol';
import { AgentAdmission, CONNECTION_BUFFER_BUDGET_BYTES } from './agentAdmission.ts';

test('a connection takes at most its agents, and as many sockets owing a hello; a place freed is a place taken', () => {
  const admission = new AgentAdmission(2);
  const [a, b] = [admission.opened('c1'), admission.opened('c1')];
  assert.equal(admission.mayOpen('c1'), false, 'two sockets owe a hello');
  assert.equal(admission.mayOpen('c2'), true, 'another connection counts apart');
  assert.equal(a.agentsIfFull(2), null);
  a.becameAgent();
  b.becameAgent();
  assert.equal(admission.mayOpen('c1'), true, 'agents no longer owe a hello');
  const c = admission.opened('c1');
  assert.equal(c.agentsIfFull(2), 2, 'a third agent is refused');
  c.left();
  c.left();
  a.left();
  assert.equal(admission.agentsOf('c1'), 1, 'leaving twice counts once');
  const d = admission.opened('c1');
  assert.equal(d.agentsIfFull(2), null);
  d.becameAgent();
  assert.equal(admission.agentsOf('c1'), 2);
});

test('unfinished frames: a socket owing its hello may hold MAX_HELLO_BYTES, a connection CONNECTION_BUFFER_BUDGET_BYTES', () => {
  const admission = new AgentAdmission(4);
  const silent = admission.opened('c1');
  assert.equal(silent.received(MAX_HELLO_BYTES), null);
  assert.equal(silent.received(1), 'hello too large');
  silent.left();

  const [a, b] = [admission.opened('c1'), admission.opened('c1')];
  a.becameAgent();
  b.becameAgent();
  assert.equal(a.received(CONNECTION_BUFFER_BUDGET_BYTES / 2), null);
  assert.equal(b.received(CONNECTION_BUFFER_BUDGET_BYTES / 2), null);
  assert.equal(b.received(1), 'connection over budget');
  a.messageEnded();
  assert.deepEqual(b.bufferedBytes, { socket: CONNECTION_BUFFER_BUDGET_BYTES / 2 + 1, connection: CONNECTION_BUFFER_BUDGET_BYTES / 2 + 1 });
  b.left();
  assert.deepEqual(a.bufferedBytes, { socket: 0, connection: 0 }, 'a socket that leaves takes its bytes with it');
});
