import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hashPassword, passwordProblem, verifyPassword } from './passwords.ts';

test('a password verifies against its own scrypt hash only; the hash carries its salt and cost', async () => {
  const hash = await hashPassword('correct horse battery');
  assert.match(hash, /^scrypt\$32768\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
  assert.notEqual(await hashPassword('correct horse battery'), hash, 'a new salt each time');
  assert.equal(await verifyPassword('correct horse battery', hash), true);
  assert.equal(await verifyPassword('correct horse batterY', hash), false);
  assert.equal(await verifyPassword('', hash), false);
  for (const broken of ['', 'bcrypt$x', 'scrypt$x$8$1$abc$def', hash.slice(0, -4)]) {
    assert.equal(await verifyPassword('correct horse battery', broken), false, `not a hash of ours: ${broken}`);
  }
});

test('new passwords need at least 10 and at most 256 characters', () => {
  assert.match(passwordProblem('short')!, /at least 10/);
  assert.match(passwordProblem('x'.repeat(257))!, /at most 256/);
  assert.equal(passwordProblem('ten chars!'), null);
});
