import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openFlash, sealFlash, type Flash } from './flash.ts';

const flash: Flash = { page: 'keys', notice: 'made', secret: { title: 'The secret of "CI"', value: 'lb_live_x', explanation: 'once' } };

test('a sealed message opens with the session it was sealed for, and holds nothing readable without it', () => {
  const sealed = sealFlash('session-one', flash);
  assert.deepEqual(openFlash('session-one', sealed), flash);
  assert.ok(!Buffer.from(sealed, 'base64url').toString('latin1').includes('lb_live_x'), 'the secret is not in the sealed text');
  assert.equal(openFlash('session-two', sealed), null, "another session's key opens nothing");
  assert.notEqual(sealFlash('session-one', flash), sealed, 'a new IV each time');
});

test('an altered or truncated message opens as nothing', () => {
  const bytes = Buffer.from(sealFlash('s', flash), 'base64url');
  bytes[bytes.length - 1]! ^= 1;
  assert.equal(openFlash('s', bytes.toString('base64url')), null);
  assert.equal(openFlash('s', 'AAAA'), null);
  assert.equal(openFlash('s', ''), null);
});
