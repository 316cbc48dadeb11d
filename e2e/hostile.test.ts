import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ErrorBodySchema, MAX_WRITE_AMOUNT, OBJECTS, WRITABLE_OBJECT_NAMES, type ObjectSpec } from '@gp-gateway/protocol';
import { provisionOrganisation } from '@gp-gateway/gateway/testing';
import { runGatewayCli, startAgentProcess, startGatewayProcess, waitFor, type Started } from './support/processes.ts';
import { rogueAgent, type RogueAgent } from './support/rogueAgent.ts';

/**
 * Hostile input against every route of a real gateway process: thousands of generated malformed
 * and adversarial requests (random and boundary values, SQL injection and unicode payloads, huge
 * and repeated parameters, tampered cursors, odd headers and bodies, wrong methods). Never a 5xx,
 * never a hang, always the error envelope for a refusal, and the demo database unchanged. Then
 * issue 32's cases against a live organisation too: the real agent writing on its embedded
 * database, a rogue agent answering as it likes, and a connection whose agent slots are taken.
 */
const REQUESTS = Number(process.env.HOSTILE_REQUESTS ?? 3000);
const CONCURRENCY = 8;
const TIMEOUT_MS = 10_000;

let dataDir: string;
let gateway: Started & { url: string; testKey: string };
let demoDigest: string;
/** The live organisation: a key with read, write and mcp, and its connections (HQ has the real agent, writes on). */
let live: { key: string; connections: Record<string, { id: string; token: string }> };
let site: string;
const agents: Started[] = [];
const rogues: RogueAgent[] = [];
const AGENT_ENV = { GP_AGENT_BACKOFF_MIN_MS: '50', GP_AGENT_BACKOFF_MAX_MS: '200', GP_SQLITE_WORKERS: '1', LOG_LEVEL: 'warn' };

/** Deterministic, so a failure can be replayed: mulberry32. */
function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = prng(20261122);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

const PAYLOADS = [
  "' OR '1'='1",
  "'; DROP TABLE RM00101; --",
  "1; WAITFOR DELAY '0:0:5' --",
  "admin'--",
  '" OR ""="',
  '%',
  '_',
  '[',
  ']',
  '\\',
  '%%%___',
  '\u0000',
  'a\u0000b',
  '\r\nX-Injected: 1',
  '../../etc/passwd',
  '${jndi:ldap://x}',
  '<script>alert(1)</script>',
  'ÄÖÜß€',
  '𝓤𝓷𝓲𝓬𝓸𝓭𝓮',
  '\u202e\u202d',
  '\u200b',
  '\u0085',
  'a\u00a0b',
  '١٢',
  '12 000',
  '1,5',
  ' 1.00',
  '99999999999999.99999',
  'toString',
  '__proto__',
  '\ud800',
  'ｆｕｌｌ',
  '',
  ' ',
  '   padded   ',
  'null',
  'undefined',
  'true',
  'false',
  '0',
  '-1',
  '1e309',
  'NaN',
  'Infinity',
  '2147483648',
  '-2147483649',
  '9007199254740993',
  '0x10',
  '1.5',
  '00001',
  '2026-02-30',
  '2026-13-01',
  '1899-12-31',
  '9999-12-31T23:59:59.999Z',
  '2026-03-01T25:00:00Z',
  '2026-03-01T14:05:09.123+14:00',
  'x'.repeat(64),
  'x'.repeat(65),
  'x'.repeat(1000),
  'x'.repeat(9000),
  'open',
  'history',
  'work',
  'invoice',
  'payment:',
  ':',
  '::',
  'a:b:c',
];

function value(): string {
  const r = random();
  if (r < 0.6) return pick(PAYLOADS);
  if (r < 0.8) return String(Math.floor(random() * 4000) - 1000);
  return Array.from({ length: Math.floor(random() * 40) }, () => String.fromCharCode(Math.floor(random() * 0x2fff))).join('');
}

/** encodeURIComponent, except that a lone surrogate goes out as the invalid UTF-8 it would be. */
function encode(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return text
      .replace(/[\ud800-\udfff]/g, '\u0000')
      .split('\u0000')
      .map(encodeURIComponent)
      .join('%ED%A0%80');
  }
}

const objects = Object.values(OBJECTS) as ObjectSpec[];
const paramNames = (spec: ObjectSpec) => [
  ...Object.keys(spec.filters).map((f) => (spec.filters[f]!.kind === 'ids' ? 'id[]' : f)),
  'limit',
  'cursor',
];

function query(spec: ObjectSpec | null): string {
  const names = spec ? paramNames(spec) : ['limit', 'cursor', 'q'];
  const parts: string[] = [];
  const count = Math.floor(random() * 5);
  for (let i = 0; i < count; i++) {
    const name =
      random() < 0.85 ? pick(names) : pick(['colour', 'limit[]', 'LIMIT', '__proto__', 'constructor', 'id[][]', '', '%', value()]);
    const repeats = random() < 0.1 ? Math.floor(random() * 60) + 2 : 1;
    for (let j = 0; j < repeats; j++) parts.push(`${encode(name)}=${encode(value())}`);
  }
  if (random() < 0.05) parts.push('%E0%A4%A', 'a=%', 'b=%zz');
  return parts.length ? `?${parts.join('&')}` : '';
}

interface Probe {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

function probe(): Probe {
  const spec = pick(objects);
  const headers: Record<string, string> = { authorization: `Bearer ${gateway.testKey}` };
  if (random() < 0.15) headers['x-company'] = pick(['TWO', 'two', 'NWIND', 'NOPE', value()]);
  if (random() < 0.1) headers['x-connection-id'] = pick(['sandbox', 'conn_x', value()]);
  if (random() < 0.05)
    headers.authorization = pick(['Bearer', 'Basic abc', `Bearer ${gateway.testKey}x`, `bearer ${gateway.testKey}`, value()]);
  const id = encode(random() < 0.5 ? value() : pick(['TWO', 'invoice:X', 'payment:', ':', 'AARONFIT0001']));
  const shape = random();
  const safe = (h: Record<string, string>) => Object.fromEntries(Object.entries(h).filter(([, v]) => /^[\t\x20-\x7e]*$/.test(v)));
  if (shape < 0.45) return { method: 'GET', path: `/v1/${spec.name}${query(spec)}`, headers: safe(headers) };
  if (shape < 0.65) return { method: 'GET', path: `/v1/${spec.name}/${id}${query(null)}`, headers: safe(headers) };
  if (shape < 0.75)
    return {
      method: 'GET',
      path: `/v1/${pick(['sales-orders', 'purchase-orders', 'customers'])}/${id}/lines${query(null)}`,
      headers: safe(headers),
    };
  if (shape < 0.82)
    return { method: 'GET', path: `/v1/${spec.name}${query(spec) || '?'}&cursor=${encode(value())}`, headers: safe(headers) };
  if (shape < 0.9) {
    return {
      method: pick(['POST', 'PUT', 'PATCH', 'DELETE']),
      path: pick([
        `/v1/${spec.name}`,
        `/v1/${pick(WRITABLE_OBJECT_NAMES)}?validateOnly=true`,
        `/v1/api-keys/${id}/rotate`,
        '/v1/api-keys/key_x/rotate',
        '/mcp',
      ]),
      headers: { ...safe(headers), 'content-type': pick(['application/json', 'text/plain', 'application/x-www-form-urlencoded']) },
      body: pick([
        '{',
        '{"a":',
        'null',
        '[]',
        '{"__proto__":{"x":1}}',
        '"x"',
        value(),
        JSON.stringify({ filters: value() }),
        JSON.stringify({ id: value(), name: value(), creditLimit: value() }),
        `{"id":"A","name":"A","${pick(['toString', 'valueOf', '__proto__', 'constructor'])}":"x"}`,
      ]),
    };
  }
  return {
    method: pick(['GET', 'HEAD', 'OPTIONS']),
    path: pick(['/', '/v1', '/v1/', '/v2/customers', '/agent', `/v1/${encode(value())}`, '//v1//customers']),
    headers: safe(headers),
  };
}

function isJsonRpcError(body: unknown): boolean {
  const b = body as { jsonrpc?: unknown; error?: { code?: unknown; message?: unknown } } | null;
  return b?.jsonrpc === '2.0' && typeof b.error?.code === 'number' && typeof b.error.message === 'string';
}

function digest(dir: string): string {
  const hash = createHash('sha256');
  for (const file of fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.sqlite'))
    .sort())
    hash.update(file).update(fs.readFileSync(path.join(dir, file)));
  return hash.digest('hex');
}

before(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-hostile-'));
  for (const args of [
    ['org', 'create', 'Demo organisation'],
    ['org', 'set-limits', 'Demo organisation', '--requests', '1000000', '--window', '10', '--in-flight', '64'],
  ]) {
    const run = await runGatewayCli(args, { DATA_DIR: dataDir });
    assert.equal(run.code, 0, run.stderr);
  }
  const customer = await provisionOrganisation(dataDir, {
    organisation: 'Live organisation',
    limits: { requestsPerWindow: 1_000_000, windowSeconds: 1, maxInFlightPerConnection: 32 },
    connections: ['HQ', 'Rogue', 'Crowded'],
    scopes: ['read', 'write', 'mcp'],
  });
  live = { key: customer.liveKey, connections: customer.connections };
  const whitelist = await runGatewayCli(
    ['connection', 'set-write-whitelist', 'HQ', WRITABLE_OBJECT_NAMES.join(','), '--org', 'Live organisation'],
    { DATA_DIR: dataDir },
  );
  assert.equal(whitelist.code, 0, whitelist.stderr);
  gateway = await startGatewayProcess(dataDir);
  demoDigest = digest(path.join(dataDir, 'demo'));
  // The live agent's own copy of a GP database (the demo's generator), which it writes.
  site = path.join(dataDir, 'site');
  fs.cpSync(path.join(dataDir, 'demo'), site, { recursive: true });
  agents.push(startAgentProcess(gateway.url, live.connections.HQ!.token, site, AGENT_ENV, ['--allow-writes']));
  await waitFor('the live agent', async () => ((await liveCall('HQ', 'GET', '/v1/companies')).status === 200 ? true : null), 30_000);
});
after(async () => {
  for (const rogue of rogues) rogue.ws.terminate();
  for (const agent of agents) await agent.stop('SIGKILL');
  await gateway?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** A request with the live key to one of its connections; the status, body (parsed when JSON) and time taken. */
async function liveCall(connection: string, method: string, pathAndQuery: string, body?: unknown) {
  return call(method, pathAndQuery, { authorization: `Bearer ${live.key}`, 'x-connection-id': live.connections[connection]!.id }, body);
}

async function call(method: string, pathAndQuery: string, headers: Record<string, string>, body?: unknown) {
  const started = Date.now();
  const res = await fetch(`${gateway.url}${pathAndQuery}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  const text = await res.text();
  let json: any = null;
  try {
    json = JSON.parse(text);
  } catch {
    /* not JSON: the assertions say so */
  }
  return { status: res.status, body: json, text, ms: Date.now() - started };
}

test(`${REQUESTS} generated hostile requests: no 5xx, no hang, every refusal in the envelope`, async () => {
  const failures: string[] = [];
  const statuses = new Map<number, number>();
  let next = 0;
  async function worker() {
    while (next < REQUESTS) {
      next += 1;
      const p = probe();
      const label = `${p.method} ${p.path.slice(0, 200)} ${JSON.stringify(p.headers).slice(0, 200)}`;
      try {
        const res = await fetch(`${gateway.url}${p.path}`, {
          method: p.method,
          headers: p.headers,
          ...(p.body !== undefined && p.method !== 'GET' && p.method !== 'HEAD' ? { body: p.body } : {}),
          signal: AbortSignal.timeout(TIMEOUT_MS),
        });
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        const text = await res.text();
        if (res.status >= 500) failures.push(`${res.status} ${label}: ${text.slice(0, 300)}`);
        else if (res.status >= 400 && p.method !== 'HEAD') {
          let body: unknown = null;
          try {
            body = JSON.parse(text);
          } catch {
            /* reported below */
          }
          // /mcp speaks JSON-RPC: once past authentication, its refusals are JSON-RPC errors (docs/api.md#mcp).
          const jsonRpcError = p.path.startsWith('/mcp') && isJsonRpcError(body);
          if (!ErrorBodySchema.safeParse(body).success && !jsonRpcError)
            failures.push(`${res.status} without envelope ${label}: ${text.slice(0, 300)}`);
        }
        if (!res.headers.get('x-request-id')) failures.push(`no X-Request-Id ${label}`);
      } catch (error) {
        failures.push(`${(error as Error).name} ${label}`);
      }
    }
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  console.log(
    `hostile requests: ${REQUESTS}, statuses ${JSON.stringify(Object.fromEntries([...statuses].sort()))}, failures ${failures.length}`,
  );
  assert.deepEqual(failures.slice(0, 20), []);
  assert.equal(digest(path.join(dataDir, 'demo')), demoDigest, 'the demo database is unchanged');
});

/** Raw HTTP for what fetch will not send: oversized headers, invalid header bytes, garbage. */
function raw(request: string | Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const url = new URL(gateway.url);
    const socket = net.connect(Number(url.port), url.hostname, () => socket.end(request));
    let out = '';
    socket.setTimeout(TIMEOUT_MS, () => socket.destroy(new Error('timeout')));
    socket.on('data', (d) => (out += d));
    socket.on('close', () => resolve(out));
    socket.on('error', reject);
  });
}

test('oversized headers, malformed HTTP and a huge URL get an error envelope, not a dropped socket', async () => {
  const big = `GET /v1/customers HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${gateway.testKey}\r\nX-Big: ${'a'.repeat(20_000)}\r\nConnection: close\r\n\r\n`;
  const garbage = 'NOT HTTP AT ALL\r\n\r\n';
  const longUrl = `GET /v1/customers?q=${'a'.repeat(100_000)} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`;
  for (const request of [big, garbage, longUrl]) {
    const response = await raw(request);
    const [head, body] = response.split('\r\n\r\n');
    assert.match(head ?? '', /^HTTP\/1\.1 4\d\d /, response.slice(0, 200));
    assert.equal(ErrorBodySchema.safeParse(JSON.parse(body ?? 'null')).success, true, response.slice(0, 300));
  }
});

async function getJson(pathAndQuery: string): Promise<{ status: number; body: any; ms: number }> {
  const started = Date.now();
  const res = await fetch(`${gateway.url}${pathAndQuery}`, {
    headers: { authorization: `Bearer ${gateway.testKey}` },
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  return { status: res.status, body: await res.json(), ms: Date.now() - started };
}

test('an id longer than an agent accepts is a 400 at once on every get, and eight of them at once lock nothing', async () => {
  const gettable = objects.filter((spec) => spec.idForm !== null && !spec.parent);
  for (const spec of gettable) {
    const { status, body, ms } = await getJson(`/v1/${spec.name}/${'A'.repeat(513)}`);
    assert.equal(status, 400, `${spec.name}: ${JSON.stringify(body)}`);
    assert.deepEqual(body.error.details.issues, [{ path: 'id', message: 'must be at most 512 characters' }]);
    assert.ok(ms < 2_000, `${spec.name} answered in ${ms} ms`);
    assert.equal((await getJson(`/v1/${spec.name}/${'A'.repeat(512)}`)).status, 404, `${spec.name}: 512 characters reach the agent`);
  }
  // Before, each held an in-flight slot for 30 s: eight locked the connection for every key of the organisation.
  const burst = await Promise.all(Array.from({ length: 8 }, () => getJson(`/v1/customers/${'B'.repeat(513)}`)));
  assert.deepEqual(new Set(burst.map((r) => r.status)), new Set([400]));
  const after = await getJson('/v1/customers?limit=1');
  assert.equal(after.status, 200);
  assert.ok(after.ms < 2_000, `the next read took ${after.ms} ms`);
});

/** Boundary dates: the ends of the accepted range and one step past them, leap days, and zones that push a date-time over. */
function boundaryDates(): { value: string; date: 'ok' | 'bad' | 'either'; timestamp: 'ok' | 'bad' | 'either' }[] {
  const days: [string, boolean][] = [
    ['1900-01-01', true],
    ['1900-01-02', true],
    ['1899-12-31', false],
    ['9999-12-30', true],
    ['9999-12-31', true],
    ['10000-01-01', false],
    ['0000-01-01', false],
    ['2024-02-29', true],
    ['2023-02-29', false],
    ['2026-12-31', true],
    ['2027-01-01', true],
  ];
  const out: ReturnType<typeof boundaryDates> = [];
  for (const [day, valid] of days) {
    const either = valid ? 'ok' : 'bad';
    out.push({ value: day, date: either, timestamp: either });
    out.push({ value: `${day}T00:00:00Z`, date: either, timestamp: either });
    out.push({ value: `${day}T23:59:59.999Z`, date: either, timestamp: either });
    // West of UTC the instant falls on the next day, east of it on the day before: past 9999 or before 1900 at the ends.
    const last = day === '9999-12-31';
    const first = day === '1900-01-01';
    out.push({ value: `${day}T23:59:59.999-14:00`, date: either, timestamp: !valid || last ? 'bad' : 'ok' });
    out.push({ value: `${day}T00:00:00+14:00`, date: either, timestamp: !valid || first ? 'bad' : 'ok' });
    out.push({ value: `${day}T12:00:00.123456789+05:30`, date: either, timestamp: either });
  }
  return out;
}

test('boundary dates on every dated list: a valid bound (200) or a 400 naming the filter, never a 500', async () => {
  const failures: string[] = [];
  const work: { path: string; filter: string; expected: 'ok' | 'bad' | 'either' }[] = [];
  for (const spec of objects.filter((s) => !s.parent)) {
    const required = Object.entries(spec.filters).filter(([, f]) => f.kind === 'string' && f.required && !f.fromPath);
    const base = required.map(([name]) => `${name}=X`).join('&');
    for (const [filter, f] of Object.entries(spec.filters)) {
      if (f.kind !== 'date' && f.kind !== 'timestamp') continue;
      for (const date of boundaryDates()) {
        work.push({
          path: `/v1/${spec.name}?${base ? `${base}&` : ''}limit=5&${filter}=${encodeURIComponent(date.value)}`,
          filter,
          expected: f.kind === 'date' ? date.date : date.timestamp,
        });
      }
    }
  }
  let next = 0;
  async function worker() {
    while (next < work.length) {
      const item = work[next++]!;
      const { status, body } = await getJson(item.path);
      const wanted = item.expected === 'ok' ? [200] : item.expected === 'bad' ? [400] : [200, 400];
      if (!wanted.includes(status)) failures.push(`${status} ${item.path}: ${JSON.stringify(body).slice(0, 200)}`);
      else if (status === 400 && body.error?.details?.issues?.[0]?.path !== item.filter)
        failures.push(`400 without naming ${item.filter}: ${item.path}: ${JSON.stringify(body).slice(0, 200)}`);
    }
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  console.log(`boundary dates: ${work.length} requests, failures ${failures.length}`);
  assert.deepEqual(failures.slice(0, 20), []);
});

test('bad keys and bad agent tokens from one address: 429 with Retry-After past a budget, logged in aggregate; good keys still pass', async () => {
  const mark = gateway.output().length;
  const bad = await Promise.all(
    Array.from({ length: 300 }, (_, i) =>
      fetch(`${gateway.url}/v1/customers`, { headers: i % 2 ? { authorization: `Bearer lb_test_${'x'.repeat(32)}` } : {} }),
    ),
  );
  const statuses = new Map<number, number>();
  for (const res of bad) {
    statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    assert.ok(ErrorBodySchema.safeParse(await res.json()).success);
    if (res.status === 429) assert.ok(Number(res.headers.get('retry-after')) >= 1);
  }
  assert.ok((statuses.get(429) ?? 0) >= 250, `statuses ${JSON.stringify([...statuses])}`);
  assert.deepEqual(
    [...statuses.keys()].sort(),
    [401, 429].filter((s) => statuses.has(s)),
  );
  assert.equal((await getJson('/v1/customers?limit=1')).status, 200, 'a good key from the same address');

  const upgrades = await Promise.all(
    Array.from({ length: 300 }, (_, i) => rogueAgent(gateway.url, i % 2 ? `lb_agent_${'y'.repeat(32)}` : '').refused),
  );
  assert.ok(upgrades.filter((s) => s === 429).length >= 250, `upgrades ${upgrades.filter((s) => s === 401).length} x 401`);
  assert.deepEqual(new Set(upgrades), new Set([401, 429].filter((s) => upgrades.includes(s))));

  const lines = gateway
    .output()
    .slice(mark)
    .split('\n')
    .filter((l) => /refused/.test(l));
  assert.ok(lines.length <= 4, `600 refusals logged in ${lines.length} lines:\n${lines.join('\n')}`);
});

test('the Authorization scheme is case-insensitive; a request without Host gets the envelope and a request id', async () => {
  for (const scheme of ['bearer', 'BEARER', 'Bearer  ']) {
    const res = await fetch(`${gateway.url}/v1/companies`, { headers: { authorization: `${scheme} ${gateway.testKey}` } });
    assert.equal(res.status, 200, scheme);
  }
  const response = await raw(`GET /v1/companies HTTP/1.1\r\nAuthorization: Bearer ${gateway.testKey}\r\nConnection: close\r\n\r\n`);
  const [head, body] = response.split('\r\n\r\n');
  assert.match(head ?? '', /^HTTP\/1\.1 400 /);
  assert.match(head ?? '', /\r\nX-Request-Id: req_/i);
  const error = JSON.parse(body ?? 'null');
  assert.ok(ErrorBodySchema.safeParse(error).success, response);
  assert.equal(error.error.message, 'The request has no Host header.');
});

/* Issue 32: each case the outside test found, on the sandbox and, where an agent decides, on the live agent too. */

const sandbox = (method: string, pathAndQuery: string, body?: unknown) =>
  call(method, pathAndQuery, { authorization: `Bearer ${gateway.testKey}` }, body);
const issuePaths = (r: { body: any }) => (r.body?.error?.details?.issues ?? []).map((i: { path: string }) => i.path);

/** `create_record` through MCP, validate-only, on the sandbox: the tool result's error body, or its data. */
async function mcpCreate(object: string, fields: unknown): Promise<any> {
  const res = await fetch(`${gateway.url}/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${gateway.testKey}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'create_record', arguments: { object, fields, validateOnly: true } },
    }),
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  assert.equal(res.status, 200);
  const reply = (await res.json()) as { result: { isError?: boolean; content: { text: string }[] } };
  return { isError: reply.result.isError === true, body: JSON.parse(reply.result.content[0]!.text) };
}

test('a write body never answers 500: a value that is no decimal is a 400 naming the field, on REST, validate-only, MCP and the live agent', async () => {
  const order = (quantity: string) => ({
    docTypeId: 'STDORD',
    customerId: 'AARONFIT0001',
    date: '2026-03-01',
    batchId: 'API',
    lines: [{ itemId: '100XLG', quantity, unitPrice: '1' }],
  });
  for (const value of ['abc', ' 1.00', '١٢', '12 000', '1,5']) {
    const customer = { id: 'HOSTILE01', name: 'Hostile', creditLimit: value };
    for (const answer of [
      await sandbox('POST', '/v1/customers?validateOnly=true', customer),
      await liveCall('HQ', 'POST', '/v1/customers', customer),
      await liveCall('HQ', 'POST', '/v1/customers?validateOnly=true', customer),
    ]) {
      assert.equal(answer.status, 400, `${value}: ${answer.text}`);
      assert.deepEqual(issuePaths(answer), ['creditLimit'], value);
    }
    assert.deepEqual(issuePaths(await sandbox('POST', '/v1/sales-orders?validateOnly=true', order(value))), ['lines.0.quantity']);
    const tool = await mcpCreate('customers', customer);
    assert.equal(tool.isError, true);
    assert.deepEqual(
      tool.body.error.details.issues.map((i: { path: string }) => i.path),
      ['fields.creditLimit'],
    );
  }
});

test('the same limits on every writer: past numeric(19,5) as stored is a 400 on the sandbox and the live agent alike; at it, both accept', async () => {
  const entry = (amount: string) => ({
    reference: 'Hostile',
    date: '2026-03-31',
    batchId: 'HOSTILE',
    lines: [
      { accountNumber: '000-1100-00', debit: amount },
      { accountNumber: '000-1100-00', debit: amount },
      { accountNumber: '000-2100-00', credit: amount },
      { accountNumber: '000-2100-00', credit: amount },
    ],
  });
  const refused: [string, unknown, string[]][] = [
    ['customers', { id: 'HOSTILE02', name: 'Rich', creditLimit: '99999999999999.99999' }, ['creditLimit']],
    ['customers', { id: 'HOSTILE02', name: 'Rich', creditLimit: '92233720368547.75808' }, ['creditLimit']],
    [
      'sales-orders',
      {
        docTypeId: 'STDORD',
        customerId: 'AARONFIT0001',
        date: '2026-03-01',
        batchId: 'API',
        lines: [{ itemId: '100XLG', quantity: '9000000000000', unitPrice: '9000000000000' }],
      },
      ['lines.0'],
    ],
    ['gl-entries', entry('60000000000000'), ['lines']],
  ];
  for (const [object, body, paths] of refused) {
    const validated = await sandbox('POST', `/v1/${object}?validateOnly=true`, body);
    const written = await liveCall('HQ', 'POST', `/v1/${object}`, body);
    assert.deepEqual([validated.status, written.status], [400, 400], `${object}: ${validated.text} / ${written.text}`);
    assert.deepEqual([issuePaths(validated), issuePaths(written)], [paths, paths], object);
  }
  const largest = { id: 'HOSTILE03', name: 'Largest', creditLimit: MAX_WRITE_AMOUNT };
  assert.equal((await sandbox('POST', '/v1/customers?validateOnly=true', largest)).status, 200);
  const created = await liveCall('HQ', 'POST', '/v1/customers', largest);
  assert.equal(created.status, 201, created.text);
  assert.equal(created.body.data.creditLimit, MAX_WRITE_AMOUNT);
});

test('fields named like properties of every object are unknown fields, named as such', async () => {
  for (const name of ['toString', 'valueOf', '__proto__', 'constructor']) {
    const body = `{"id":"HOSTILE04","name":"x","${name}":"x"}`;
    for (const answer of [
      await sandbox('POST', '/v1/customers?validateOnly=true', body),
      await liveCall('HQ', 'POST', '/v1/customers', body),
    ]) {
      assert.equal(answer.status, 400, answer.text);
      assert.deepEqual(answer.body.error.details.issues, [{ path: 'body', message: `unknown field: ${name}` }]);
    }
  }
});

test('text that looks the same is not silently different: hidden characters in ids, names and q are a 400', async () => {
  assert.equal((await liveCall('HQ', 'POST', '/v1/customers', { id: 'ASECRET01', name: 'Secret' })).status, 201);
  for (const hidden of ['\u00a0', '\u0085', '\u200b', '\u202e', '\u0000']) {
    const twin = await liveCall('HQ', 'POST', '/v1/customers', { id: `ASECRET01${hidden}`, name: 'Secret' });
    assert.equal(twin.status, 400, `${JSON.stringify(hidden)}: ${twin.text}`);
    assert.deepEqual(issuePaths(twin), ['id']);
    const named = await sandbox('POST', '/v1/customers?validateOnly=true', { id: 'HOSTILE05', name: `Acme${hidden}` });
    assert.deepEqual(issuePaths(named), hidden === '\u00a0' ? [] : ['name'], JSON.stringify(hidden));
  }
  for (const q of ['%00', 'a%00', '%C2%85', '%E2%80%8B', '%E2%80%AE']) {
    for (const answer of [await sandbox('GET', `/v1/customers?q=${q}`), await liveCall('HQ', 'GET', `/v1/customers?q=${q}`)]) {
      assert.equal(answer.status, 400, `q=${q}: ${answer.text.slice(0, 200)}`);
      assert.deepEqual(issuePaths(answer), ['q']);
    }
  }
});

test('a misbehaving agent cannot mislead the gateway: unknown codes, codes its request cannot have, long positions and extra fields are 502 at once', async () => {
  const customer = Object.fromEntries(Object.keys(OBJECTS.customers.resource.shape).map((field) => [field, null]));
  const answers: Record<string, (id: string) => string> = {
    unknownCode: (id) => JSON.stringify({ v: 1, type: 'error', id, code: 'TEAPOT', message: 'x' }),
    alreadyExists: (id) => JSON.stringify({ v: 1, type: 'error', id, code: 'ALREADY_EXISTS', message: 'x' }),
    longPosition: (id) => `${JSON.stringify({ v: 1, type: 'response', id, next: Array(8).fill('x'.repeat(256)) })}\n[]`,
    extraField: (id) => `${JSON.stringify({ v: 1, type: 'response', id, next: null })}\n[${JSON.stringify({ ...customer, admin: true })}]`,
    proto: (id) =>
      `${JSON.stringify({ v: 1, type: 'response', id, next: null })}\n[${JSON.stringify(customer).slice(0, -1)},"__proto__":{}}]`,
    honest: (id) => `${JSON.stringify({ v: 1, type: 'response', id, next: null })}\n[${JSON.stringify(customer)}]`,
  };
  let mode = 'honest';
  const rogue = rogueAgent(gateway.url, live.connections.Rogue!.token, { onRequest: (frame, ws) => ws.send(answers[mode]!(frame.id)) });
  rogues.push(rogue);
  await rogue.welcomed;
  assert.equal((await liveCall('Rogue', 'GET', '/v1/customers?limit=1')).status, 200, 'an honest answer passes');
  for (mode of ['unknownCode', 'alreadyExists', 'longPosition', 'extraField', 'proto']) {
    const answer = await liveCall('Rogue', 'GET', '/v1/customers?limit=1');
    assert.equal(answer.status, 502, `${mode}: ${answer.text}`);
    assert.equal(ErrorBodySchema.safeParse(answer.body).success, true);
    assert.equal(answer.body.error.code, 'UPSTREAM_ERROR');
    assert.ok(answer.ms < 5_000, `${mode} answered in ${answer.ms} ms`);
  }
});

test('an agent refused for a full connection keeps trying, and serves once the sockets holding its slots go', async () => {
  const token = live.connections.Crowded!.token;
  const thieves = Array.from({ length: 4 }, () => rogueAgent(gateway.url, token));
  rogues.push(...thieves);
  await Promise.all(thieves.map((t) => t.welcomed));
  const agent = startAgentProcess(gateway.url, token, site, AGENT_ENV);
  agents.push(agent);
  await waitFor('the agent to be refused', () => (/refused another agent on this connection/.test(agent.output()) ? true : null), 30_000);
  for (const thief of thieves) thief.ws.terminate();
  await waitFor(
    'the agent to serve',
    async () => ((await liveCall('Crowded', 'GET', '/v1/companies')).status === 200 ? true : null),
    30_000,
  );
  assert.equal(agent.child.exitCode, null, 'the agent never exited');
  assert.match(agent.output(), /retrying until a slot is free/);
});

test('headers and values are read one way: two Host or Authorization headers, offsets past ±14:00, refused filter combinations', async () => {
  const request = (lines: string[]) => raw(`${['GET /v1/companies HTTP/1.1', ...lines, 'Connection: close'].join('\r\n')}\r\n\r\n`);
  const cases: [string[], string][] = [
    [['Host: localhost', 'Host: evil.example', `Authorization: Bearer ${gateway.testKey}`], 'Host'],
    [['Host: localhost', `Authorization: Bearer ${gateway.testKey}`, `Authorization: Bearer ${live.key}`], 'Authorization'],
  ];
  for (const [lines, header] of cases) {
    const [head, body] = (await request(lines)).split('\r\n\r\n');
    assert.match(head ?? '', /^HTTP\/1\.1 400 /);
    assert.deepEqual(JSON.parse(body ?? 'null').error.details.issues, [{ path: header, message: 'must be given once' }]);
  }
  for (const value of ['2026-03-01T00:00:00+25:00', '2026-03-01T00:00:00-14:01']) {
    const answer = await sandbox('GET', `/v1/ar-invoices?dateFrom=${encodeURIComponent(value)}`);
    assert.deepEqual([answer.status, issuePaths(answer)], [400, ['dateFrom']], value);
  }
  const unposted = await sandbox('GET', '/v1/gl-entries?year=unposted&dateFrom=2026-01-01');
  assert.equal(unposted.status, 400);
  assert.deepEqual(issuePaths(unposted), ['dateFrom']);
  assert.match(unposted.body.error.details.issues[0].message, /^cannot be combined with year=unposted: /);
});
