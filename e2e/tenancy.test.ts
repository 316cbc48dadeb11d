import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { ErrorBodySchema } from '@gp-gateway/protocol';
import { demoDatabasePaths, generateDemo } from '@gp-gateway/gp-demo';
import { newApiKeySecret, openLocalAdmin, SCOPES, sha256Hex, type Scope } from '@gp-gateway/gateway';
import { catalogueRoutes, sampleDataset, type DatasetSample } from './support/catalogueRoutes.ts';
import { runGatewayCli, startAgentProcess, startGatewayProcess, waitFor, type Started } from './support/processes.ts';

/**
 * Tenancy, keys and limits over real processes: a gateway, one agent per organisation over its own
 * GP data, the operator CLI as an operator runs it, and a hostile client trying every cross-tenant
 * path. The last test stops everything and searches the store and every log for the secrets issued.
 */
type OrgLabel = 'A' | 'B';
type Dataset = OrgLabel | 'sandbox';
interface Org {
  id: string;
  name: string;
  connectionId: string;
  site: string;
  /** Live key with every scope, and a test key, both made with the CLI. */
  liveKey: string;
  testKey: string;
}

let dataDir: string;
let sitesDir: string;
let gateway: Started & { url: string; testKey: string };
const agents: Started[] = [];
const orgs = {} as Record<OrgLabel, Org>;
const other = (label: OrgLabel): OrgLabel => (label === 'A' ? 'B' : 'A');
/** Every secret handed out during the run (CLI, rotation), for the final scan. */
const issued = new Set<string>();
const cliErrors: string[] = [];
const VERBOSE = { LOG_LEVEL: 'debug' };

before(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-tenancy-'));
  sitesDir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-sites-'));
  // Each organisation's site has its own data (another seed) and company names that say whose they
  // are, so data from the wrong connection cannot pass for the right one.
  for (const [label, seed, prefix] of [
    ['A', 101, 'Acme'],
    ['B', 202, 'Globex'],
  ] as const) {
    const site = path.join(sitesDir, label);
    generateDemo({ dir: site, scale: 1, seed });
    const db = new Database(demoDatabasePaths(site).systemDatabase);
    db.prepare("UPDATE SY01500 SET CMPNYNAM = ? || ' ' || rtrim(CMPNYNAM)").run(prefix);
    db.close();
    orgs[label] = { site } as Org;
  }
  gateway = await startGatewayProcess(dataDir, VERBOSE);
});

after(async () => {
  for (const agent of agents) await agent.stop('SIGKILL');
  await gateway?.stop('SIGKILL');
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(sitesDir, { recursive: true, force: true });
});

/** One operator command as a real process; its stdout is where secrets are shown, once. */
async function operator(...args: string[]): Promise<string> {
  const run = await runGatewayCli(args, { DATA_DIR: dataDir });
  cliErrors.push(run.stderr);
  assert.equal(run.code, 0, `gp-gateway ${args.join(' ')} failed:\n${run.stderr}`);
  return run.stdout;
}

/** The secret a command printed alone on its line, printed exactly once. */
function secretIn(output: string, kind: 'lb_live' | 'lb_test' | 'lb_agent'): string {
  const secret = new RegExp(`^(${kind}_[0-9A-Za-z]{32})$`, 'm').exec(output)?.[1];
  assert.ok(secret, `no ${kind} secret in:\n${output}`);
  assert.equal(output.split(secret).length, 2, 'the secret is printed once');
  issued.add(secret);
  return secret;
}

async function api(method: string, pathAndQuery: string, secret: string | null, headers: Record<string, string> = {}) {
  const res = await fetch(`${gateway.url}${pathAndQuery}`, {
    method,
    headers: { ...(secret ? { authorization: `Bearer ${secret}` } : {}), ...headers },
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}
const get = (pathAndQuery: string, secret: string | null, headers: Record<string, string> = {}) =>
  api('GET', pathAndQuery, secret, headers);
const connection = (id: string) => ({ 'x-connection-id': id });
const withoutRequestId = (body: any) => (body?.error ? { error: { ...body.error, requestId: '…' } } : body);

test('the operator CLI sets up two organisations beside a running gateway', async (t) => {
  const mark = phases(t);
  const [createdA, createdB] = await Promise.all([operator('org', 'create', 'Acme Ltd'), operator('org', 'create', 'Globex')]);
  orgs.A.id = /\((org_[\w-]+)\)/.exec(createdA)![1]!;
  orgs.B.id = /\((org_[\w-]+)\)/.exec(createdB)![1]!;
  orgs.A.name = 'Acme Ltd';
  orgs.B.name = 'Globex';
  mark('organisations');

  // Both organisations get room for the isolation matrix below; Globex also a smaller in-flight cap.
  const [, , connA, connB, liveA, testA, liveB, testB] = await Promise.all([
    operator('org', 'set-limits', 'Acme Ltd', '--requests', '1000'),
    operator('org', 'set-limits', orgs.B.id, '--requests', '1000', '--in-flight', '4'),
    operator('connection', 'create', '--org', 'Acme Ltd', '--name', 'Head office', '--default-company', 'TWO'),
    operator('connection', 'create', '--org', orgs.B.id, '--name', 'Plant', '--default-company', 'nwind'),
    operator('key', 'create', '--org', 'Acme Ltd', '--name', 'Ops', '--mode', 'live', '--scopes', 'read,write,mcp'),
    operator('key', 'create', '--org', 'Acme Ltd', '--name', 'Dev', '--mode', 'test', '--scopes', 'read,write'),
    operator('key', 'create', '--org', 'Globex', '--name', 'Ops', '--mode', 'live', '--scopes', 'read,write,mcp'),
    operator('key', 'create', '--org', 'Globex', '--name', 'Dev', '--mode', 'test', '--scopes', 'read,write'),
  ]);
  for (const [label, conn, live, testKey] of [
    ['A', connA, liveA, testA],
    ['B', connB, liveB, testB],
  ] as const) {
    orgs[label].connectionId = /Created connection (conn_[\w-]+)/.exec(conn)![1]!;
    orgs[label].liveKey = secretIn(live, 'lb_live');
    orgs[label].testKey = secretIn(testKey, 'lb_test');
    agents.push(startAgentProcess(gateway.url, secretIn(conn, 'lb_agent'), orgs[label].site, VERBOSE));
  }
  mark('limits, connections, keys');
  await Promise.all([
    operator('connection', 'set-write-whitelist', 'Head office', 'customers,sales-orders', '--org', 'Acme Ltd'),
    ...(['A', 'B'] as const).map((label) => {
      const { connectionId, liveKey } = orgs[label];
      return waitFor(
        `the agent of ${label}`,
        async () => ((await get('/v1/companies', liveKey, connection(connectionId))).status === 200 ? true : null),
        20_000,
      );
    }),
  ]);
  mark('whitelist set, agents connected');
  const [listA, keysA] = await Promise.all([
    operator('connection', 'list', '--org', 'Acme Ltd'),
    operator('key', 'list', '--org', orgs.A.id),
  ]);
  mark('lists');
  // Lines under a row ("    - host: agent …") detail each connected agent; the table rows are checked here.
  const rowsA = listA
    .trim()
    .split('\n')
    .slice(2)
    .filter((l) => !l.startsWith('    - '))
    .map((l) => l.split(/ {2,}/));
  assert.equal(
    listA
      .split('\n')
      .filter((l) => l.startsWith(`    - ${os.hostname()}: agent 0.1.0 (${process.platform}, sqlite), demo database, database ok`)).length,
    2,
  );
  assert.deepEqual(rowsA, [
    [
      'sandbox',
      'Demo sandbox',
      'TWO',
      'none (read-only)',
      `built-in demo agent, connected (1 agent; agent 0.1.0 on ${os.hostname()}, companies TWO, NWIND)`,
    ],
    [
      orgs.A.connectionId,
      'Head office',
      'TWO',
      'customers,sales-orders',
      `connected (1 agent; agent 0.1.0 on ${os.hostname()}, companies TWO, NWIND)`,
    ],
  ]);
  assert.deepEqual(
    keysA
      .trim()
      .split('\n')
      .slice(2)
      .map((l) => l.split(/ {2,}/).slice(1, 5))
      .sort(),
    [
      ['Dev', 'test', 'read,write', orgs.A.testKey.slice(0, 12)],
      ['Ops', 'live', 'read,write,mcp', orgs.A.liveKey.slice(0, 12)],
    ],
  );

  // What the CLI set is what the running gateway does: limits, default companies, data per connection.
  const acme = await get('/v1/companies', orgs.A.liveKey, connection(orgs.A.connectionId));
  const globex = await get('/v1/customers?limit=1', orgs.B.liveKey, connection(orgs.B.connectionId));
  assert.deepEqual(
    acme.body.data.map((c: any) => c.name),
    ['Acme Fabrikam, Inc.', 'Acme Northwind Traders'],
  );
  assert.equal(acme.headers.get('ratelimit-policy'), '"default";q=1000;w=10');
  const nwind = new Database(demoDatabasePaths(orgs.B.site).companyDatabases.NWIND!, { readonly: true });
  assert.equal(globex.body.data[0].id, nwind.prepare('SELECT rtrim(CUSTNMBR) FROM RM00101 ORDER BY CUSTNMBR LIMIT 1').pluck().get());
  nwind.close();
});

const SCOPE_SETS: Scope[][] = [1, 2, 3, 4, 5, 6, 7].map((bits) => SCOPES.filter((_, i) => bits & (1 << i)));
const TARGETS = ['own', 'other', 'sandbox', 'none'] as const;
type Target = (typeof TARGETS)[number];

test('isolation matrix: both organisations × both modes × every scope set × own, other, sandbox and no connection × every route', async (t) => {
  const { admin, close } = await openLocalAdmin(dataDir);
  // The matrix keys are made by the admin service the CLI calls, in this process (spawning 28 CLIs
  // would take most of the time budget), on the same store the gateway is serving from.
  const keys: { org: OrgLabel; mode: 'live' | 'test'; scopes: Scope[]; secret: string; id: string }[] = [];
  const victims = {} as Record<
    `${OrgLabel}-${'live' | 'test'}`,
    { id: string; name: string; scopes: Scope[]; createdAt: string; secret: string }
  >;
  for (const org of ['A', 'B'] as const) {
    for (const mode of ['live', 'test'] as const) {
      for (const scopes of SCOPE_SETS) {
        const { key, secret } = await admin.issueApiKey({ orgId: orgs[org].id, name: `matrix ${mode} ${scopes.join('+')}`, mode, scopes });
        issued.add(secret);
        keys.push({ org, mode, scopes, secret, id: key.id });
      }
      const { key: victim, secret } = await admin.issueApiKey({ orgId: orgs[org].id, name: `victim ${mode}`, mode, scopes: ['read'] });
      issued.add(secret);
      victims[`${org}-${mode}`] = { id: victim.id, name: victim.name, scopes: victim.scopes, createdAt: victim.createdAt, secret };
    }
  }
  await close();

  // What each dataset answers to its own organisation: the only answers a 200 may ever carry.
  const reach: Record<Dataset, (p: string) => ReturnType<typeof get>> = {
    A: (p) => get(p, orgs.A.liveKey, connection(orgs.A.connectionId)),
    B: (p) => get(p, orgs.B.liveKey, connection(orgs.B.connectionId)),
    sandbox: (p) => get(p, orgs.A.testKey),
  };
  const routes = catalogueRoutes();
  const normal = (res: { status: number; body: any }) => ({
    status: res.status,
    body: res.body?.nextCursor ? { ...res.body, nextCursor: 'a cursor' } : withoutRequestId(res.body),
  });
  const samples = {} as Record<Dataset, DatasetSample>;
  const expected = {} as Record<Dataset, Map<string, ReturnType<typeof normal>>>;
  for (const dataset of ['A', 'B', 'sandbox'] as const) {
    samples[dataset] = await sampleDataset(reach[dataset]);
    expected[dataset] = new Map();
    // Four at a time: Globex takes at most 4 in flight and 32 waiting; beyond that is a 429.
    await pool(routes, 4, async (r) => void expected[dataset].set(r.name, normal(await reach[dataset](r.path(samples[dataset])))));
    for (const [name, answer] of expected[dataset]) assert.notEqual(answer.status, 429, `${dataset}: ${name}`);
  }
  const names = (d: Dataset) => expected[d].get('list companies')!.body.data.map((c: any) => c.name);
  assert.deepEqual(
    [names('A'), names('B'), names('sandbox')],
    [
      ['Acme Fabrikam, Inc.', 'Acme Northwind Traders'],
      ['Globex Fabrikam, Inc.', 'Globex Northwind Traders'],
      ['Fabrikam, Inc.', 'Northwind Traders'],
    ],
  );
  const distinct = routes.filter(
    (r) => new Set(['A', 'B', 'sandbox'].map((d) => JSON.stringify(expected[d as Dataset].get(r.name)))).size === 3,
  );
  assert.ok(
    distinct.some((r) => r.name === 'list customers'),
    'customers tell the datasets apart',
  );

  const datasetOf = (org: OrgLabel, target: Target): Dataset => (target === 'own' ? org : target === 'other' ? other(org) : 'sandbox');
  const headersOf = (org: OrgLabel, target: Target): Record<string, string> =>
    ({
      own: connection(orgs[org].connectionId),
      other: connection(orgs[other(org)].connectionId),
      sandbox: connection('sandbox'),
      none: {},
    })[target];
  const reaches = (mode: 'live' | 'test', target: Target) =>
    mode === 'test' ? target === 'sandbox' || target === 'none' : target === 'own';

  // One request per cell, eight at a time.
  type Cell = { key: (typeof keys)[number]; target: Target; route: (typeof routes)[number] };
  const cells: Cell[] = keys.flatMap((key) => TARGETS.flatMap((target) => routes.map((route) => ({ key, target, route }))));
  const answers = new Map<Cell, ReturnType<typeof normal>>();
  const started = performance.now();
  await pool(cells, 8, async (cell) => {
    const { key, target, route } = cell;
    answers.set(cell, normal(await get(route.path(samples[datasetOf(key.org, target)]), key.secret, headersOf(key.org, target))));
  });
  // What each key is told about a connection that exists nowhere: refusals must not differ from it.
  const unknownConnection = new Map<(typeof keys)[number], string>();
  await pool(keys, 8, async (key) => {
    const answer = normal(await get(routes[0]!.path(samples.sandbox), key.secret, connection('conn_unknown00000000')));
    unknownConnection.set(key, JSON.stringify(answer));
  });
  const failures: string[] = [];
  const refusalOf = new Map<string, string>();
  for (const cell of cells) {
    const { key, target, route } = cell;
    const answer = answers.get(cell)!;
    const where = `${key.org} ${key.mode} [${key.scopes}] → ${target}: ${route.name}`;
    if (answer.status !== 200 && !ErrorBodySchema.safeParse(answer.body).success) failures.push(`${where}: not an error envelope`);
    if (!key.scopes.includes('read')) {
      if (answer.status !== 403 || answer.body.error.code !== 'FORBIDDEN') failures.push(`${where}: ${answer.status}, expected 403`);
    } else if (reaches(key.mode, target)) {
      const own = expected[datasetOf(key.org, target)].get(route.name);
      if (JSON.stringify(answer) !== JSON.stringify(own)) {
        failures.push(
          `${where}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 160)} is not what the organisation's own dataset answers`,
        );
      }
    } else if (key.mode === 'live' && target === 'none') {
      if (answer.status !== 400 || answer.body.error.details.issues[0].path !== 'X-Connection-Id')
        failures.push(`${where}: ${answer.status}`);
    } else {
      // Foreign, sandbox-for-live, live-for-test: the very answer an unknown connection gets.
      if (JSON.stringify(answer) !== unknownConnection.get(key))
        failures.push(`${where}: differs from the answer for an unknown connection`);
      if (answer.status !== 400 || answer.body.error.details.issues[0].path !== 'X-Connection-Id')
        failures.push(`${where}: ${answer.status}, expected 400`);
      refusalOf.set(answer.body.error?.message, where);
    }
  }
  assert.deepEqual(failures.slice(0, 20), [], `${failures.length} of ${cells.length} cells wrong`);
  assert.deepEqual([...refusalOf.keys()], ['Invalid request: X-Connection-Id: no such connection']);

  // The rotate route: write scope, own organisation, and never a live secret for a test key.
  const rotations = keys.flatMap((key) =>
    (['own-live', 'own-test', 'other-live', 'other-test', 'unknown'] as const).map((target) => ({ key, target })),
  );
  const notFound = new Set<string>();
  await pool(rotations, 8, async ({ key, target }) => {
    const victim =
      target === 'unknown'
        ? null
        : victims[`${target.startsWith('own') ? key.org : other(key.org)}-${target.endsWith('live') ? 'live' : 'test'}`];
    const res = await api('POST', `/v1/api-keys/${victim?.id ?? 'key_unknown00000000'}/rotate`, key.secret);
    const where = `${key.org} ${key.mode} [${key.scopes}] rotates ${target}`;
    if (!key.scopes.includes('write')) {
      if (res.status !== 403) failures.push(`${where}: ${res.status}, expected 403`);
    } else if (!victim || target.startsWith('other') || (key.mode === 'test' && target === 'own-live')) {
      if (res.status !== 404) failures.push(`${where}: ${res.status}, expected 404`);
      notFound.add(JSON.stringify(withoutRequestId(res.body)));
    } else {
      const mode = target.endsWith('live') ? 'live' : 'test';
      issued.add(res.body.secret);
      const { secret, key: shown } = res.body;
      const want = {
        id: victim.id,
        name: victim.name,
        prefix: String(secret).slice(0, 12),
        mode,
        scopes: victim.scopes,
        revokedAt: null,
        createdAt: victim.createdAt,
      };
      if (
        res.status !== 200 ||
        JSON.stringify(shown) !== JSON.stringify(want) ||
        !new RegExp(`^lb_${mode}_[0-9A-Za-z]{32}$`).test(secret)
      ) {
        failures.push(`${where}: ${res.status} ${JSON.stringify(res.body)}`);
      }
    }
  });
  assert.deepEqual(failures.slice(0, 20), [], `${failures.length} rotation cells wrong`);
  assert.equal(notFound.size, 1, 'unknown, foreign and live-for-test keys get one and the same 404');
  for (const victim of Object.values(victims)) assert.equal((await get('/v1/companies', victim.secret)).status, 401, 'rotated away');
  t.diagnostic(
    `${cells.length} GET cells (${routes.length} routes, ${distinct.length} of them with different data in each dataset) ` +
      `and ${rotations.length} rotate cells in ${Math.round(performance.now() - started)} ms`,
  );
});

test("a cursor of one organisation opens no other organisation's list", async () => {
  const first = await get('/v1/customers?limit=2', orgs.A.liveKey, connection(orgs.A.connectionId));
  const cursor = encodeURIComponent(first.body.nextCursor);
  const elsewhere = [
    await get(`/v1/customers?limit=2&cursor=${cursor}`, orgs.B.liveKey, connection(orgs.B.connectionId)),
    await get(`/v1/customers?limit=2&cursor=${cursor}`, orgs.A.testKey),
    await get(`/v1/customers?limit=2&cursor=${cursor}`, orgs.B.testKey),
  ];
  for (const res of elsewhere) assert.deepEqual([res.status, res.body.error.details.issues[0].path], [400, 'cursor']);
  assert.equal((await get(`/v1/customers?limit=2&cursor=${cursor}`, orgs.A.liveKey, connection(orgs.A.connectionId))).status, 200);
});

test('a key revoked with the CLI is refused at once, like an unknown key; the 401 carries no quota headers', async () => {
  const secret = orgs.B.testKey;
  const id = (await findKey(orgs.B.id, secret)).id;
  assert.equal((await get('/v1/customers?limit=1', secret)).status, 200);
  assert.match(await operator('key', 'revoke', id), /^Revoked test key /);
  const revoked = await get('/v1/customers?limit=1', secret);
  const unknown = await get('/v1/customers?limit=1', newApiKeySecret('test'));
  assert.equal(revoked.status, 401);
  assert.deepEqual(withoutRequestId(revoked.body), withoutRequestId(unknown.body));
  assert.deepEqual(
    [...revoked.headers.keys()].filter((h) => /ratelimit|retry-after/i.test(h)),
    [],
  );
});

test('no secret issued during the run is in the store, its WAL or any log', async (t) => {
  // The store as the running gateway has it (with its write-ahead log), and as it leaves it.
  const read = (file: string) => ({ file, bytes: fs.readFileSync(file) });
  const running = filesUnder(dataDir).map(read);
  assert.ok(
    running.some(({ file }) => file.endsWith('gateway.sqlite-wal')),
    'the WAL is searched too',
  );
  for (const agent of agents) assert.equal(await agent.stop('SIGTERM'), 0);
  assert.equal(await gateway.stop('SIGTERM'), 0);
  const stored = [...running, ...filesUnder(dataDir).map(read)];
  assert.ok(stored.some(({ file }) => file.endsWith('gateway.sqlite')));
  // `start` shows its quick-start key on its own line and in the curl example; nowhere else may it appear.
  const gatewayLog = gateway.output().replace(`\n${gateway.testKey}\n`, '\n').replace(`Bearer ${gateway.testKey}`, 'Bearer …');
  const logs = [
    { file: 'gateway output', bytes: Buffer.from(gatewayLog) },
    ...agents.map((a, i) => ({ file: `agent ${i} output`, bytes: Buffer.from(a.output()) })),
    { file: 'CLI errors', bytes: Buffer.from(cliErrors.join('')) },
  ];
  assert.match(gatewayLog, /"msg":"request"/, 'the gateway logged the requests');
  const secrets = [...issued, gateway.testKey];
  const found = [...stored, ...logs].flatMap(({ file, bytes }) =>
    secrets.filter((s) => bytes.includes(s)).map((s) => `${s.slice(0, 12)}… in ${file}`),
  );
  assert.deepEqual(found, []);
  // The search looks at real contents: the hash of a key in use is there.
  assert.ok(
    stored.some(({ bytes }) => bytes.includes(sha256Hex(orgs.A.liveKey))),
    'the store holds key hashes',
  );
  assert.ok(secrets.length > 60, `${secrets.length} secrets searched for`);
  t.diagnostic(
    `${secrets.length} secrets searched for in ${stored.length} store files (${stored.reduce((n, f) => n + f.bytes.length, 0)} bytes) and ${logs.length} logs`,
  );
});

/** Reports how long each phase of a test took. */
function phases(t: { diagnostic(message: string): void }) {
  let last = performance.now();
  return (what: string) => {
    const now = performance.now();
    t.diagnostic(`${what}: ${Math.round(now - last)} ms`);
    last = now;
  };
}

/** A key of the organisation in the running gateway's store, found by the hash of its secret. */
async function findKey(orgId: string, secret: string) {
  const { admin, close } = await openLocalAdmin(dataDir);
  try {
    const key = (await admin.listApiKeys(orgId)).find((k) => k.secretHash === sha256Hex(secret));
    assert.ok(key, 'the key is in its organisation');
    return key;
  } finally {
    await close();
  }
}

function filesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? filesUnder(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

/** Runs `work` over `items`, at most `width` at a time. */
async function pool<T>(items: T[], width: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}
