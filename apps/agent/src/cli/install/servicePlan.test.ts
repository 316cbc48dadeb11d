import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseEnv } from 'node:util';
import { describeStep } from './applyPlan.ts';
import { winswXml } from './serviceFiles.ts';
import { installPlan, uninstallPlan } from './servicePlan.ts';

const settings = {
  gatewayUrl: 'https://gw',
  token: `lb_agent_${'a'.repeat(32)}`,
  database: { kind: 'mssql' as const, connection: 'Server=gp01' },
};
const lines = (plan: { steps: Parameters<typeof describeStep>[0][] }) => plan.steps.map(describeStep);

test('Windows: the program and WinSW are copied, the configuration is locked to administrators and the service account, diagnose runs before the start', () => {
  const plan = installPlan({ platform: 'win32', program: 'D:\\dl\\gp-agent-win-x64.exe', winsw: 'D:\\dl\\WinSW-x64.exe', settings });
  const steps = lines(plan);
  assert.ok(steps.includes('copy D:\\dl\\gp-agent-win-x64.exe to C:\\Program Files\\gp-agent\\gp-agent.exe'));
  assert.ok(steps.includes('copy D:\\dl\\WinSW-x64.exe to C:\\Program Files\\gp-agent\\gp-agent-service.exe'));
  const acl = plan.steps.findIndex((s) => s.kind === 'run' && s.command === 'icacls' && s.args[0] === 'C:\\ProgramData\\gp-agent');
  const step = plan.steps[acl];
  // Well-known SIDs (Administrators, SYSTEM, LocalService): names are translated on non-English Windows.
  assert.deepEqual(step?.kind === 'run' && step.args.slice(1), [
    '/inheritance:r',
    '/grant:r',
    '*S-1-5-32-544:(OI)(CI)F',
    '*S-1-5-18:(OI)(CI)F',
    '*S-1-5-19:(OI)(CI)RX',
  ]);
  const secret = plan.steps.findIndex((s) => s.kind === 'write' && s.secret);
  assert.ok(acl !== -1 && acl < secret, 'the folder is locked before the token is written into it');
  const order = (text: string) => steps.findIndex((s) => s.includes(text));
  assert.ok(order('install: register the service') < order('gp-agent diagnose'));
  assert.ok(order('gp-agent diagnose') < order('start: start the agent'));
  assert.ok(
    steps.includes(
      'run sc.exe config gp-agent obj= "NT AUTHORITY\\LocalService" password= "": run the service as NT AUTHORITY\\LocalService',
    ),
  );
  assert.ok(plan.steps.some((s) => s.kind === 'write' && s.secret && s.keep && s.text.includes(settings.token)));
  assert.deepEqual(plan.notes, []);
});

test('Windows with a domain account: its password is left to a person, and the service is not started', () => {
  const plan = installPlan({
    platform: 'win32',
    program: 'gp-agent.exe',
    winsw: 'WinSW-x64.exe',
    settings,
    serviceAccount: 'CONTOSO\\svc-gp',
  });
  assert.ok(!lines(plan).some((s) => /start|sc\.exe/.test(s)));
  assert.match(plan.notes[0]!, /password of CONTOSO\\svc-gp in services\.msc/);
  assert.throws(() => installPlan({ platform: 'win32', program: 'gp-agent.exe', settings }), /WinSW is needed/);
});

test('Linux: service account, private configuration, unit, diagnose, then start; uninstall keeps the configuration', () => {
  const steps = lines(installPlan({ platform: 'linux', program: '/tmp/gp-agent-linux-x64', settings }));
  assert.deepEqual(
    steps.map((s) => s.split(':')[0]),
    [
      'run useradd --system --user-group --home-dir /opt/gp-agent --no-create-home --shell /usr/sbin/nologin gp-agent',
      'create /opt/gp-agent',
      'copy /tmp/gp-agent-linux-x64 to /opt/gp-agent/gp-agent',
      'create /etc/gp-agent',
      'write /etc/gp-agent/gp-agent.conf (kept if it exists)',
      'run chown root',
      'write /etc/systemd/system/gp-agent.service',
      'run systemctl daemon-reload',
      'run systemctl enable gp-agent',
      'check the installation',
      'run systemctl restart gp-agent',
    ],
  );
  assert.ok(!lines(uninstallPlan({ platform: 'linux' })).some((s) => s.includes('gp-agent.conf')));
});

test('Linux without systemd: account, program and configuration, diagnose, no unit, no start, and the command to run it by hand', () => {
  const plan = installPlan({ platform: 'linux', program: '/tmp/gp-agent-linux-x64', settings, systemd: false });
  assert.ok(!lines(plan).some((s) => /systemctl|gp-agent\.service/.test(s)), lines(plan).join('\n'));
  assert.equal(plan.steps.at(-1)?.kind, 'diagnose');
  assert.equal(plan.starts, false);
  assert.match(plan.notes.join('\n'), /runuser -u gp-agent -- \/opt\/gp-agent\/gp-agent run --config \/etc\/gp-agent\/gp-agent.conf/);
});

test('uninstall tolerates a missing service, --purge removes the configuration and the account, and both remind to revoke the token', () => {
  const kept = uninstallPlan({ platform: 'linux' });
  const stop = kept.steps.find((s) => s.kind === 'run' && s.args.includes('--now'));
  assert.ok(stop?.kind === 'run' && stop.tolerated, 'a service that is not there is no failure');
  assert.ok(lines(kept).includes('remove /opt/gp-agent and everything in it'));
  assert.match(kept.notes.join('\n'), /gp-agent\.conf \(it holds the token\) and the gp-agent account stay.*--purge/);
  const purged = lines(uninstallPlan({ platform: 'linux', purge: true }));
  assert.ok(purged.includes('remove /etc/gp-agent and everything in it'));
  assert.ok(purged.some((s) => s.startsWith('run userdel gp-agent')));
  for (const plan of [kept, uninstallPlan({ platform: 'win32', purge: true }), uninstallPlan({ platform: 'linux', systemd: false })])
    assert.match(plan.notes.at(-1)!, /revoke-token/);
  assert.ok(!lines(uninstallPlan({ platform: 'linux', systemd: false })).some((s) => s.includes('systemctl')));
});

test('the configuration written reads back as given, a # or a quote in the password included', () => {
  const connection = `Server=gp01;Password=a#b"c`;
  const plan = installPlan({
    platform: 'linux',
    program: '/tmp/gp-agent',
    settings: { ...settings, database: { kind: 'mssql', connection } },
  });
  const write = plan.steps.find((s) => s.kind === 'write' && s.path === plan.config);
  assert.equal(write?.kind === 'write' && parseEnv(write.text).GP_MSSQL_CONNECTION, connection);
});

test('Windows --in-place (the MSI placed the program and registered the service): lock the folder, write, set the restarts after a crash, check, start; nothing copied or registered', () => {
  const plan = installPlan({ platform: 'win32', program: 'C:\\Program Files\\gp-agent\\gp-agent.exe', settings, inPlace: true });
  const steps = lines(plan);
  assert.ok(!steps.some((s) => s.startsWith('copy') || s.includes(' install: ') || s.includes('sc.exe config')), steps.join('\n'));
  assert.deepEqual(
    plan.steps.map((s) => s.kind),
    ['mkdir', 'run', 'mkdir', 'run', 'mkdir', 'run', 'write', 'run', 'diagnose', 'run'],
  );
  // The same restarts WinSW's install takes from the service file's <onfailure> and <resetfailure>.
  const xml = winswXml({ program: 'gp-agent.exe', installDir: '.', config: 'gp-agent.conf', logDir: 'logs' });
  const delays = [...xml.matchAll(/<onfailure action="restart" delay="(\d+) sec"\/>/g)].map((m) => `restart/${Number(m[1]) * 1000}`);
  const reset = Number(/<resetfailure>(\d+) hour<\/resetfailure>/.exec(xml)![1]) * 3600;
  assert.ok(
    steps.includes(
      `run sc.exe failure gp-agent reset= ${reset} actions= ${delays.join('/')}: Windows restarts the agent after a crash, as gp-agent-service.xml says (the MSI registered the service without it)`,
    ),
    steps.join('\n'),
  );
  assert.ok(
    steps.some((s) => s.includes('C:\\ProgramData\\gp-agent\\state /grant *S-1-5-19:(OI)(CI)M')),
    'the service may write its change-detection state',
  );
  assert.match(steps.at(-1)!, /gp-agent-service\.exe" start: start the agent$/);
  assert.equal(plan.starts, true);
});
