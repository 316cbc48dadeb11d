import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { loadConfig } from './config.ts';

test('CURSOR_SECRET takes 32+ bytes as hex or base64, is absent by default, and a short one names the variable', () => {
  const key = randomBytes(32);
  assert.deepEqual(loadConfig({ CURSOR_SECRET: key.toString('hex') }).cursorSecret, key);
  assert.deepEqual(loadConfig({ CURSOR_SECRET: key.toString('base64') }).cursorSecret, key);
  assert.equal(loadConfig({}).cursorSecret, null);
  assert.throws(
    () => loadConfig({ CURSOR_SECRET: randomBytes(16).toString('hex') }),
    /^Error: CURSOR_SECRET must be at least 32 random bytes/,
  );
});
