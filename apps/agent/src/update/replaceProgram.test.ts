import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { downloadPathOf, previousPathOf, programVersion, rollBack, startsAs, swapIn } from './replaceProgram.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-replace-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));
const script = (version: string) => `#!/bin/sh\necho "${version} (commit test)"\n`;

test('the previous program keeps a name Windows still runs; downloads go beside the program', () => {
  assert.equal(previousPathOf('/opt/gp-agent/gp-agent'), '/opt/gp-agent/gp-agent.previous');
  assert.equal(previousPathOf(path.join(dir, 'gp-agent.exe')), path.join(dir, 'gp-agent.previous.exe'));
  assert.equal(path.dirname(downloadPathOf('/opt/gp-agent/gp-agent')), '/opt/gp-agent');
  assert.notEqual(downloadPathOf('/opt/gp-agent/gp-agent'), downloadPathOf('/opt/gp-agent/gp-agent'));
});

for (const platform of ['linux', 'win32'] as const) {
  test(`swapping in (${platform} style) keeps the old program as the previous one with its mode, and a rollback puts it back`, () => {
    const program = path.join(dir, `gp-agent-${platform}`);
    fs.writeFileSync(program, script('0.1.0'), { mode: 0o750 });
    const downloaded = downloadPathOf(program);
    fs.writeFileSync(downloaded, script('0.2.0'), { mode: 0o600 });
    const { previous } = swapIn(program, downloaded, platform);
    assert.equal(fs.readFileSync(program, 'utf8'), script('0.2.0'));
    assert.equal(fs.readFileSync(previous, 'utf8'), script('0.1.0'));
    assert.equal(fs.statSync(program).mode & 0o777, 0o750);
    assert.ok(!fs.existsSync(downloaded));
    assert.equal(programVersion(program), '0.2.0');
    assert.deepEqual(startsAs(program, '0.2.0'), { ok: true, said: '0.2.0 (commit test)' });
    assert.equal(startsAs(program, '0.3.0').ok, false);
    rollBack(program, previous, platform);
    assert.equal(fs.readFileSync(program, 'utf8'), script('0.1.0'));
    assert.ok(!fs.existsSync(previous));
  });
}

test('a program that does not answer --version like an agent has no version', () => {
  const broken = path.join(dir, 'broken');
  fs.writeFileSync(broken, '#!/bin/sh\nexit 1\n', { mode: 0o755 });
  assert.equal(programVersion(broken), null);
  assert.equal(startsAs(broken, '0.2.0').ok, false);
});
