import { after, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { runGatewayCli, startGatewayProcess, type Started } from './support/processes.ts';
import { describeReadContract } from './support/readContract.ts';

/** The read contract against a real gateway process and its built-in sandbox agent (SQLite). */
let dataDir: string;
let gateway: Started & { url: string; testKey: string };
const db: Record<string, Database.Database> = {};
let writer: Database.Database;

before(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-read-'));
  // A conformance run makes hundreds of requests; give the demo organisation room for them.
  for (const args of [
    ['org', 'create', 'Demo organisation'],
    ['org', 'set-limits', 'Demo organisation', '--requests', '100000', '--window', '10'],
  ]) {
    const run = await runGatewayCli(args, { DATA_DIR: dataDir });
    assert.equal(run.code, 0, run.stderr);
  }
  gateway = await startGatewayProcess(dataDir);
  for (const name of ['DYNAMICS', 'TWO']) db[name] = new Database(path.join(dataDir, 'demo', `${name}.sqlite`), { readonly: true });
  writer = new Database(path.join(dataDir, 'demo', 'TWO.sqlite'));
});
after(async () => {
  for (const d of Object.values(db)) d.close();
  writer?.close();
  await gateway?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describeReadContract(() => ({
  url: gateway.url,
  headers: { authorization: `Bearer ${gateway.testKey}` },
  database: (name) => db[name]!,
  writable: () => writer,
}));
