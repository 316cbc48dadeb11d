import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generateDemo } from '@gp-gateway/gp-demo';
import { provisionOrganisation } from '@gp-gateway/gateway/testing';
import { peFacts, rcdataSize } from '../apps/agent/build/peImage.ts';
import { signAuthenticode, verifyAuthenticode } from '../apps/agent/build/authenticode.ts';
import { signSums } from '../apps/agent/build/releaseSignature.ts';
import { throwawayCertificate } from '@gp-gateway/testing';
import { countLogged, ROOT, runGatewayCli, startGatewayProcess, waitFor, type Started } from './support/processes.ts';
import { buildRelease, throwawayReleaseKey } from './support/release.ts';

/**
 * The single-file agent as a customer's IT gets it: `pnpm build:agent` runs first (CI builds both
 * programs here), then the Linux program is copied into an empty folder with no node_modules
 * anywhere above it, installed with `install --root` (the files it writes checked, its diagnose
 * run against a real gateway), and run from the installed copy with only its configuration file:
 * hello, reads (on the calling thread and on its SQLite threads), drain on SIGTERM. The Windows
 * program is a 64-bit console PE holding the blob, and runs under wine (Debian's wine64) for what
 * needs no Windows service: --version, --help, the install plan. The program updates itself from
 * the gateway's release folder (`gp-agent update`), and refuses a release it cannot verify. Last, a
 * second build of the same commit, made while the other tests ran, gives the same bytes.
 */
const DIST = path.join(ROOT, 'dist');
const LINUX = path.join(DIST, 'gp-agent-linux-x64');
const WINDOWS = path.join(DIST, 'gp-agent-win-x64.exe');
const SEA_RESOURCE = 'NODE_SEA_BLOB';

let tmp: string;
let gateway: Started & { url: string; testKey: string };
let dataDir: string;
let liveKey: string;
let orgId: string;
let token: string;
let connectionId: string;
/** The empty folder the program is run from, and the folder `install --root` writes into. */
let field: string;
let installRoot: string;
/** The gateway's release folder (RELEASE_DIR): empty until the update tests put a release in it. */
let releaseDir: string;
/** Only what any server has: no NODE_PATH, no NODE_OPTIONS, nothing of this checkout. */
const bareEnv = () => ({ PATH: '/usr/bin:/bin', HOME: field, LANG: 'C.UTF-8' });

function run(program: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  return spawnSync(program, args, { cwd: field, env: { ...bareEnv(), ...env }, encoding: 'utf8', timeout: 60_000 });
}

/**
 * The reproducibility check's second build, into a folder of its own: started as soon as the first
 * is done and awaited by the file's last test, so it runs while the others do (each takes a minute).
 * Its output goes to a file: the tests' spawnSync calls hold this event loop, and a pipe left unread
 * would stall the build.
 */
let secondBuild: Promise<{ status: number | null; output: string; dir: string }>;

function buildInBackground(dir: string): Promise<{ status: number | null; output: string; dir: string }> {
  const logFile = `${dir}.log`;
  const log = fs.openSync(logFile, 'w');
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'apps/agent/build/main.ts'), '--out', dir], {
    cwd: ROOT,
    stdio: ['ignore', log, log],
  });
  fs.closeSync(log);
  return new Promise((resolve) => {
    const done = (status: number | null, error?: Error) =>
      resolve({ status, output: (error ? `${error.message}\n` : '') + fs.readFileSync(logFile, 'utf8'), dir });
    child.on('error', (error) => done(null, error));
    child.on('close', (status) => done(status));
  });
}

before(async () => {
  const build = spawnSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'apps/agent/build/main.ts')], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  assert.equal(build.status, 0, `pnpm build:agent failed:\n${build.stdout}${build.stderr}`);
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-program-'));
  secondBuild = buildInBackground(path.join(tmp, 'again'));
  field = path.join(tmp, 'field');
  installRoot = path.join(tmp, 'root');
  fs.mkdirSync(field);
  for (let dir = field; dir !== path.dirname(dir); dir = path.dirname(dir))
    assert.ok(!fs.existsSync(path.join(dir, 'node_modules')), `${dir} must not hold node_modules for this test`);
  fs.copyFileSync(LINUX, path.join(field, 'gp-agent'));
  fs.chmodSync(path.join(field, 'gp-agent'), 0o755);

  generateDemo({ dir: path.join(field, 'demo'), scale: 1, seed: 5 });
  dataDir = path.join(tmp, 'gateway');
  const customer = await provisionOrganisation(dataDir, {
    organisation: 'Program Co',
    limits: { requestsPerWindow: 100_000, windowSeconds: 10 },
    connections: ['HQ'],
  });
  orgId = customer.orgId;
  liveKey = customer.liveKey;
  ({ token, id: connectionId } = customer.connections.HQ!);
  releaseDir = path.join(tmp, 'release');
  gateway = await startGatewayProcess(dataDir, { REQUEST_TIMEOUT_MS: '10000', RELEASE_DIR: releaseDir });
});

after(async () => {
  await secondBuild;
  await gateway?.stop();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

test('the programs, WinSW, the .deb and the MSI are listed in SHA256SUMS; the Windows one is a 64-bit console PE holding the application blob, unsigned', (t) => {
  const listed = fs
    .readFileSync(path.join(DIST, 'SHA256SUMS'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => line.split(/\s+/));
  assert.deepEqual(
    listed.map(([, name]) => name),
    [path.basename(LINUX), path.basename(WINDOWS), 'gp-agent_0.1.0_amd64.deb', 'gp-agent-service.exe', 'gp-agent-0.1.0-x64.msi'],
  );
  // The MSI holds the program as built (msiinfo lists its files with their sizes).
  const files = spawnSync('msiinfo', ['export', path.join(DIST, 'gp-agent-0.1.0-x64.msi'), 'File'], { encoding: 'utf8' }).stdout;
  assert.match(files, new RegExp(`\\tgp-agent\\.exe\\t${fs.statSync(WINDOWS).size}\\t`));
  for (const [sum, name] of listed)
    assert.equal(
      sum,
      crypto
        .createHash('sha256')
        .update(fs.readFileSync(path.join(DIST, name!)))
        .digest('hex'),
    );
  const exe = fs.readFileSync(WINDOWS);
  const facts = peFacts(exe);
  assert.equal(facts.machine, 'x64');
  assert.equal(facts.subsystem, 3, 'a console program');
  assert.equal(facts.signature, null, "Node's signature, which the injection would break, is removed");
  const blob = rcdataSize(exe, SEA_RESOURCE);
  assert.ok(blob !== null && blob > 1_000_000, `the ${SEA_RESOURCE} resource holds the bundled agent (${blob} bytes)`);
  t.diagnostic(
    `gp-agent-win-x64.exe ${(exe.length / 1e6).toFixed(1)} MB, ${SEA_RESOURCE} ${(blob! / 1e6).toFixed(2)} MB; ` +
      `gp-agent-linux-x64 ${(fs.statSync(LINUX).size / 1e6).toFixed(1)} MB`,
  );
});

test('with a certificate configured, the Windows program is Authenticode-signed: osslsigncode verifies it, the same bytes each time', () => {
  // A throwaway code-signing certificate stands for the vendor's (GP_AGENT_SIGN_CERT / GP_AGENT_SIGN_KEY).
  const certificate = throwawayCertificate(tmp, { name: 'code-signing', extensions: ['extendedKeyUsage=codeSigning'] });
  const signing = { certFile: certificate.certFile, keyFile: certificate.keyFile };
  const copies = ['signed-1.exe', 'signed-2.exe'].map((name) => path.join(tmp, name));
  for (const copy of copies) {
    fs.copyFileSync(WINDOWS, copy);
    signAuthenticode(copy, signing, 'GP gateway agent', 1_700_000_000);
  }
  const signer = verifyAuthenticode(copies[0]!, { caFile: certificate.certFile, publisher: /code-signing \(throwaway, tests only\)/ });
  assert.match(signer, /CN=code-signing/);
  assert.ok(peFacts(fs.readFileSync(copies[0]!)).signature, 'the PE carries a signature');
  assert.ok(fs.readFileSync(copies[0]!).equals(fs.readFileSync(copies[1]!)), 'signing is reproducible (the signing time is fixed)');
  assert.throws(() => verifyAuthenticode(WINDOWS, { caFile: certificate.certFile, publisher: /./ }), /does not verify/);
  // One byte changed in the signed program: the signature no longer verifies.
  const tampered = fs.readFileSync(copies[1]!);
  tampered[4096] = tampered[4096]! ^ 0xff;
  fs.writeFileSync(copies[1]!, tampered);
  assert.throws(() => verifyAuthenticode(copies[1]!, { caFile: certificate.certFile, publisher: /./ }), /does not verify/);
});

test('the Windows program runs under wine: --version, diagnose --help, and the Windows install it would carry out', () => {
  // A prefix of the test's own, reporting Windows 10: Node refuses to start on what a fresh wine
  // prefix reports by default (older than Windows 8.1).
  const prefix = path.join(tmp, 'wine');
  const env = { PATH: '/usr/bin:/bin', HOME: tmp, WINEPREFIX: prefix, WINEDEBUG: '-all', LANG: 'C.UTF-8' };
  // Debian's wine64 puts its loader in /usr/lib/wine; the `wine` package adds /usr/bin wrappers.
  const loader = ['/usr/lib/wine/wine64', '/usr/bin/wine64', '/usr/bin/wine'].find((file) => fs.existsSync(file));
  assert.ok(loader, 'wine64 is installed (.ci/run installs it)');
  // Standard output and error are files: Node under wine cannot open a pipe it is given as one
  // (EBADF from net.Socket), though a file works.
  const wine = (args: string[], extra: NodeJS.ProcessEnv = {}) => {
    const [out, err] = ['out', 'err'].map((name) => path.join(tmp, `wine.${name}`));
    const fds = [out!, err!].map((file) => fs.openSync(file, 'w'));
    try {
      const run = spawnSync(loader, args, { cwd: tmp, env: { ...env, ...extra }, stdio: ['ignore', ...fds], timeout: 120_000 });
      return { status: run.status, stdout: fs.readFileSync(out!, 'utf8'), stderr: fs.readFileSync(err!, 'utf8') };
    } finally {
      for (const fd of fds) fs.closeSync(fd);
    }
  };
  const configured = wine(['winecfg', '/v', 'win10']);
  assert.equal(configured.status, 0, configured.stderr);
  const exe = path.join(tmp, 'gp-agent-win-x64.exe');
  fs.copyFileSync(WINDOWS, exe);
  fs.copyFileSync(path.join(DIST, 'gp-agent-service.exe'), path.join(tmp, 'gp-agent-service.exe'));
  const head = spawnSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).stdout.trim();
  const version = wine([exe, '--version']);
  assert.equal(version.status, 0, version.stderr);
  assert.match(version.stdout.trim(), new RegExp(`^\\d+\\.\\d+\\.\\d+ \\(commit ${head}(-modified)?\\)$`));
  const help = wine([exe, 'diagnose', '--help']);
  assert.equal(help.status, 0, help.stderr);
  assert.match(help.stdout, /^Usage: gp-agent diagnose \[options\]/);
  const plan = wine([exe, 'install', '--dry-run', '--gateway', 'https://gw.example.com', '--sqlite-dir', 'C:\\demo'], {
    GP_AGENT_TOKEN: token,
  });
  assert.equal(plan.status, 0, plan.stdout + plan.stderr);
  assert.match(plan.stdout, /run icacls C:\\ProgramData\\gp-agent \/inheritance:r \/grant:r \*S-1-5-32-544:\(OI\)\(CI\)F/);
  assert.match(plan.stdout, /copy .*gp-agent-service\.exe to C:\\Program Files\\gp-agent\\gp-agent-service\.exe/);
});

test('--version reports the version and the commit it was built from', () => {
  const version = run(path.join(field, 'gp-agent'), ['--version']);
  assert.equal(version.status, 0, version.stderr);
  const head = spawnSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).stdout.trim();
  assert.match(version.stdout.trim(), new RegExp(`^\\d+\\.\\d+\\.\\d+ \\(commit ${head}(-modified)?\\)$`));
});

test('install --root writes the program, a private configuration and the systemd unit, and checks them against the gateway', () => {
  fs.writeFileSync(path.join(field, 'agent.token'), `${token}\n`, { mode: 0o600 });
  const install = run(path.join(field, 'gp-agent'), [
    'install',
    '--root',
    installRoot,
    '--gateway',
    gateway.url,
    '--token-file',
    'agent.token',
    '--sqlite-dir',
    'demo',
  ]);
  assert.equal(install.status, 0, install.stdout + install.stderr);
  assert.match(install.stdout, /\(not run: --root\) run systemctl enable gp-agent/);
  assert.match(install.stdout, /^  ok    WebSocket and token/m);
  assert.match(install.stdout, /All checks passed/);
  assert.match(install.stdout, /nothing was registered or started \(--root runs no system command\)/);
  assert.ok(!install.stdout.includes('Installed and started'), 'no start is claimed that did not happen');
  assert.ok(!install.stdout.includes(token), 'the token is not printed');

  const installed = path.join(installRoot, 'opt/gp-agent/gp-agent');
  assert.ok(fs.readFileSync(installed).equals(fs.readFileSync(LINUX)), 'the program is copied as built');
  const conf = path.join(installRoot, 'etc/gp-agent/gp-agent.conf');
  assert.equal(fs.statSync(conf).mode & 0o777, 0o640, 'readable by root and the service group only');
  assert.equal(fs.statSync(path.dirname(conf)).mode & 0o777, 0o750);
  const text = fs.readFileSync(conf, 'utf8');
  assert.match(text, new RegExp(`^GP_AGENT_TOKEN = ${token}$`, 'm'));
  assert.match(text, new RegExp(`^GP_SQLITE_DIR = ${path.join(field, 'demo')}$`, 'm'));
  const unit = fs.readFileSync(path.join(installRoot, 'etc/systemd/system/gp-agent.service'), 'utf8');
  assert.equal(unit, fs.readFileSync(path.join(ROOT, 'deploy/systemd/gp-agent.service'), 'utf8'));
});

test('the installed program runs with only its configuration file: hello, reads, and a drain on SIGTERM', async () => {
  const conf = path.join(installRoot, 'etc/gp-agent/gp-agent.conf');
  fs.appendFileSync(conf, 'GP_AGENT_DRAIN_GRACE_MS = 10000\nGP_SQLITE_WORKERS = 1\n');
  // Debug: "request started" tells the test that a request has reached the agent.
  const child = spawn(path.join(installRoot, 'opt/gp-agent/gp-agent'), ['run', '--config', conf, '--log-level', 'debug'], {
    cwd: field,
    // Test-only: every list on a thread is held this long, so that one is in flight at SIGTERM.
    env: { ...bareEnv(), GP_AGENT_TEST_DELAY_MS: '1500' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  // The connection's default company (TWO) serves the company objects.
  const get = async (pathAndQuery: string) => {
    const res = await fetch(`${gateway.url}${pathAndQuery}`, {
      headers: { authorization: `Bearer ${liveKey}`, 'x-connection-id': connectionId },
    });
    return { status: res.status, body: (await res.json()) as any };
  };
  try {
    let last: { status: number; body: any } | undefined;
    const companies = await waitFor(
      'the agent to connect',
      async () => {
        last = await get('/v1/companies');
        return last.status === 200 ? last.body : null;
      },
      20_000,
    ).catch((error: Error) => assert.fail(`${error.message}: ${JSON.stringify(last)}\n${output}`));
    assert.deepEqual(companies.data.map((c: { id: string }) => c.id).sort(), ['NWIND', 'TWO']);
    const started = output
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l))
      .find((l) => l.msg === 'agent starting');
    assert.match(started.commit, /^[0-9a-f]{12}(-modified)?$/);

    const listed = await runGatewayCli(['connection', 'list', '--org', orgId], { DATA_DIR: dataDir });
    assert.match(listed.stdout, /agent \d+\.\d+\.\d+ \(linux, sqlite\)/, listed.stdout + listed.stderr);
    assert.doesNotMatch(listed.stdout, /OUTDATED/);

    // A short page on the agent's event loop, and a filtered one on its SQLite thread (code bundled as a data: URL).
    const page = await get('/v1/customers?limit=5');
    assert.equal(page.status, 200, JSON.stringify(page.body));
    assert.equal(page.body.data.length, 5);
    const sent = Date.now();
    const reached = countLogged(output, 'request started');
    const slow = get('/v1/customers?limit=3&inactive=false');
    await waitFor('the list to reach the agent', () => (countLogged(output, 'request started') > reached ? true : null));
    child.kill('SIGTERM');
    const answered = await slow;
    assert.equal(answered.status, 200, JSON.stringify(answered.body));
    assert.equal(answered.body.data.length, 3);
    assert.ok(Date.now() - sent >= 1400, 'it waited on the thread (GP_AGENT_TEST_DELAY_MS) and finished during the drain');
    assert.equal(await exited, 0, output);
    assert.match(output, /"msg":"drained; closing the connection"/);
  } finally {
    child.kill('SIGKILL');
  }
});

test('uninstall --root removes the unit and the program and keeps the configuration', () => {
  const uninstall = run(path.join(installRoot, 'opt/gp-agent/gp-agent'), ['uninstall', '--root', installRoot]);
  assert.equal(uninstall.status, 0, uninstall.stdout + uninstall.stderr);
  assert.ok(!fs.existsSync(path.join(installRoot, 'etc/systemd/system/gp-agent.service')));
  assert.ok(!fs.existsSync(path.join(installRoot, 'opt/gp-agent/gp-agent')));
  assert.ok(fs.existsSync(path.join(installRoot, 'etc/gp-agent/gp-agent.conf')));
});

/**
 * The newer release for the update tests, without a second build (two already take minutes here):
 * this build's Linux program with the version string in its bundled script changed, in place and
 * at the same length (0.1.0 becomes 0.2.0, found as the one `="<version>",x="<commit>"` of the
 * minified script; the application blob carries no checksum of its own). It is the real single-file
 * program in every other byte, so what the update fetches, verifies, swaps in and runs is a real
 * program that says it is the newer version; what it does not show is a build of another commit.
 */
function newerProgram(current: string, commit: string): { bytes: Buffer; version: string } {
  const bytes = fs.readFileSync(LINUX);
  const [major, minor] = current.split('.').map(Number);
  const version = `${major}.${minor! + 1}.0`;
  assert.equal(version.length, current.length, 'the new version string is as long as the old one');
  const text = bytes.toString('latin1');
  const pattern = new RegExp(`="${current.replaceAll('.', '\\.')}",[\\w$]+="${commit}"`, 'g');
  const found = [...text.matchAll(pattern)];
  assert.equal(found.length, 1, `the version is written once in the bundled script (${found.length} found)`);
  bytes.write(version, found[0]!.index + 2, 'latin1');
  return { bytes, version };
}

/** The program that updates itself, in a folder of its own: update replaces process.execPath, whatever its name. */
let self: string;
let release: { privatePem: string; publicPem: string };
let releaseKeyFile: string;
let newer: { bytes: Buffer; version: string };
/** The version this build says it is. */
let current: string;
const sha256 = (bytes: Buffer) => crypto.createHash('sha256').update(bytes).digest('hex');
const selfFolder = () =>
  Object.fromEntries(
    fs
      .readdirSync(path.dirname(self))
      .sort()
      .map((name) => [name, sha256(fs.readFileSync(path.join(path.dirname(self), name)))]),
  );

test('update refuses a release whose SHA256SUMS is signed by another key, and the program stays exactly as it was', () => {
  const [version, commit] = /^(\S+) \(commit (\S+)\)$/.exec(run(LINUX, ['--version']).stdout.trim())!.slice(1);
  current = version!;
  newer = newerProgram(current, commit!);
  release = throwawayReleaseKey();
  releaseKeyFile = path.join(tmp, 'release.pub.pem');
  fs.writeFileSync(releaseKeyFile, release.publicPem);
  self = path.join(tmp, 'self', 'gp-agent');
  fs.mkdirSync(path.dirname(self));
  fs.copyFileSync(LINUX, self);
  fs.chmodSync(self, 0o755);
  // The release as a gateway that was broken into would serve it: right files, signed by another key.
  buildRelease(releaseDir, newer.version, throwawayReleaseKey().privatePem, { linuxProgram: newer.bytes, commit: commit! });
  const before = selfFolder();
  const refused = run(self, ['update', '--gateway', gateway.url, '--release-key', releaseKeyFile, '--no-restart'], {});
  assert.equal(refused.status, 1, refused.stdout + refused.stderr);
  assert.match(refused.stderr, /^gp-agent: update refused: the signature of SHA256SUMS does not verify with the release key/m);
  assert.doesNotMatch(refused.stderr, /^\s+at /m, 'no stack trace');
  assert.deepEqual(selfFolder(), before, 'nothing written beside the program, nothing replaced');
});

test('the real program updates itself from the gateway: signature and checksum verified, swapped in, and the new program runs', () => {
  signSums(releaseDir, release.privatePem);
  const update = spawnSync(self, ['update', '--gateway', gateway.url, '--release-key', releaseKeyFile, '--no-restart'], {
    cwd: field,
    env: bareEnv(),
    encoding: 'utf8',
    timeout: 180_000,
  });
  assert.equal(update.status, 0, update.stdout + update.stderr);
  assert.match(update.stdout, /^SHA256SUMS: signed with the release key \(verified\)$/m);
  assert.match(update.stdout, new RegExp(`^Release offered: ${newer.version} .*; this agent: ${current}$`, 'm'));
  assert.match(update.stdout, /^Downloaded gp-agent-linux-x64 \(\d+\.\d MB\); its SHA-256 matches the signed SHA256SUMS$/m);
  assert.match(
    update.stdout,
    new RegExp(`^Installed: ${self} is now ${newer.version}; the previous program is kept as ${self}\\.previous$`, 'm'),
  );
  assert.match(update.stdout, /^Not restarted \(--no-restart\)/m);
  assert.deepEqual(selfFolder(), { 'gp-agent': sha256(newer.bytes), 'gp-agent.previous': sha256(fs.readFileSync(LINUX)) });
  assert.equal(fs.statSync(self).mode & 0o777, 0o755);
  const swapped = run(self, ['--version']);
  assert.equal(swapped.status, 0, swapped.stderr);
  assert.match(swapped.stdout, new RegExp(`^${newer.version.replaceAll('.', '\\.')} \\(commit `));
  assert.ok(run(`${self}.previous`, ['--version']).stdout.startsWith(`${current} (commit `), 'the previous program is the old version');
});

test('a second build of the same commit gives the same bytes (nothing of the build folder or the time goes in)', async () => {
  const again = await secondBuild;
  assert.equal(again.status, 0, `the second build failed:\n${again.output}`);
  // All but the MSI: wixl stamps each MSI with a new package code and the time (MSI wants a new code
  // for every package; docs/decisions.md, "Signed and verifiable").
  const sums = (dir: string) => fs.readFileSync(path.join(dir, 'SHA256SUMS'), 'utf8').replace(/^.*\.msi\n/m, '');
  assert.equal(sums(again.dir), sums(DIST));
});
