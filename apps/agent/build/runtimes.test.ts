import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as tar from 'tar';
import { extractRuntime, fetchRuntimeTarball, integrityOf, RUNTIMES, type Runtime } from './runtimes.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** A tarball shaped like the runtime packages (package/bin/node), in a cache folder of its own. */
async function fakeRuntime(): Promise<{ cache: string; runtime: Runtime; tarball: string }> {
  const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'runtime-cache-'));
  const source = path.join(cache, 'src');
  fs.mkdirSync(path.join(source, 'package/bin'), { recursive: true });
  fs.writeFileSync(path.join(source, 'package/bin/node'), '#!/bin/sh\necho fake\n');
  fs.writeFileSync(path.join(source, 'package/README.md'), 'not extracted\n');
  const tarball = path.join(cache, 'node-fake-1.0.0.tgz');
  await tar.c({ gzip: true, file: tarball, cwd: source }, ['package']);
  const runtime = { pkg: 'node-fake', version: '1.0.0', integrity: integrityOf(tarball), file: 'package/bin/node' };
  return { cache, runtime, tarball };
}

test('a cached tarball matching its pin is used as it is, and only the runtime is extracted, executable', async () => {
  const { cache, runtime, tarball } = await fakeRuntime();
  assert.equal(fetchRuntimeTarball(runtime, cache), tarball);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'runtime-work-'));
  const executable = await extractRuntime(runtime, tarball, work);
  assert.equal(fs.readFileSync(executable, 'utf8'), '#!/bin/sh\necho fake\n');
  assert.ok(fs.statSync(executable).mode & 0o100, 'the runtime can be executed');
  assert.ok(!fs.existsSync(path.join(work, 'node-fake/package/README.md')), 'nothing else of the package is written');
});

test('a cached tarball that is not the pinned one fails the build and is deleted, so the next build fetches it afresh', async () => {
  const { cache, runtime, tarball } = await fakeRuntime();
  fs.appendFileSync(tarball, 'tampered');
  assert.throws(
    () => fetchRuntimeTarball(runtime, cache),
    (error: Error) => {
      assert.match(error.message, /is not the pinned node-fake@1\.0\.0: its SHA-512 is sha512-/);
      assert.ok(error.message.includes(runtime.integrity), 'the message names the pin');
      return true;
    },
  );
  assert.ok(!fs.existsSync(tarball));
});

test('the pins are SHA-512 integrity values of one Node version for both platforms', () => {
  const runtimes = Object.values(RUNTIMES);
  assert.equal(new Set(runtimes.map((r) => r.version)).size, 1);
  for (const r of runtimes) assert.match(r.integrity, /^sha512-[A-Za-z0-9+/]{86}==$/);
});

test('no installed package puts a `node` program on the PATH of install scripts or of pnpm run', () => {
  // pnpm puts node_modules/.pnpm/node_modules/.bin first on every dependency's install-script PATH, and
  // each package's node_modules/.bin first on its scripts': a `node` there replaces the one installing.
  const workspaces = [
    '',
    'apps/agent',
    'apps/agent/build',
    'apps/gateway',
    'e2e',
    'bench',
    ...fs.readdirSync(path.join(ROOT, 'packages')).map((p) => `packages/${p}`),
  ];
  const binFolders = [
    path.join(ROOT, 'node_modules/.pnpm/node_modules/.bin'),
    ...workspaces.map((w) => path.join(ROOT, w, 'node_modules/.bin')),
  ];
  for (const folder of binFolders.filter((f) => fs.existsSync(f))) {
    const nodes = fs.readdirSync(folder).filter((name) => /^node(\.exe|\.cmd|\.ps1)?$/i.test(name));
    assert.deepEqual(nodes, [], `${path.relative(ROOT, folder)} holds ${nodes.join(', ')}`);
  }
});
