import { test } from 'node:test';
import assert from 'node:assert/strict';
import pino from 'pino';
import { decodeFrame, encodeFrame, GatewayToAgentFrameSchema } from '@gp-gateway/protocol';
import { acceptAgent } from './acceptAgent.ts';
import { agentVersionsNow, MINIMUM_AGENT_VERSION } from './agentVersion.ts';

test("the welcome names the oldest agent version the gateway supports, so the agent's own log can say when to upgrade", () => {
  const sent: string[] = [];
  const hello = encodeFrame({
    v: 1,
    type: 'hello',
    agent: { version: '0.1.0', host: 'gp01', platform: 'linux', dialect: 'sqlite' },
    companies: [],
  });
  const link = acceptAgent(
    { send: (text) => sent.push(text), close: () => assert.fail('refused') },
    hello,
    'conn_1',
    pino({ level: 'silent' }),
  );
  assert.ok(link);
  const welcome = decodeFrame(GatewayToAgentFrameSchema, sent[0]!);
  assert.ok(welcome.ok);
  assert.deepEqual(welcome.frame, {
    v: 1,
    type: 'welcome',
    connectionId: 'conn_1',
    agentVersions: { minimum: MINIMUM_AGENT_VERSION, latest: null },
  });
});

test("with a release folder, the welcome names its version as the latest, and the hello's Node version reaches the link", () => {
  const sent: string[] = [];
  const hello = encodeFrame({
    v: 1,
    type: 'hello',
    agent: { version: '0.1.0', commit: 'abc', node: '22.23.3', host: 'gp01', platform: 'linux', dialect: 'sqlite' },
    companies: [],
  });
  const link = acceptAgent(
    { send: (text) => sent.push(text), close: () => assert.fail('refused') },
    hello,
    'conn_1',
    pino({ level: 'silent' }),
    null,
    agentVersionsNow(() => '0.2.0'),
  );
  assert.equal(link?.agent.node, '22.23.3');
  const welcome = decodeFrame(GatewayToAgentFrameSchema, sent[0]!);
  assert.ok(welcome.ok && welcome.frame.type === 'welcome');
  assert.deepEqual(welcome.frame.agentVersions, { minimum: MINIMUM_AGENT_VERSION, latest: '0.2.0' });
});
