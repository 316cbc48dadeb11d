import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type NatsConnection } from 'nats';
import { encodeFrame, type Operation } from '@gp-gateway/protocol';
import { AgentLostError, type ApiError } from '../../../errors/apiError.ts';
import { memoryLog, pollUntil, startNats, type NatsServer, skipWithout } from '@gp-gateway/testing';
import { AgentLink } from '../agentLink.ts';
import { LocalAgentRouter } from '../agentRouter.ts';
import { ClusterAgentRouter } from '../clusterAgentRouter.ts';
import { AgentResponder } from './agentResponder.ts';
import { connectionSubject, decodeMessage, encodeMessage, type ForwardReply, type ForwardRequest } from './forwardWire.ts';
import { NatsAgentRouter } from './natsAgentRouter.ts';
import { customerWrite as write } from '../testOperations.ts';

const skip = skipWithout('nats-server', 'request forwarding over NATS');
const op: Operation = { kind: 'list', object: 'companies', company: null, filters: {}, limit: 100, after: null };
const log = memoryLog().log;

/** An agent link over a fake channel: the test sees each frame the holder sends and answers by hand. */
function fakeAgent(allowWrites?: boolean) {
  const sent: Array<{ type: string; id: string; reason?: string; op?: Operation }> = [];
  const link = new AgentLink(
    { send: (text) => sent.push(JSON.parse(String(text).split('\n')[0]!)), close: () => {} },
    {
      agent: { version: '1', host: 'gp01', platform: 'linux', dialect: 'sqlite', ...(allowWrites === undefined ? {} : { allowWrites }) },
      companies: [{ id: 'TWO', name: null, number: null }],
    },
    log,
  );
  const answer = (payload: string, outcome?: 'created') => {
    const request = sent.find((f) => f.type === 'request')!;
    link.receive(
      Buffer.from(encodeFrame({ v: 1, type: 'response', id: request.id, next: null, ...(outcome ? { outcome } : {}) }, payload)),
    );
  };
  const requested = () => pollUntil('the agent to be sent the request', () => sent.some((f) => f.type === 'request'));
  return { link, sent, answer, requested };
}

describe('forwarding requests between instances over a real nats-server', { skip }, () => {
  let server: NatsServer;
  const connections: NatsConnection[] = [];
  const natsClient = async () => {
    const nc = await connect({ servers: server.url });
    connections.push(nc);
    return nc;
  };
  let n = 0;
  const prefix = () => `f${++n}`;
  /** Instance A holding conn_1, a fake agent, and answering for it on NATS from the moment this returns. */
  const holding = async (p: string, keepaliveMs: number) => {
    const local = new LocalAgentRouter();
    const holder = await natsClient();
    const responder = new AgentResponder({ nats: holder, local, instanceId: 'A', log, prefix: p, keepaliveMs });
    local.listen(responder);
    const agent = fakeAgent();
    local.add('conn_1', agent.link);
    await holder.flush();
    return { holder, responder, agent };
  };

  before(async () => {
    // A small largest message, so that a page has to travel in parts.
    server = await startNats(undefined, 'max_payload: 4096\n');
  });
  after(async () => {
    for (const nc of connections) await nc.close();
    await server?.stop();
  });

  test('a page larger than NATS’s largest message arrives whole, byte for byte; companies come from the holder', async () => {
    const p = prefix();
    const { responder, agent } = await holding(p, 100);
    const remote = new NatsAgentRouter({ nats: await natsClient(), prefix: p, log, keepaliveMs: 100 });
    assert.deepEqual((await remote.reach('conn_1'))?.companies, [{ id: 'TWO', name: null, number: null }]);
    const page = JSON.stringify(Array.from({ length: 400 }, (_, i) => ({ id: `CO${i}`, name: `Name ${i} — é ✓`, number: i })));
    const pending = remote.request('conn_1', op, 5_000);
    await agent.requested();
    agent.answer(page);
    const answer = await pending;
    assert.ok(Buffer.byteLength(page) > 4 * 4096);
    assert.equal(answer.payload.toString('utf8'), page);
    await responder.stop();
  });

  test('no instance holds the connection: 503 CONNECTION_OFFLINE at once, and no companies', async () => {
    const remote = new NatsAgentRouter({ nats: await natsClient(), prefix: prefix(), log, keepaliveMs: 1_000 });
    const started = Date.now();
    await assert.rejects(remote.request('conn_nobody', op, 30_000), (e: ApiError) => e.code === 'CONNECTION_OFFLINE');
    assert.equal(await remote.reach('conn_nobody'), null);
    assert.ok(Date.now() - started < 500, `took ${Date.now() - started} ms`);
  });

  test('a holder that falls silent mid-request (it died) is given up on after three keepalives, and the operation is never sent again', async () => {
    const p = prefix();
    const holder = await natsClient();
    const received: ForwardRequest[] = [];
    holder.subscribe(connectionSubject(p, 'conn_1'), {
      callback: (_e, msg) => {
        received.push(decodeMessage<ForwardRequest>(msg.data)!.header);
        msg.respond(encodeMessage({ t: 'alive', cancel: 'nowhere' }));
      },
    });
    await holder.flush();
    const forwarder = await natsClient();
    const remote = new NatsAgentRouter({ nats: forwarder, prefix: p, log, keepaliveMs: 100 });
    const started = Date.now();
    await assert.rejects(
      remote.request('conn_1', op, 30_000),
      (e: ApiError) => e.code === 'CONNECTION_OFFLINE' && /stopped answering/.test(e.message),
    );
    const ms = Date.now() - started;
    assert.ok(ms >= 250 && ms < 1_500, `gave up after ${ms} ms`);
    // Whatever the forwarder published until now has reached the server, and from it the holder.
    await forwarder.flush();
    await holder.flush();
    assert.equal(received.length, 1);
  });

  test('the forwarder giving up (its caller cancelled) cancels the query at the holder’s agent', async () => {
    const p = prefix();
    const { responder, agent } = await holding(p, 50);
    // The holder's first keepalive tells the forwarder where cancels go: a client listening to the
    // reply inboxes sees it leave the server, and a round trip of the forwarder's then delivers it
    // there too. (Inboxes only: a listener on request subjects would answer for absent holders.)
    const spy = await natsClient();
    const keepaliveSent = new Promise<void>((resolve) =>
      spy.subscribe('_INBOX.>', { callback: (_e, msg) => decodeMessage<ForwardReply>(msg.data)?.header.t === 'alive' && resolve() }),
    );
    await spy.flush();
    const forwarder = await natsClient();
    const remote = new NatsAgentRouter({ nats: forwarder, prefix: p, log, keepaliveMs: 50 });
    const abort = new AbortController();
    const pending = remote.request('conn_1', op, 30_000, undefined, abort.signal);
    await keepaliveSent;
    await forwarder.flush();
    await spy.close();
    abort.abort();
    await assert.rejects(pending, (e: ApiError) => e.code === 'UPSTREAM_TIMEOUT');
    await pollUntil('the cancel to reach the agent', () => agent.sent.some((f) => f.type === 'cancel'));
    const request = agent.sent.find((f) => f.type === 'request')!;
    assert.deepEqual(
      agent.sent.filter((f) => f.type === 'cancel').map((f) => [f.id, f.reason]),
      [[request.id, 'abandoned']],
    );
    await responder.stop();
  });

  test('a holder answers only while it has an agent that takes requests: a draining one leaves the subject', async () => {
    const p = prefix();
    const { holder, responder, agent } = await holding(p, 100);
    const remote = new NatsAgentRouter({ nats: await natsClient(), prefix: p, log, keepaliveMs: 100, companiesCacheMs: 0 });
    assert.notEqual(await remote.reach('conn_1'), null);
    agent.link.receive(encodeFrame({ v: 1, type: 'draining', graceMs: 1_000 }));
    await holder.flush();
    assert.equal(await remote.reach('conn_1'), null);
    await assert.rejects(remote.request('conn_1', op, 5_000), (e: ApiError) => e.code === 'CONNECTION_OFFLINE');
    await responder.stop();
  });
  /** One gateway instance: its own agents, answering for them on NATS. */
  const instance = async (p: string, id: string) => {
    const local = new LocalAgentRouter();
    const nats = await natsClient();
    const responder = new AgentResponder({ nats, local, instanceId: id, log, prefix: p, keepaliveMs: 100 });
    local.listen(responder);
    const remote = new NatsAgentRouter({ nats, prefix: p, log, keepaliveMs: 100, companiesCacheMs: 0 });
    return { local, nats, responder, remote, cluster: new ClusterAgentRouter(local, remote) };
  };
  /** Instance A holding conn_1 with writes on, and instance B, which forwards to it. */
  const writeThroughB = async () => {
    const p = prefix();
    const a = await instance(p, 'A');
    const agent = fakeAgent(true);
    a.local.add('conn_1', agent.link);
    await a.nats.flush();
    return { a, agent, b: await instance(p, 'B') };
  };

  test('a forwarded write’s answer carries the write’s outcome', async () => {
    const { a, agent, b } = await writeThroughB();
    const pending = b.cluster.request('conn_1', write(), 5_000);
    await agent.requested();
    agent.answer('{"id":"A"}', 'created');
    const answer = await pending;
    assert.deepEqual([answer.outcome, answer.payload.toString()], ['created', '{"id":"A"}']);
    await a.responder.stop();
  });

  test('a holder whose agent drops mid-write, or that dies mid-write, is a dropped AgentLostError at the forwarder', async () => {
    const { a, agent, b } = await writeThroughB();
    const dropped = b.cluster.request('conn_1', write(), 5_000);
    await agent.requested();
    a.local.remove('conn_1', agent.link);
    agent.link.closed();
    await assert.rejects(dropped, (e: ApiError) => e instanceof AgentLostError && e.dropped);

    // The holder itself dies with the write sent: silence, and the write may have committed.
    const second = fakeAgent(true);
    a.local.add('conn_1', second.link);
    await a.nats.flush();
    const silent = b.cluster.request('conn_1', write(), 30_000);
    await second.requested();
    await a.nats.close();
    await assert.rejects(silent, (e: ApiError) => e instanceof AgentLostError && e.dropped);
    assert.equal(second.sent.filter((f) => f.type === 'request').length, 1, 'never sent again');
    second.link.closed();
  });

  test('writes across instances: allowsWrites is true while any instance has a writer, and a changing write goes to it', async () => {
    const p = prefix();
    // A holds an agent with writes off, B one with writes on; C holds none.
    const [a, b, c] = [await instance(p, 'A'), await instance(p, 'B'), await instance(p, 'C')];
    const [off, on] = [fakeAgent(false), fakeAgent(true)];
    a.local.add('conn_1', off.link);
    b.local.add('conn_1', on.link);
    await Promise.all([a.nats.flush(), b.nats.flush()]);
    for (let i = 0; i < 10; i++) {
      assert.equal((await c.cluster.reach('conn_1', true))?.allowsWrites, true, `asked from C, time ${i}`);
      assert.equal((await a.cluster.reach('conn_1', true))?.allowsWrites, true, `asked from A, time ${i}`);
    }
    for (const from of [a, c, a, c, a, c]) void from.cluster.request('conn_1', write(), 5_000).catch(() => {});
    await pollUntil('six writes at the writer', () => on.sent.filter((f) => f.type === 'request').length >= 6);
    assert.equal(on.sent.filter((f) => f.type === 'request').length, 6);
    assert.equal(off.sent.filter((f) => f.type === 'request').length, 0, 'no write reaches the agent with writes off');
    // Reads still go to either.
    b.local.remove('conn_1', on.link);
    on.link.closed();
    await b.nats.flush();
    assert.equal((await c.cluster.reach('conn_1', true))?.allowsWrites, false);
    await assert.rejects(
      c.cluster.request('conn_1', write(), 5_000),
      (e: ApiError) => e.code === 'CONNECTION_OFFLINE' || /writes/.test(e.message),
    );
    assert.notEqual(await c.cluster.reach('conn_1'), null);
    for (const i of [a, b]) await i.responder.stop();
  });

  test('waitForAgent across instances: true as soon as another instance has the agent, false at the timeout', async () => {
    const p = prefix();
    const [a, b] = [await instance(p, 'A'), await instance(p, 'B')];
    assert.equal(await b.cluster.waitForAgent('conn_1', 300), false);
    // The agent comes up on A once B has asked NATS and found none: the wait has to notice it later.
    const request = b.nats.request.bind(b.nats);
    let asked!: () => void;
    const firstAsk = new Promise<void>((resolve) => (asked = resolve));
    b.nats.request = (...args) => request(...args).finally(asked);
    const started = Date.now();
    const waiting = b.cluster.waitForAgent('conn_1', 1_500);
    await firstAsk;
    a.local.add('conn_1', fakeAgent(true).link);
    assert.equal(await waiting, true);
    assert.ok(Date.now() - started < 1_500, `took ${Date.now() - started} ms`);
    await a.responder.stop();
  });
});
