import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseConnectionString } from '../../db/mssqlExecutor.ts';
import { lacksPassword, passwordFromFile, withPassword } from './sqlPassword.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-sqlpw-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

test('install asks for a password only when the connection names a SQL login without one', () => {
  assert.equal(lacksPassword('Server=gp01;Database=DYNAMICS;User Id=gp_api_read;Encrypt=true'), true);
  assert.equal(lacksPassword('Server=gp01;User Id=gp_api_read;Password=x'), false);
  assert.equal(lacksPassword('Server=gp01;Integrated Security=true'), false, 'a Windows login has no password');
});

test('the password joins the connection string intact, whatever characters it holds', () => {
  for (const password of ['plain', 'semi;colon', 'br}ace{s', 'quo"te\'s', 'eq=uals ', 'ünï'])
    assert.equal(parseConnectionString(withPassword('Server=gp01;User Id=gp_api_read;', password)).password, password);
});

test('a password file gives its first line; an empty one is named', () => {
  const file = path.join(dir, 'sql.pw');
  fs.writeFileSync(file, '\uFEFFs3cret;x\r\n');
  assert.equal(passwordFromFile(file), 's3cret;x');
  fs.writeFileSync(file, '\n');
  assert.throws(() => passwordFromFile(file), /sql\.pw is empty/);
});
