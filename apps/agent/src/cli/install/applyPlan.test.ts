import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { applyPlan, StepFailed, systemTool } from './applyPlan.ts';
import type { Plan, Step } from './servicePlan.ts';

/**
 * The steps carried out in a temporary folder, with stand-ins for the system's commands (scripts
 * that record their arguments and exit as told): nothing on this machine changes.
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-apply-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));
const tools = path.join(dir, 'sbin');
const calls = path.join(dir, 'calls.log');
fs.mkdirSync(tools);
function tool(name: string, exit: number): void {
  fs.writeFileSync(path.join(tools, name), `#!/bin/sh\necho "${name} $*" >> '${calls}'\necho "${name}: told to fail" >&2\nexit ${exit}\n`, {
    mode: 0o755,
  });
}
tool('useradd', 0);
tool('userdel', 0);
tool('chown', 1);
tool('systemctl', 1);
const called = () => (fs.existsSync(calls) ? fs.readFileSync(calls, 'utf8').trim().split('\n') : []);

async function apply(steps: Step[]) {
  const said: string[] = [];
  const plan: Plan = { steps, config: '', logs: '', notes: [], starts: false };
  const result = await applyPlan(plan, { toolDirs: [tools], say: (line) => said.push(line), diagnose: async () => true }).catch(
    (e: Error) => e,
  );
  return { result, said };
}

test('a failed step undoes what the earlier ones did, newest first: files, folders, the account', async () => {
  fs.rmSync(calls, { force: true });
  const program = path.join(dir, 'gp-agent-linux-x64');
  fs.writeFileSync(program, 'new program');
  const install = path.join(dir, 'opt');
  const { result, said } = await apply([
    { kind: 'run', command: 'useradd', args: ['gp-agent'], why: 'account', undo: { command: 'userdel', args: ['gp-agent'] } },
    { kind: 'mkdir', path: install, mode: 0o755 },
    { kind: 'copy', from: program, to: path.join(install, 'gp-agent'), mode: 0o755 },
    { kind: 'write', path: path.join(dir, 'etc/gp-agent.conf'), text: 'GP_AGENT_TOKEN = x', mode: 0o640 },
    { kind: 'run', command: 'chown', args: ['root:gp-agent', 'x'], why: 'ownership' },
  ]);
  assert.ok(result instanceof StepFailed);
  assert.match(result.message, /run chown root:gp-agent x: ownership\n\s+failed \(exit 1\): chown: told to fail/);
  assert.ok(!fs.existsSync(install), 'the folder it created is gone');
  assert.ok(!fs.existsSync(path.join(dir, 'etc/gp-agent.conf')), 'the configuration it wrote is gone');
  assert.deepEqual(called(), ['useradd gp-agent', 'chown root:gp-agent x', 'userdel gp-agent']);
  assert.ok(said.includes('  undo: run userdel gp-agent'), said.join('\n'));
});

test('an upgrade that fails puts the previous program back; one that succeeds leaves no copy behind', async () => {
  const installed = path.join(dir, 'upgrade', 'gp-agent');
  fs.mkdirSync(path.dirname(installed), { recursive: true });
  fs.writeFileSync(installed, 'old program');
  const program = path.join(dir, 'new-program');
  fs.writeFileSync(program, 'new program');
  const copy: Step = { kind: 'copy', from: program, to: installed, mode: 0o755 };
  const failed = await apply([copy, { kind: 'run', command: 'chown', args: [], why: 'fails' }]);
  assert.ok(failed.result instanceof StepFailed);
  assert.equal(fs.readFileSync(installed, 'utf8'), 'old program');
  assert.equal((await apply([copy])).result, true);
  assert.equal(fs.readFileSync(installed, 'utf8'), 'new program');
  assert.deepEqual(fs.readdirSync(path.dirname(installed)), ['gp-agent']);
});

test('a tolerated failure (uninstall: the service is not there) is said and passed over', async () => {
  const { result, said } = await apply([
    {
      kind: 'run',
      command: 'systemctl',
      args: ['disable', '--now', 'gp-agent'],
      why: 'stop',
      tolerated: 'no gp-agent service is registered',
    },
  ]);
  assert.equal(result, true);
  assert.ok(said.includes('    no gp-agent service is registered'));
});

test("system commands come from the system's folders, never from PATH", () => {
  assert.equal(systemTool('useradd', [tools]), path.join(tools, 'useradd'));
  assert.throws(() => systemTool('useradd', [path.join(dir, 'empty')]), /useradd is not installed \(looked in .*empty\)/);
  // A root shell whose PATH lacks /usr/sbin (the failure that `spawnSync useradd ENOENT` was) still finds it.
  if (fs.existsSync('/usr/sbin/useradd')) assert.equal(systemTool('useradd'), '/usr/sbin/useradd');
  assert.equal(systemTool('/opt/winsw/gp-agent-service'), '/opt/winsw/gp-agent-service', 'a path is taken as given');
});
