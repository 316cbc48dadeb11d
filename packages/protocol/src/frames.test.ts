import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  AgentToGatewayFrameSchema,
  decodeFrame,
  encodeFrame,
  GatewayToAgentFrameSchema,
  PROTOCOL_VERSION,
  RequestFrameSchema,
} from './frames.ts';

test('a response frame carries its payload untouched after the header', () => {
  const payload = '[{"id":"A\\nB","name":"line\\nbreak"}]';
  const text = encodeFrame({ v: PROTOCOL_VERSION, type: 'response', id: 'r1', next: [0, 42] }, payload);
  const decoded = decodeFrame(AgentToGatewayFrameSchema, text);
  assert.deepEqual(decoded, { ok: true, frame: { v: 1, type: 'response', id: 'r1', next: [0, 42] }, payload });
});

test('frames without payload decode with a null payload', () => {
  const decoded = decodeFrame(AgentToGatewayFrameSchema, encodeFrame({ v: 1, type: 'ping', at: 5 }));
  assert.deepEqual(decoded, { ok: true, frame: { v: 1, type: 'ping', at: 5 }, payload: null });
});

test('garbage and unknown frames are rejected, not thrown', () => {
  assert.equal(decodeFrame(AgentToGatewayFrameSchema, '{not json').ok, false);
  assert.equal(decodeFrame(AgentToGatewayFrameSchema, '{"v":1,"type":"sql","text":"DROP TABLE x"}').ok, false);
  assert.equal(decodeFrame(AgentToGatewayFrameSchema, '{"v":2,"type":"response","id":"1","next":null}').ok, false);
});

test('hello frames of another protocol version still decode so the gateway can explain the refusal', () => {
  const hello = { v: 99, type: 'hello', agent: { version: '9', host: 'h', platform: 'linux', dialect: 'sqlite' }, companies: [] };
  const decoded = decodeFrame(AgentToGatewayFrameSchema, JSON.stringify(hello));
  assert.equal(decoded.ok && decoded.frame.type === 'hello' && decoded.frame.v, 99);
});

test('the lifecycle frames: cancel to the agent, draining and status from it, pong with the gateway clock', () => {
  const health = { database: 'unavailable', databaseMessage: 'Login failed', gpVersion: null, checkedAt: '2026-01-01T00:00:00.000Z' };
  assert.deepEqual(decodeFrame(GatewayToAgentFrameSchema, encodeFrame({ v: 1, type: 'cancel', id: '9', reason: 'deadline' })), {
    ok: true,
    frame: { v: 1, type: 'cancel', id: '9', reason: 'deadline' },
    payload: null,
  });
  assert.equal(decodeFrame(AgentToGatewayFrameSchema, encodeFrame({ v: 1, type: 'draining', graceMs: 30000 })).ok, true);
  assert.equal(decodeFrame(AgentToGatewayFrameSchema, encodeFrame({ v: 1, type: 'status', companies: [], health })).ok, true);
  assert.deepEqual(decodeFrame(GatewayToAgentFrameSchema, encodeFrame({ v: 1, type: 'pong', at: 5, now: 7 })), {
    ok: true,
    frame: { v: 1, type: 'pong', at: 5, now: 7 },
    payload: null,
  });
});

test('protocol 1 stays compatible both ways: a hello without health decodes, and frames gain only optional fields', () => {
  const hello = { v: 1, type: 'hello', agent: { version: '0.1.0', host: 'h', platform: 'linux', dialect: 'sqlite' }, companies: [] };
  const decoded = decodeFrame(AgentToGatewayFrameSchema, JSON.stringify(hello));
  assert.deepEqual(decoded.ok && decoded.frame, hello);
  assert.deepEqual(decodeFrame(GatewayToAgentFrameSchema, encodeFrame({ v: 1, type: 'pong', at: 5 })).ok, true);
});

test('a frame received as bytes keeps its payload as bytes, header decoded, multi-byte text intact', () => {
  const payload = '[{"name":"Müller & Søn – 東京","amount":"12.50"}]';
  const bytes = Buffer.from(encodeFrame({ v: 1, type: 'response', id: '7', next: [0, 12] }, payload));
  const decoded = decodeFrame(AgentToGatewayFrameSchema, bytes);
  assert.equal(decoded.ok, true);
  if (!decoded.ok) return;
  assert.deepEqual(decoded.frame, { v: 1, type: 'response', id: '7', next: [0, 12] });
  assert.ok(Buffer.isBuffer(decoded.payload));
  assert.equal(decoded.payload!.toString(), payload);
  assert.equal(decodeFrame(AgentToGatewayFrameSchema, Buffer.from('{"v":1,"type":"ping","at":5}')).ok, true);
  assert.equal(decodeFrame(AgentToGatewayFrameSchema, Buffer.from('{not json\n[]')).ok, false);
});

test('a payload given as bytes is framed as bytes, and decodes to the same header and bytes', () => {
  const payload = Buffer.from('[{"name":"Müller & Søn – 東京","amount":"12.50"}]');
  const frame = encodeFrame({ v: 1, type: 'response', id: '8', next: null }, payload);
  assert.ok(Buffer.isBuffer(frame));
  const decoded = decodeFrame(AgentToGatewayFrameSchema, frame as Buffer);
  assert.ok(decoded.ok);
  assert.deepEqual(decoded.frame, { v: 1, type: 'response', id: '8', next: null });
  assert.deepEqual(decoded.payload, payload);
});

test('a request frame may carry a W3C traceparent, and agents and gateways from before it still read each other', () => {
  const op = { kind: 'get', object: 'customers', company: 'TWO', id: 'AARONFIT0001' } as const;
  const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
  const traced = decodeFrame(
    GatewayToAgentFrameSchema,
    encodeFrame({ v: PROTOCOL_VERSION, type: 'request', id: '1', timeoutMs: 100, op, traceparent }),
  );
  assert.ok(traced.ok && traced.frame.type === 'request' && traced.frame.traceparent === traceparent);
  // A gateway from before sends none: the frame is as valid as ever.
  const plain = decodeFrame(GatewayToAgentFrameSchema, encodeFrame({ v: PROTOCOL_VERSION, type: 'request', id: '2', timeoutMs: 100, op }));
  assert.ok(plain.ok && plain.frame.type === 'request' && plain.frame.traceparent === undefined);
  // An agent from before reads the frame with the schema it had, without the field: unknown keys are dropped, not refused.
  const before = decodeFrame(
    RequestFrameSchema.omit({ traceparent: true }),
    encodeFrame({ v: PROTOCOL_VERSION, type: 'request', id: '3', timeoutMs: 100, op, traceparent }),
  );
  assert.ok(before.ok && !('traceparent' in before.frame));
  // One it cannot read costs the trace, never the request.
  const odd = decodeFrame(
    GatewayToAgentFrameSchema,
    encodeFrame({ v: PROTOCOL_VERSION, type: 'request', id: '4', timeoutMs: 100, op, traceparent: 'ff-some-later-format' }),
  );
  assert.ok(odd.ok);
});

test('the change feed frames: changes from the agent, acknowledged by id; a welcome names the features, or none (an older gateway)', () => {
  const change = {
    kind: 'updated',
    id: 'AARONFIT0001',
    version: '2026-01-01T10:00:00.000Z',
    changedAt: '2026-01-01T10:00:00.000Z',
    record: { id: 'AARONFIT0001' },
  };
  const frame = {
    v: 1,
    type: 'changes',
    id: 'c1',
    object: 'customers',
    company: 'TWO',
    changes: [change, { ...change, kind: 'deleted', record: null }],
  };
  assert.deepEqual(decodeFrame(AgentToGatewayFrameSchema, encodeFrame(frame)), { ok: true, frame, payload: null });
  assert.deepEqual(decodeFrame(GatewayToAgentFrameSchema, encodeFrame({ v: 1, type: 'changes-ack', id: 'c1', stored: 2 })), {
    ok: true,
    frame: { v: 1, type: 'changes-ack', id: 'c1', stored: 2 },
    payload: null,
  });
  // Objects without change detection (gl-entries, the system database's companies) and empty frames are refused.
  assert.equal(decodeFrame(AgentToGatewayFrameSchema, encodeFrame({ ...frame, object: 'gl-entries' })).ok, false);
  assert.equal(decodeFrame(AgentToGatewayFrameSchema, encodeFrame({ ...frame, changes: [] })).ok, false);
  assert.equal(decodeFrame(AgentToGatewayFrameSchema, encodeFrame({ ...frame, changes: [{ ...change, kind: 'moved' }] })).ok, false);

  const welcome = decodeFrame(
    GatewayToAgentFrameSchema,
    encodeFrame({ v: 1, type: 'welcome', connectionId: 'conn_1', features: ['changes'] }),
  );
  assert.ok(welcome.ok && welcome.frame.type === 'welcome' && welcome.frame.features?.includes('changes'));
  const older = decodeFrame(GatewayToAgentFrameSchema, encodeFrame({ v: 1, type: 'welcome', connectionId: 'conn_1' }));
  assert.ok(
    older.ok && older.frame.type === 'welcome' && older.frame.features === undefined,
    'a welcome without features: send no changes',
  );
});
