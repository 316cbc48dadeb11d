import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isOutdatedAgent, MINIMUM_AGENT_VERSION, outdatedAgentNote } from './agentVersion.ts';

test('agents older than the minimum are outdated, by number and not by text', () => {
  assert.equal(isOutdatedAgent('0.9.0', '0.10.0'), true);
  assert.equal(isOutdatedAgent('0.10.0', '0.9.0'), false);
  assert.equal(isOutdatedAgent('1.2.3', '1.2.3'), false);
  assert.equal(isOutdatedAgent('1.2.2', '1.2.3'), true);
  assert.equal(isOutdatedAgent('2.0.0', '1.9.9'), false);
  assert.equal(isOutdatedAgent('1.2.3-rc.1', '1.2.3'), false);
});

test('a version that is not x.y.z is flagged rather than trusted', () => {
  assert.equal(isOutdatedAgent('dev'), true);
  assert.equal(isOutdatedAgent(''), true);
});

test('the note names the minimum; a current agent gets none', () => {
  assert.equal(outdatedAgentNote(MINIMUM_AGENT_VERSION), '');
  assert.match(outdatedAgentNote('0.0.1', '0.1.0'), /OUTDATED: older than 0\.1\.0/);
});
