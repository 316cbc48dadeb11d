import { test } from 'node:test';
import assert from 'node:assert/strict';
import pino from 'pino';
import { decodeFrame, encodeFrame, GatewayToAgentFrameSchema } from '@gp-gateway/protocol';
import { acceptAgent } from './acceptAgent.ts';
import { MINIMUM_AGENT_VERSION } from './agentVersion.ts';

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
