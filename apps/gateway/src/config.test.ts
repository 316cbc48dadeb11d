import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { databaseUrlFrom, loadConfig } from './config.ts';

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

test('DATABASE_URL: a PostgreSQL URL or unset (SQLite); anything else names the variable and never repeats the value', () => {
  assert.equal(loadConfig({}).databaseUrl, null);
  assert.equal(loadConfig({ DATABASE_URL: 'postgres://gw:pw@db:5432/gateway' }).databaseUrl, 'postgres://gw:pw@db:5432/gateway');
  assert.equal(databaseUrlFrom({ DATABASE_URL: 'postgresql://db/gateway' }), 'postgresql://db/gateway');
  assert.equal(databaseUrlFrom({}), null);
  for (const wrong of ['mysql://gw:secret-pw@db/gateway', 'db.example.com:5432', 'postgres://']) {
    assert.throws(
      () => loadConfig({ DATABASE_URL: wrong }),
      (error: Error) => error.message.startsWith('DATABASE_URL must be a PostgreSQL URL') && !error.message.includes('secret-pw'),
    );
    assert.throws(() => databaseUrlFrom({ DATABASE_URL: wrong }), /^Error: DATABASE_URL must be a PostgreSQL URL/);
  }
});
