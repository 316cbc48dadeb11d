import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ErrorBodySchema, OBJECTS, type ObjectSpec } from '@gp-gateway/protocol';
import { runGatewayCli, startGatewayProcess, type Started } from './support/processes.ts';
import { rogueAgent } from './support/rogueAgent.ts';

/**
 * Hostile input against every route of a real gateway process: thousands of generated malformed
 * and adversarial requests (random and boundary values, SQL injection and unicode payloads, huge
 * and repeated parameters, tampered cursors, odd headers and bodies, wrong methods). Never a 5xx,
 * never a hang, always the error envelope for a refusal, and the demo database unchanged.
 */
const REQUESTS = Number(process.env.HOSTILE_REQUESTS ?? 3000);
const CONCURRENCY = 8;
const TIMEOUT_MS = 10_000;

let dataDir: string;
let gateway: Started & { url: string; testKey: string };
let demoDigest: string;

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
      path: pick([`/v1/${spec.name}`, `/v1/api-keys/${id}/rotate`, '/v1/api-keys/key_x/rotate', '/mcp']),
      headers: { ...safe(headers), 'content-type': pick(['application/json', 'text/plain', 'application/x-www-form-urlencoded']) },
      body: pick(['{', '{"a":', 'null', '[]', '{"__proto__":{"x":1}}', '"x"', value(), JSON.stringify({ filters: value() })]),
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
  gateway = await startGatewayProcess(dataDir);
  demoDigest = digest(path.join(dataDir, 'demo'));
});
after(async () => {
  await gateway?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

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
