import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { provisionOrganisation } from '@gp-gateway/gateway/testing';
import { PROTOCOL_VERSION } from '@gp-gateway/protocol';
import { PUBLIC_KEY_PEM } from '../apps/agent/build/releaseSignature.ts';
import { systemdUnit } from '../apps/agent/src/cli/install/serviceFiles.ts';
import { buildRelease, standInProgram, throwawayReleaseKey } from './support/release.ts';
import { runAgentCli, startAgentProcess, startGatewayProcess, waitFor, type Started } from './support/processes.ts';

/**
 * `gp-agent update` end to end, with real processes: a gateway serving a release folder (made here
 * as `pnpm build:agent` makes one: programs, packages, SHA256SUMS signed with a throwaway release key,
 * manifest.json), and the agent's CLI updating a program file from 0.1.0 to 0.2.0. The programs are
 * stand-ins (shell scripts that answer --version as the real one does): what is under test is the
 * fetch, the verification, the swap and the rollback, not the single-file build, which
 * agentProgram.test.ts covers. Also: the downloads refuse every path outside the release, the
 * welcome names the release's version as the latest, and diagnose says the agent is behind it.
 */
const NEW_VERSION = '0.2.0';
const program = standInProgram;

let tmp: string;
let releaseDir: string;
let gateway: Started & { url: string };
let token: string;
let keyFile: string;
let otherKeyFile: string;
/** The agent's installed program, which update replaces. */
let installed: string;

/** A GET with the path exactly as given (no client-side normalisation of `..`). */
function rawGet(pathname: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  const url = new URL(gateway.url);
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port: url.port, path: pathname }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on('error', reject);
  });
}

const update = (args: string[]) =>
  runAgentCli(['update', '--gateway', gateway.url, '--program', installed, '--release-key', keyFile, '--no-restart', ...args], {});

/** Everything in the program's folder, with contents: what a refused update must leave exactly as it was. */
const folderState = () =>
  Object.fromEntries(
    fs
      .readdirSync(path.dirname(installed))
      .sort()
      .map((name) => [name, fs.readFileSync(path.join(path.dirname(installed), name), 'utf8')]),
  );

before(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-update-'));
  const release = throwawayReleaseKey();
  keyFile = path.join(tmp, 'release.pub.pem');
  fs.writeFileSync(keyFile, release.publicPem);
  otherKeyFile = path.join(tmp, 'other.pub.pem');
  fs.writeFileSync(otherKeyFile, throwawayReleaseKey().publicPem);
  releaseDir = path.join(tmp, 'release');
  buildRelease(releaseDir, NEW_VERSION, release.privatePem);
  // Something in the folder that the release does not declare: never served.
  fs.writeFileSync(path.join(releaseDir, 'notes.txt'), 'private');
  const dataDir = path.join(tmp, 'gateway');
  const customer = await provisionOrganisation(dataDir, {
    organisation: 'Update Co',
    limits: { requestsPerWindow: 1000, windowSeconds: 10 },
    connections: ['HQ'],
  });
  token = customer.connections.HQ!.token;
  gateway = await startGatewayProcess(dataDir, { RELEASE_DIR: releaseDir });
  installed = path.join(tmp, 'opt', 'gp-agent');
  fs.mkdirSync(path.dirname(installed));
  fs.writeFileSync(installed, program('0.1.0'), { mode: 0o755 });
});

after(async () => {
  await gateway?.stop();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

test('the release folder is served read-only at /downloads with content types; the manifest names the version', async () => {
  const manifest = await rawGet('/downloads/manifest.json');
  assert.equal(manifest.status, 200);
  assert.match(String(manifest.headers['content-type']), /^application\/json/);
  assert.equal(JSON.parse(manifest.body.toString()).version, NEW_VERSION);
  const linux = await rawGet('/downloads/gp-agent-linux-x64');
  assert.equal(linux.status, 200);
  assert.equal(linux.headers['content-type'], 'application/octet-stream');
  assert.equal(linux.headers['content-disposition'], 'attachment; filename="gp-agent-linux-x64"');
  assert.equal(linux.headers['x-content-type-options'], 'nosniff');
  assert.equal(linux.body.toString(), program(NEW_VERSION));
  assert.equal((await rawGet('/downloads/gp-agent-win-x64.exe')).headers['content-type'], 'application/vnd.microsoft.portable-executable');
  assert.equal(
    (await rawGet(`/downloads/gp-agent_${NEW_VERSION}_amd64.deb`)).headers['content-type'],
    'application/vnd.debian.binary-package',
  );
  assert.equal((await rawGet('/downloads/SHA256SUMS')).headers['content-type'], 'text/plain; charset=utf-8');
  assert.equal((await rawGet(`/downloads/${PUBLIC_KEY_PEM}`)).status, 200);
});

test('no path outside the release is served: traversal in every spelling, and files the release does not declare, are 404 in the error envelope', async () => {
  for (const attempt of [
    '/downloads/../gateway/gateway.sqlite',
    '/downloads/..%2Fgateway%2Fgateway.sqlite',
    '/downloads/%2e%2e%2fgateway%2fgateway.sqlite',
    '/downloads/..%5Cgateway%5Cgateway.sqlite',
    '/downloads/%2Fetc%2Fpasswd',
    '/downloads/notes.txt',
    '/downloads/.',
    '/downloads/gp-agent-linux-x64%00.txt',
  ]) {
    const res = await rawGet(attempt);
    assert.equal(res.status, 404, attempt);
    assert.match(String(res.headers['content-type']), /^application\/json/, attempt);
    assert.equal(JSON.parse(res.body.toString()).error.code, 'NOT_FOUND', attempt);
    assert.ok(!res.body.toString().includes('private'), attempt);
  }
});

test("the welcome names the release's version as the latest, beside the minimum", async () => {
  const ws = new WebSocket(`${gateway.url.replace('http', 'ws').replace('localhost', '127.0.0.1')}/agent`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const welcome = await new Promise<{ agentVersions?: { minimum: string; latest: string | null } }>((resolve, reject) => {
    ws.once('error', reject);
    ws.once('open', () =>
      ws.send(
        JSON.stringify({
          v: PROTOCOL_VERSION,
          type: 'hello',
          agent: { version: '0.1.0', commit: 'e2e', node: process.versions.node, host: 'e2e', platform: 'linux', dialect: 'sqlite' },
          companies: [{ id: 'TWO', name: 'Fabrikam', number: 2 }],
        }),
      ),
    );
    ws.once('message', (data) => resolve(JSON.parse(data.toString())));
    ws.once('close', (code, reason) => reject(new Error(`closed before the welcome: ${code} ${reason.toString()}`)));
  });
  ws.close();
  assert.deepEqual(welcome.agentVersions, { minimum: '0.1.0', latest: NEW_VERSION });
});

test('diagnose says the agent is behind the latest release, and what to run', async () => {
  const run = await runAgentCli(['diagnose', '--gateway', gateway.url, '--token', token, '--sqlite-dir', tmp], {});
  assert.match(run.stdout, /^  WARN  Agent version +0\.1\.0 is behind the latest release, 0\.2\.0, which the gateway offers$/m, run.stdout);
  assert.match(run.stdout, /Fix: run `gp-agent update` as administrator/);
});

test("a running agent's own log says that a newer release is available, and what to run", async () => {
  // No database here: an agent whose database is unavailable still connects, and the welcome is what matters.
  const empty = fs.mkdtempSync(path.join(tmp, 'no-database-'));
  const agent = startAgentProcess(gateway.url, token, empty, { LOG_LEVEL: 'info' });
  try {
    const line = await waitFor(
      'the advice in the agent log',
      () =>
        agent
          .output()
          .split('\n')
          .find((l) => l.includes('a newer agent')) ?? null,
      20_000,
    ).catch((error: Error) => assert.fail(`${error.message}\n${agent.output()}`));
    const entry = JSON.parse(line) as { msg: string; latest: string };
    assert.equal(
      entry.msg,
      `a newer agent, ${NEW_VERSION}, is available (this one is 0.1.0): upgrade when convenient with \`gp-agent update\` (docs/operations.md, "Updating agents")`,
    );
    assert.equal(entry.latest, NEW_VERSION);
  } finally {
    await agent.stop();
  }
});

test('update --check says an update exists (exit 3) and changes nothing', async () => {
  const before = folderState();
  const run = await runAgentCli(['update', '--check', '--gateway', gateway.url], {});
  assert.equal(run.code, 3, run.stdout + run.stderr);
  assert.match(run.stdout, /An update is available: 0\.2\.0\. Run `gp-agent update` as administrator/);
  assert.deepEqual(folderState(), before);
});

test('a SHA256SUMS signed by another key, or changed after signing, is refused and the old program stays as it was', async () => {
  const before = folderState();
  const otherKey = await runAgentCli(
    ['update', '--gateway', gateway.url, '--program', installed, '--release-key', otherKeyFile, '--no-restart'],
    {},
  );
  assert.equal(otherKey.code, 1);
  assert.match(otherKey.stderr, /update refused: the signature of SHA256SUMS does not verify with the release key/);
  assert.deepEqual(folderState(), before);

  const sumsFile = path.join(releaseDir, 'SHA256SUMS');
  const sums = fs.readFileSync(sumsFile, 'utf8');
  // A tampered program listed with its own checksum: the signature no longer covers the sums.
  fs.writeFileSync(sumsFile, sums.replace(/^[0-9a-f]{64}(?=  gp-agent-linux-x64$)/m, '0'.repeat(64)));
  try {
    const run = await update([]);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /update refused: the signature of SHA256SUMS does not verify/);
    assert.deepEqual(folderState(), before);
  } finally {
    fs.writeFileSync(sumsFile, sums);
  }
});

test('a program whose bytes differ from the signed checksum is refused, deleted, and the old program stays', async () => {
  const before = folderState();
  const programFile = path.join(releaseDir, 'gp-agent-linux-x64');
  const genuine = fs.readFileSync(programFile);
  fs.writeFileSync(programFile, program(NEW_VERSION).replace('echo', 'echo tampered; echo'));
  try {
    const run = await update([]);
    assert.equal(run.code, 1);
    assert.match(
      run.stderr,
      /update refused: gp-agent-linux-x64 downloaded, but its SHA-256 is [0-9a-f]{64}, not [0-9a-f]{64} as the signed SHA256SUMS says/,
    );
    assert.deepEqual(folderState(), before, 'no download left behind, nothing replaced');
  } finally {
    fs.writeFileSync(programFile, genuine);
  }
});

test('update replaces the program with the verified release, keeps the previous one, and the new one runs', async () => {
  const run = await update([]);
  assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.match(run.stdout, /SHA256SUMS: signed with the release key \(verified\)/);
  assert.match(run.stdout, /Release offered: 0\.2\.0 \(commit e2e020\); this agent: 0\.1\.0/);
  assert.match(run.stdout, /its SHA-256 matches the signed SHA256SUMS/);
  assert.match(run.stdout, /Not restarted \(--no-restart\)/);
  assert.deepEqual(folderState(), { 'gp-agent': program(NEW_VERSION), 'gp-agent.previous': program('0.1.0') });
  assert.equal(fs.statSync(installed).mode & 0o777, 0o755, "the new program keeps the old one's permissions");
  // Run again, the program now says 0.2.0: nothing to do, nothing touched.
  const again = await update([]);
  assert.equal(again.code, 0, again.stdout + again.stderr);
  assert.match(
    again.stdout,
    /This agent: 0\.2\.0 at .*\nSHA256SUMS: signed[^\n]*\nRelease offered: 0\.2\.0 .*\nUp to date: nothing to install\./,
  );
  assert.deepEqual(folderState(), { 'gp-agent': program(NEW_VERSION), 'gp-agent.previous': program('0.1.0') });
});

/**
 * An installed agent of its own (0.1.0) beside a folder standing for `/` (GP_AGENT_TEST_SYSTEM_ROOT,
 * test-only): systemd's marker, the unit `gp-agent install` writes for the program, and a stand-in
 * systemctl that records each call with the version the program says at that moment, and refuses
 * the restart while the program says `refuseOn`.
 */
function installedWithService(name: string, options: { systemd: boolean; refuseOn?: string }) {
  const base = path.join(tmp, name);
  const agent = path.join(base, 'opt', 'gp-agent');
  fs.mkdirSync(path.dirname(agent), { recursive: true });
  fs.writeFileSync(agent, program('0.1.0'), { mode: 0o755 });
  const root = path.join(base, 'root');
  const unit = path.join(root, 'etc/systemd/system/gp-agent.service');
  fs.mkdirSync(path.dirname(unit), { recursive: true });
  fs.writeFileSync(
    unit,
    systemdUnit({ program: agent, installDir: path.dirname(agent), config: '/etc/gp-agent/gp-agent.conf', user: 'gp-agent' }),
  );
  if (options.systemd) fs.mkdirSync(path.join(root, 'run/systemd/system'), { recursive: true });
  const calls = path.join(base, 'systemctl.calls');
  const systemctl = path.join(root, 'usr/bin/systemctl');
  fs.mkdirSync(path.dirname(systemctl), { recursive: true });
  fs.writeFileSync(
    systemctl,
    `#!/bin/sh\nsays=$('${agent}' --version)\necho "$* (program: $says)" >> '${calls}'\n` +
      (options.refuseOn ? `case "$says" in ${options.refuseOn}*) echo "Job for gp-agent.service failed." >&2; exit 1;; esac\n` : '') +
      'exit 0\n',
    { mode: 0o755 },
  );
  return {
    agent,
    calls: () => (fs.existsSync(calls) ? fs.readFileSync(calls, 'utf8').trim().split('\n') : []),
    folder: () =>
      Object.fromEntries(
        fs
          .readdirSync(path.dirname(agent))
          .sort()
          .map((f) => [f, fs.readFileSync(path.join(path.dirname(agent), f), 'utf8')]),
      ),
    update: () =>
      runAgentCli(['update', '--gateway', gateway.url, '--program', agent, '--release-key', keyFile], { GP_AGENT_TEST_SYSTEM_ROOT: root }),
  };
}

test('update restarts the systemd service onto the new program with systemctl, found by absolute path', async () => {
  const site = installedWithService('service-restarted', { systemd: true });
  const run = await site.update();
  assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.match(run.stdout, /\(test-only\) GP_AGENT_TEST_SYSTEM_ROOT: the service is looked for under /);
  assert.match(run.stdout, /^Restarted the service: systemctl restart gp-agent$/m);
  assert.deepEqual(
    site.calls(),
    [`restart gp-agent (program: ${NEW_VERSION} (commit e2e020))`],
    'restarted once, with the new program in place',
  );
  assert.deepEqual(site.folder(), { 'gp-agent': program(NEW_VERSION), 'gp-agent.previous': program('0.1.0') });
});

test('a restart systemd refuses puts the previous program back, restarts the service on it, and says so', async () => {
  const site = installedWithService('service-refused', { systemd: true, refuseOn: NEW_VERSION });
  const run = await site.update();
  assert.equal(run.code, 1, run.stdout + run.stderr);
  assert.match(
    run.stderr,
    /^gp-agent: systemctl restart gp-agent failed \(exit 1: Job for gp-agent\.service failed\.\), so the update was rolled back: \S+ is the previous program again \(0\.1\.0\)\. The service was restarted on it \(systemctl restart gp-agent\)\.$/m,
  );
  assert.deepEqual(site.calls(), [
    `restart gp-agent (program: ${NEW_VERSION} (commit e2e020))`,
    'restart gp-agent (program: 0.1.0 (commit e2e010))',
  ]);
  assert.deepEqual(site.folder(), { 'gp-agent': program('0.1.0') }, 'the previous program is back under its name; nothing else is left');
});

test('without systemd, update installs the new program, restarts nothing, and says how to restart the agent', async () => {
  const site = installedWithService('no-systemd', { systemd: false });
  const run = await site.update();
  assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.match(
    run.stdout,
    /^Not restarted: this machine does not run systemd, so no service was restarted: stop the agent that runs now and start it again/m,
  );
  assert.deepEqual(site.calls(), []);
  assert.equal(site.folder()['gp-agent'], program(NEW_VERSION));
});
