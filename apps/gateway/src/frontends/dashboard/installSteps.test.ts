import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { installSteps } from './installSteps.ts';

const OPERATIONS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../../docs/operations.md');

test("the install steps the dashboard shows are the operations guide's own, for the gateway they are shown on", () => {
  const guide = fs.readFileSync(OPERATIONS, 'utf8');
  const steps = installSteps('https://gateway.example.com');
  for (const line of [...steps.windows.split('\n'), ...steps.linux.split('\n')]) {
    if (line.startsWith('#')) continue;
    // The guide's connection string is an example one; the command before it must be the same.
    const command = line.includes('<server>') ? line.slice(0, line.indexOf('--mssql')) : line;
    assert.ok(guide.includes(command), `docs/operations.md has: ${command}`);
    assert.doesNotMatch(line, /Password=|\$env:/, 'the SQL password is asked for, never typed into a command or the environment');
  }
  assert.match(installSteps('http://localhost:3000').linux, /install --gateway http:\/\/localhost:3000 --token-file agent\.token/);
});
