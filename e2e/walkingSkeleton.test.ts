import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { CustomerSchema, GlEntrySchema, listEnvelopeSchema } from '@gp-gateway/protocol';
import { generateDemo } from '@gp-gateway/gp-demo';
import { newAgentToken } from '@gp-gateway/gateway';
import { provisionOrganisation } from '@gp-gateway/gateway/testing';
import { startAgentProcess, startGatewayProcess, waitFor, type Started } from './support/processes.ts';

/**
 * The whole system as it runs in the field: `gp-gateway start` and `gp-agent run` as separate
 * processes over a real WebSocket, a client over real HTTP, and the agent's GP database beside it.
 */
let dataDir: string;
let agentDir: string;
let gateway: Started & { url: string; testKey: string };
let agent: Started;
let liveKey: string;
let connectionId: string;
let agentToken: string;

before(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-gw-'));
  agentDir = path.join(dataDir, 'customer-site');
  generateDemo({ dir: agentDir, scale: 1, seed: 7 });
  const customer = await provisionOrganisation(dataDir, { organisation: 'Customer Co', limits: {}, connections: ['HQ'] });
  liveKey = customer.liveKey;
  ({ id: connectionId, token: agentToken } = customer.connections.HQ!);
  gateway = await startGatewayProcess(dataDir);
  agent = startAgentProcess(gateway.url, agentToken, agentDir);
  await waitFor('the agent to connect', async () => ((await list('customers', 'limit=1')).status === 200 ? true : null));
});

after(async () => {
  await agent?.stop('SIGKILL');
  await gateway?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function list(object: string, query: string) {
  const res = await fetch(`${gateway.url}/v1/${object}?${query}`, {
    headers: { authorization: `Bearer ${liveKey}`, 'x-connection-id': connectionId },
  });
  return { status: res.status, body: (await res.json()) as any };
}

/** Walks every page; `between` runs after each page, e.g. to insert rows mid-walk. */
async function walk(object: string, query: string, between: (page: number) => void = () => {}) {
  const rows: any[] = [];
  let cursor: string | null = null;
  let page = 0;
  do {
    const res = await list(object, `${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    rows.push(...res.body.data);
    cursor = res.body.nextCursor;
    between(++page);
  } while (cursor);
  return rows;
}

test('the demo gateway prints a working test key for the sandbox', async () => {
  const res = await fetch(`${gateway.url}/v1/customers?limit=2`, { headers: { authorization: `Bearer ${gateway.testKey}` } });
  const body = (await res.json()) as any;
  assert.equal(res.status, 200);
  assert.equal(listEnvelopeSchema(CustomerSchema).safeParse(body).success, true);
  assert.equal(body.data.length, 2);
});

test('walking customers returns every row once, including rows inserted mid-walk', async () => {
  const db = new Database(path.join(agentDir, 'TWO.sqlite'));
  const before = (db.prepare('SELECT rtrim(CUSTNMBR) AS id FROM RM00101').all() as { id: string }[]).map((r) => r.id);
  const insert = db.prepare("INSERT INTO RM00101 (CUSTNMBR, CUSTNAME) VALUES (?, 'Inserted mid-walk')");
  const inserted: string[] = [];
  const rows = await walk('customers', 'limit=50', (page) => {
    if (page === 2 || page === 5) {
      const id = `ZZMIDWALK${page}`;
      insert.run(id.padEnd(15));
      inserted.push(id);
    }
  });
  db.close();
  const ids = rows.map((r) => r.id);
  assert.equal(new Set(ids).size, ids.length, 'no customer twice');
  assert.deepEqual([...ids].sort(), [...before, ...inserted].sort(), 'nothing missing, inserted rows included');
  for (const row of rows) assert.equal(CustomerSchema.safeParse(row).success, true, JSON.stringify(row));
});

test('walking gl-entries matches GL20000 then GL30000 without year-end closing rows, with exact money', async () => {
  const db = new Database(path.join(agentDir, 'TWO.sqlite'));
  db.defaultSafeIntegers(true);
  const expected = db
    .prepare(
      `SELECT g.JRNENTRY, g.DEBITAMT, g.CRDTAMNT, rtrim(a.ACTNUMST) AS ACTNUMST FROM (
         SELECT 0 AS src, * FROM GL20000 UNION ALL SELECT 1 AS src, * FROM GL30000
       ) g LEFT JOIN GL00105 a ON a.ACTINDX = g.ACTINDX WHERE g.SOURCDOC NOT IN ('BBF        ', 'P/L        ') AND g.Ledger_ID = 1 ORDER BY g.src, g.DEX_ROW_ID`,
    )
    .all() as { JRNENTRY: bigint; DEBITAMT: bigint; CRDTAMNT: bigint; ACTNUMST: string }[];
  // Insert into history while the walk is still in the open year: the walk must pick it up.
  const insert = db.prepare(
    "INSERT INTO GL30000 (HSTYEAR, JRNENTRY, SOURCDOC, ACTINDX, DEBITAMT, TRXDATE, Ledger_ID) SELECT 2025, 999999, 'GJ', ACTINDX, 123456789, '2025-06-30 00:00:00.000', 1 FROM GL00105 LIMIT 1",
  );
  let insertedRows = 0;
  const rows = await walk('gl-entries', 'limit=1000', (page) => {
    if (page === 1) insertedRows = insert.run().changes;
  });
  db.close();
  assert.equal(insertedRows, 1);
  assert.equal(rows.length, expected.length + 1);
  const money = (scaled: bigint) => {
    const negative = scaled < 0n;
    const abs = negative ? -scaled : scaled;
    const fraction = (abs % 100000n)
      .toString()
      .padStart(5, '0')
      .replace(/0{1,3}$/, '');
    return `${negative ? '-' : ''}${abs / 100000n}.${fraction}`;
  };
  expected.forEach((e, i) => {
    const row = rows[i];
    assert.equal(GlEntrySchema.safeParse(row).success, true, JSON.stringify(row));
    assert.deepEqual(
      [row.journalEntryNumber, row.debit, row.credit, row.accountNumber],
      [Number(e.JRNENTRY), money(e.DEBITAMT), money(e.CRDTAMNT), e.ACTNUMST],
    );
  });
  assert.deepEqual([rows.at(-1).journalEntryNumber, rows.at(-1).debit], [999999, '1234.56789']);
});

test('an agent with a token the gateway does not know stops with a plain message', async () => {
  const stranger = startAgentProcess(gateway.url, newAgentToken(), agentDir);
  const code = await waitFor('the agent to give up', () => stranger.child.exitCode, 15_000);
  assert.equal(code, 2);
  assert.match(stranger.output(), /rejected the agent token/);
});

test('stopping the agent gives 503 CONNECTION_OFFLINE within a second', async () => {
  await agent.stop('SIGKILL');
  const stopped = Date.now();
  const res = await waitFor(
    '503 after the agent stopped',
    async () => {
      const r = await list('customers', 'limit=1');
      return r.status === 503 ? r : null;
    },
    5000,
  );
  const elapsed = Date.now() - stopped;
  assert.equal(res.body.error.code, 'CONNECTION_OFFLINE');
  assert.ok(elapsed < 1000, `took ${elapsed} ms`);
});
