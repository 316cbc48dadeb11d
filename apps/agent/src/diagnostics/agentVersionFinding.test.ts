import { test } from 'node:test';
import assert from 'node:assert/strict';
import { versionFinding } from './gateway.ts';

test('diagnose says OUTDATED below the minimum, behind when a newer release is offered, and what to run', () => {
  const below = versionFinding('0.1.0', { minimum: '0.2.0', latest: '0.3.0' });
  assert.equal(below.status, 'warn');
  assert.equal(below.summary, '0.1.0 is OUTDATED: older than 0.2.0, the oldest this gateway supports; 0.3.0 is available');
  assert.match(below.fix!, /^run `gp-agent update` as administrator/);
  const behind = versionFinding('0.2.0', { minimum: '0.1.0', latest: '0.3.0' });
  assert.deepEqual([behind.status, behind.summary], ['warn', '0.2.0 is behind the latest release, 0.3.0, which the gateway offers']);
});

test('a current agent, or a gateway that names no versions, is fine', () => {
  assert.equal(versionFinding('0.3.0', { minimum: '0.1.0', latest: '0.3.0' }).status, 'ok');
  assert.equal(versionFinding('0.3.0', { minimum: '0.1.0', latest: null }).status, 'ok');
  assert.match(versionFinding('0.3.0', null).summary, /names no minimum or latest version/);
});
