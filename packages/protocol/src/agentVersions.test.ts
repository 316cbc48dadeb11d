import { test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { agentVersionAdvice, isOlderVersion } from './agentVersions.ts';
import { GatewayToAgentFrameSchema } from './frames.ts';

test('versions compare as numbers, and a version that is not x.y.z counts as old', () => {
  assert.equal(isOlderVersion('0.9.0', '0.10.0'), true);
  assert.equal(isOlderVersion('0.10.0', '0.9.0'), false);
  assert.equal(isOlderVersion('1.2.3', '1.2.3'), false);
  assert.equal(isOlderVersion('1.2.3-rc.1', '1.2.3'), false);
  assert.equal(isOlderVersion('source', '0.1.0'), true);
});

test("a gateway's pong may name the agent versions (diagnose reads them); one without them is still valid", () => {
  const pong = { v: 1, type: 'pong', at: 1, now: 2, agentVersions: { minimum: '0.1.0', latest: '0.2.0' } };
  assert.deepEqual(GatewayToAgentFrameSchema.parse(pong), pong);
  assert.deepEqual(GatewayToAgentFrameSchema.parse({ v: 1, type: 'pong', at: 1 }), { v: 1, type: 'pong', at: 1 });
});

test('the welcome may name the agent versions; a welcome without them, from an older gateway, is still valid', () => {
  const withVersions = { v: 1, type: 'welcome', connectionId: 'c', agentVersions: { minimum: '0.2.0', latest: '0.3.0' } };
  assert.deepEqual(GatewayToAgentFrameSchema.parse(withVersions), withVersions);
  assert.deepEqual(GatewayToAgentFrameSchema.parse({ v: 1, type: 'welcome', connectionId: 'c' }), {
    v: 1,
    type: 'welcome',
    connectionId: 'c',
  });
  // An agent of the first release parses the new welcome with its own schema, which drops the unknown key.
  const firstRelease = z.object({ v: z.literal(1), type: z.literal('welcome'), connectionId: z.string() });
  assert.deepEqual(firstRelease.parse(withVersions), { v: 1, type: 'welcome', connectionId: 'c' });
});

test('the agent is told to upgrade below the minimum, told of a newer release below the latest, and told nothing otherwise', () => {
  assert.equal(agentVersionAdvice('0.1.0', { minimum: '0.2.0', latest: null })?.level, 'warn');
  assert.match(
    agentVersionAdvice('0.1.0', { minimum: '0.2.0', latest: null })!.message,
    /older than 0\.2\.0.*upgrade it now with `gp-agent update`/,
  );
  assert.deepEqual(agentVersionAdvice('0.2.0', { minimum: '0.1.0', latest: '0.3.0' })?.level, 'info');
  assert.match(agentVersionAdvice('0.2.0', { minimum: '0.1.0', latest: '0.3.0' })!.message, /0\.3\.0, is available .*upgrade/);
  assert.equal(agentVersionAdvice('0.3.0', { minimum: '0.1.0', latest: '0.3.0' }), null);
  assert.equal(agentVersionAdvice('0.3.0', undefined), null);
});
