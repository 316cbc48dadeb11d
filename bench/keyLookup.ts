import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { AdminService, openStore, sha256Hex } from '@gp-gateway/gateway';

/**
 * `node --import tsx bench/keyLookup.ts`: what the key lookup costs since a rotated key's previous
 * secret is found by it too (docs/decisions.md#rotation-with-an-overlap), on the embedded SQLite
 * store holding KEYS keys (KEY_BENCH_COUNT, default 10,000), half of them rotated with an overlap.
 * Prints microseconds per lookup: remembered (the store's key memory, what nearly every request
 * does), read from the database by the current and by the previous secret, and the bare SQL of the
 * lookup before and after it also matched the previous secret.
 */
const KEYS = Number(process.env.KEY_BENCH_COUNT ?? 10_000);
const ROUNDS = 20_000;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'key-bench-'));
try {
  const store = await openStore({ dataDir: dir, databaseUrl: null });
  const admin = new AdminService(store);
  const org = await admin.createOrganisation('Key bench');
  const current: string[] = [];
  const previous: string[] = [];
  for (let i = 0; i < KEYS; i++) {
    const { key, secret } = await admin.issueApiKey({ orgId: org.id, name: `k${i}`, mode: 'live', scopes: ['read'] });
    if (i % 2) {
      previous.push(sha256Hex(secret));
      current.push(sha256Hex((await admin.rotateApiKey(org.id, key.id, { liveAllowed: true, keepOldFor: '24h' }))!.secret));
    } else current.push(sha256Hex(secret));
  }

  const timed = async (what: string, lookup: (i: number) => unknown) => {
    for (let i = 0; i < 2_000; i++) await lookup(i);
    const start = process.hrtime.bigint();
    for (let i = 0; i < ROUNDS; i++) await lookup(i);
    const us = Number(process.hrtime.bigint() - start) / 1_000 / ROUNDS;
    console.log(`${what.padEnd(58)} ${us.toFixed(2)} us`);
  };
  const at = (list: string[], i: number) => list[i % list.length]!;
  await timed('remembered (key memory), current secret', (i) => store.findApiKeyWithConnection(at(current, i % 100), 'sandbox'));
  // A connection id never asked before misses the memory: each lookup reads the database.
  await timed('read from the database, current secret', (i) => store.findApiKeyWithConnection(at(current, i), `c${i}`));
  await timed('read from the database, previous secret', (i) => store.findApiKeyWithConnection(at(previous, i), `p${i}`));
  await store.close();

  const db = new Database(path.join(dir, 'gateway.sqlite'), { readonly: true });
  const select = `SELECT k.*, c.id AS c_id, c.name AS c_name FROM api_keys k LEFT JOIN connections c ON c.org_id = k.org_id AND c.id = ?`;
  const before = db.prepare(`${select} WHERE k.secret_hash = ?`);
  const after = db.prepare(`${select} WHERE (k.secret_hash = ? OR k.previous_secret_hash = ?)`);
  // Alternated, three times each: on a shared machine one run of either may be slowed by others.
  for (let round = 1; round <= 3; round++) {
    await timed(`SQL before: secret_hash = ? (run ${round})`, (i) => before.get('sandbox', at(current, i)));
    await timed(`SQL now: ... OR previous_secret_hash = ? (run ${round})`, (i) => after.get('sandbox', at(current, i), at(current, i)));
  }
  db.close();
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
