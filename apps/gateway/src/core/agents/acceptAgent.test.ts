import { test } from 'node:test';
import assert from 'node:assert/strict';
import pino from 'pino';
import { decodeFrame, encodeFrame, GatewayToAgentFrameSchema, type AgentInfo, type AgentVersions } from '@gp-gateway/protocol';
import { acceptAgent } from './acceptAgent.ts';
import { agentVersionsNow, MINIMUM_AGENT_VERSION } from './agentVersion.ts';

/** An agent saying hello as `agent`, accepted on a channel that fails the test if it is refused: its link and the frame it was welcomed with. */
function accept(agent: AgentInfo, agentVersions?: AgentVersions) {
  const sent: string[] = [];
  const hello = encodeFrame({ v: 1, type: 'hello', agent, companies: [] });
  const link = acceptAgent(
    { send: (text) => sent.push(text), close: () => assert.fail('refused') },
    hello,
    'conn_1',
    pino({ level: 'silent' }),
    null,
    agentVersions,
  );
  return { link, welcome: decodeFrame(GatewayToAgentFrameSchema, sent[0]!) };
}

test("the welcome names the oldest agent version the gateway supports, so the agent's own log can say when to upgrade", () => {
  const { link, welcome } = accept({ version: '0.1.0', host: 'gp01', platform: 'linux', dialect: 'sqlite' });
  assert.ok(link);
  assert.ok(welcome.ok);
  assert.deepEqual(welcome.frame, {
    v: 1,
    type: 'welcome',
    connectionId: 'conn_1',
    agentVersions: { minimum: MINIMUM_AGENT_VERSION, latest: null },
  });
});

test("with a release folder, the welcome names its version as the latest, and the hello's Node version reaches the link", () => {
  const { link, welcome } = accept(
    { version: '0.1.0', commit: 'abc', node: '22.23.3', host: 'gp01', platform: 'linux', dialect: 'sqlite' },
    agentVersionsNow(() => '0.2.0'),
  );
  assert.equal(link?.agent.node, '22.23.3');
  assert.ok(welcome.ok && welcome.frame.type === 'welcome');
  assert.deepEqual(welcome.frame.agentVersions, { minimum: MINIMUM_AGENT_VERSION, latest: '0.2.0' });
});
