import { test } from 'node:test';
import assert from 'node:assert/strict';
import { agentVersionText } from './agentVersionView.ts';

const details = { platform: 'linux', dialect: 'mssql', gpVersion: null, database: 'ok' as const, databaseMessage: null, draining: false };

test("the connections page shows an agent's version, commit and Node runtime, and flags one behind the release the gateway offers", () => {
  const agent = { agentVersion: '0.1.0', details: { ...details, commit: 'abc123def456', node: '22.23.3' } };
  assert.equal(agentVersionText(agent, null), '0.1.0 (commit abc123def456, Node 22.23.3)');
  assert.equal(agentVersionText(agent, '0.1.0'), '0.1.0 (commit abc123def456, Node 22.23.3)');
  assert.equal(
    agentVersionText(agent, '0.2.0'),
    '0.1.0 (commit abc123def456, Node 22.23.3) (behind: 0.2.0 is available; run gp-agent update on its server)',
  );
});

test('an agent below the minimum is OUTDATED; an old agent that reports neither commit nor Node shows its version alone', () => {
  assert.match(agentVersionText({ agentVersion: 'source', details: null }, '0.2.0'), /^source \(OUTDATED: older than /);
  assert.equal(agentVersionText({ agentVersion: '0.1.0', details }, null), '0.1.0');
});
