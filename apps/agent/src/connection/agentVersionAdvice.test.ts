import { test } from 'node:test';
import assert from 'node:assert/strict';
import { encodeFrame } from '@gp-gateway/protocol';
import { memoryLog } from '@gp-gateway/testing';
import type { OperationHandler } from '../service/readService.ts';
import { AGENT_VERSION } from '../version.ts';
import { AgentSession } from './agentSession.ts';

/** What the agent's own log says after the gateway's welcome, by the versions the gateway names. */
function welcomed(agentVersions?: { minimum: string; latest: string | null }) {
  const { log, lines } = memoryLog();
  const session = new AgentSession({ send: () => {} }, {} as OperationHandler, log);
  session.receive(encodeFrame({ v: 1, type: 'welcome', connectionId: 'conn', ...(agentVersions ? { agentVersions } : {}) }));
  return lines.filter((line) => line.msg !== 'gateway accepted the agent');
}

test("an agent older than the gateway's minimum says so in its log, with how to upgrade", () => {
  const [line] = welcomed({ minimum: '99.0.0', latest: '99.1.0' });
  assert.equal(line?.level, 40, 'a warning');
  assert.equal(
    line?.msg,
    `this agent (${AGENT_VERSION}) is older than 99.0.0, the oldest the gateway supports: upgrade it now with \`gp-agent update\` (docs/operations.md, "Updating agents")`,
  );
});

test('a newer release is mentioned once; a current agent, or a gateway that names no versions, adds nothing', () => {
  const [line] = welcomed({ minimum: '0.0.1', latest: '99.1.0' });
  assert.equal(line?.level, 30);
  assert.match(String(line?.msg), /a newer agent, 99\.1\.0, is available .*: upgrade when convenient with `gp-agent update`/);
  assert.deepEqual(welcomed({ minimum: '0.0.1', latest: AGENT_VERSION }), []);
  assert.deepEqual(welcomed(), []);
});
