import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { newApiKeySecret } from '../../../core/auth/secrets.ts';
import type { ApiKey, Organisation, Scope } from '../../../infrastructure/store/store.ts';
import { startInProcessGateway, type InProcessGateway } from '../../../testing/inProcessGateway.ts';

/** `POST /v1/api-keys/{id}/rotate` (docs/api.md#key-rotation) over real HTTP. */
let gw: InProcessGateway;
let org: Organisation;
let other: Organisation;

before(async () => {
  gw = await startInProcessGateway();
  org = await gw.admin.createOrganisation('Rotators');
  other = await gw.admin.createOrganisation('Others');
  // Plenty of quota: these tests are about rotation, the race test sends hundreds of requests.
  for (const o of [org, other]) await gw.admin.setLimits(o.id, { requestsPerWindow: 100_000, windowSeconds: 1 });
});
after(() => gw.close());

const as = (secret: string) => ({ authorization: `Bearer ${secret}` });
const key = (mode: 'live' | 'test', scopes: Scope[], owner = org) => gw.makeKey(owner.id, mode, scopes);

/** Rotates `id` with `secret`; `body` is sent as it is given, with its Content-Type (application/json unless said). */
async function rotate(id: string, secret: string, query = '', body?: { text: string; type?: string }) {
  const res = await fetch(`${gw.gateway.url}/v1/api-keys/${encodeURIComponent(id)}/rotate${query}`, {
    method: 'POST',
    headers: { ...as(secret), ...(body ? { 'content-type': body.type ?? 'application/json' } : {}) },
    ...(body ? { body: body.text } : {}),
  });
  return { status: res.status, body: (await res.json()) as any, headers: res.headers };
}

/** An error body without its request id, to compare answers that must be identical. */
const sansRequestId = (body: any) => ({ ...body, error: { ...body.error, requestId: undefined } });

function publicShape(k: ApiKey) {
  return { id: k.id, name: k.name, prefix: k.prefix, mode: k.mode, scopes: k.scopes, revokedAt: null, createdAt: k.createdAt };
}

describe('rotation', () => {
  test('a key rotates itself: the new secret once, the same key, the old secret refused at once', async () => {
    const { secret, key: before } = await key('test', ['read', 'write']);
    const res = await rotate(before.id, secret);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    const next: string = res.body.secret;
    assert.match(next, /^lb_test_[0-9A-Za-z]{32}$/);
    assert.deepEqual(res.body, { key: { ...publicShape(before), prefix: next.slice(0, 12) }, secret: next });
    const old = await gw.get('/v1/companies', as(secret));
    const unknown = await gw.get('/v1/companies', as(newApiKeySecret('test')));
    assert.equal(old.status, 401);
    assert.deepEqual(sansRequestId(old.body), sansRequestId(unknown.body));
    assert.equal((await gw.get('/v1/companies', as(next))).status, 200);
  });

  test('a key rotates another key of its organisation, live ones included', async () => {
    const admin = await key('live', ['write']);
    const target = await key('live', ['read', 'mcp']);
    const res = await rotate(target.key.id, admin.secret);
    assert.equal(res.status, 200);
    assert.match(res.body.secret, /^lb_live_[0-9A-Za-z]{32}$/);
    assert.deepEqual(res.body.key, { ...publicShape(target.key), prefix: res.body.secret.slice(0, 12) });
    assert.equal((await gw.get('/v1/companies', as(target.secret))).status, 401);
    // The new live secret authenticates: the next refusal is about the connection, not the key.
    assert.equal((await gw.get('/v1/companies', as(res.body.secret))).status, 400);
  });

  test('without the write scope: 403, whether the key exists or not', async () => {
    const reader = await key('live', ['read', 'mcp']);
    const target = await key('live', ['read']);
    for (const id of [target.key.id, reader.key.id, 'key_unknown']) {
      const res = await rotate(id, reader.secret);
      assert.equal(res.status, 403);
      assert.equal(res.body.error.code, 'FORBIDDEN');
    }
    assert.equal((await gw.get('/v1/companies', as(target.secret))).status, 400, 'the target still authenticates');
  });

  test('unknown, revoked, foreign and (for a test key) live keys are the same 404', async () => {
    const admin = await key('live', ['write']);
    const testAdmin = await key('test', ['write']);
    const revoked = await key('live', ['read']);
    await gw.admin.revokeApiKey(revoked.key.id);
    const foreign = await key('live', ['read'], other);
    const live = await key('live', ['read']);
    const answers = [
      await rotate('key_unknown', admin.secret),
      await rotate(revoked.key.id, admin.secret),
      await rotate(foreign.key.id, admin.secret),
      await rotate(live.key.id, testAdmin.secret),
    ];
    assert.deepEqual(
      answers.map((r) => r.status),
      [404, 404, 404, 404],
    );
    assert.deepEqual(
      answers.map((r) => sansRequestId(r.body)),
      Array(4).fill({
        error: { code: 'NOT_FOUND', message: 'No API key with that id.', details: null, requestId: undefined },
      }),
    );
    assert.equal((await gw.get('/v1/companies', as(foreign.secret))).status, 400, 'the foreign key was not touched');
    assert.equal((await gw.get('/v1/companies', as(live.secret))).status, 400, 'the live key was not touched');
  });

  test('query parameters are refused; the key is not rotated', async () => {
    const self = await key('test', ['read', 'write']);
    const res = await rotate(self.key.id, self.secret, '?expiresIn=3600');
    assert.equal(res.status, 400);
    assert.deepEqual(res.body.error.details, { issues: [{ path: 'expiresIn', message: 'unknown query parameter' }] });
    assert.equal((await gw.get('/v1/companies', as(self.secret))).status, 200);
  });

  test('a body {"overlap": "1h"} keeps the old secret working beside the new one, and says until when', async () => {
    const self = await key('test', ['read', 'write']);
    const asked = Date.now();
    const res = await rotate(self.key.id, self.secret, '', { text: JSON.stringify({ overlap: '1h' }) });
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.body), ['key', 'secret', 'oldSecretWorksUntil']);
    const until = Date.parse(res.body.oldSecretWorksUntil);
    assert.ok(until >= asked + 3600_000 && until <= Date.now() + 3600_000, res.body.oldSecretWorksUntil);
    assert.deepEqual(
      [(await gw.get('/v1/companies', as(self.secret))).status, (await gw.get('/v1/companies', as(res.body.secret))).status],
      [200, 200],
      'both secrets work during the overlap',
    );
    // Rotating again ends the first overlap at once, as in the dashboard: only one old secret is ever kept.
    const again = await rotate(self.key.id, res.body.secret, '', { text: '{"overlap":"now"}' });
    assert.equal(again.status, 200);
    assert.equal(again.body.oldSecretWorksUntil, null, '"now": the old secret failed at once');
    assert.deepEqual(
      await Promise.all([self.secret, res.body.secret, again.body.secret].map(async (s) => (await gw.get('/v1/companies', as(s))).status)),
      [401, 401, 200],
    );
  });

  test('an empty JSON object, as some clients send with every POST, is the contract: the old secret refused at once', async () => {
    const self = await key('test', ['read', 'write']);
    const res = await rotate(self.key.id, self.secret, '', { text: '{}' });
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.body).sort(), ['key', 'secret'], 'the answer the contract shows, no overlap field');
    assert.deepEqual(
      await Promise.all([self.secret, res.body.secret].map(async (s) => (await gw.get('/v1/companies', as(s))).status)),
      [401, 200],
    );
  });

  test('an overlap that does not read is a 400 VALIDATION_ERROR naming it, and the key is not rotated', async () => {
    const self = await key('test', ['read', 'write']);
    const cases: [{ text: string; type?: string }, { path: string; message: string }][] = [
      [{ text: '{"overlap":"2h"}' }, { path: 'overlap', message: 'must be one of now, 1h, 24h, 7d' }],
      [{ text: '{"overlap":24}' }, { path: 'overlap', message: 'must be one of now, 1h, 24h, 7d' }],
      [{ text: '{"overlap":"1h","keepOld":true}' }, { path: 'keepOld', message: 'is not a field of this body; send only overlap' }],
      [{ text: '"1h"' }, { path: 'body', message: 'must be a JSON object, e.g. {"overlap": "24h"}' }],
      [{ text: '{"overlap":' }, { path: 'body', message: 'is not valid JSON' }],
      [
        { text: 'overlap=1h', type: 'application/x-www-form-urlencoded' },
        { path: 'Content-Type', message: 'must be application/json' },
      ],
      [{ text: JSON.stringify({ overlap: 'x'.repeat(2000) }) }, { path: 'body', message: 'must be at most 1 KiB' }],
    ];
    for (const [body, issue] of cases) {
      const res = await rotate(self.key.id, self.secret, '', body);
      assert.equal(res.status, 400, body.text);
      assert.equal(res.body.error.code, 'VALIDATION_ERROR');
      assert.match(res.body.error.requestId, /^req_/);
      assert.deepEqual(res.body.error.details, { issues: [issue] }, body.text);
    }
    assert.equal((await gw.get('/v1/companies', as(self.secret))).status, 200, 'still the one secret it had');
  });

  test('two rotations of one key at once both answer 200, and only the later secret works', async () => {
    const a = await key('live', ['write']);
    const b = await key('live', ['write']);
    const target = await key('test', ['read']);
    const [first, second] = await Promise.all([rotate(target.key.id, a.secret), rotate(target.key.id, b.secret)]);
    assert.deepEqual([first.status, second.status], [200, 200]);
    const works = await Promise.all([first, second].map(async (r) => (await gw.get('/v1/companies', as(r.body.secret))).status));
    assert.deepEqual([...works].sort(), [200, 401]);
  });
});

describe('rotation under concurrent requests', () => {
  test('no request with the old secret succeeds once rotation has returned', async (t) => {
    const { secret: old, key: rotating } = await key('test', ['read', 'write']);
    interface Sent {
      sent: number;
      done: number;
      status: number;
    }
    const results: Sent[] = [];
    let rotateSent = Infinity;
    let rotateReturned = Infinity;
    let startRotation!: () => void;
    const warmedUp = new Promise<void>((resolve) => (startRotation = resolve));
    const AFTER_EACH_LOOP = 15;

    // Eight clients hammer the sandbox with the old secret before, during and after the rotation.
    const loop = async () => {
      let afterReturn = 0;
      while (afterReturn < AFTER_EACH_LOOP) {
        const sent = performance.now();
        const res = await fetch(`${gw.gateway.url}/v1/companies`, { headers: as(old) });
        await res.arrayBuffer();
        results.push({ sent, done: performance.now(), status: res.status });
        if (results.length === 40) startRotation();
        if (sent > rotateReturned) afterReturn++;
      }
    };
    const loops = Array.from({ length: 8 }, loop);
    await warmedUp;
    rotateSent = performance.now();
    const rotated = await rotate(rotating.id, old);
    rotateReturned = performance.now();
    await Promise.all(loops);

    assert.equal(rotated.status, 200);
    const before = results.filter((r) => r.done < rotateSent);
    const straddling = results.filter((r) => r.done >= rotateSent && r.sent <= rotateReturned);
    const after = results.filter((r) => r.sent > rotateReturned);
    t.diagnostic(
      `${results.length} requests: ${before.length} done before rotation began (all 200); ${straddling.length} overlapping it ` +
        `(${straddling.filter((r) => r.status === 200).length} × 200, ${straddling.filter((r) => r.status === 401).length} × 401); ` +
        `${after.length} sent after it returned; rotation took ${Math.round(rotateReturned - rotateSent)} ms`,
    );
    assert.ok(before.length >= 40 - 8);
    assert.ok(
      before.every((r) => r.status === 200),
      'before rotation the old secret works',
    );
    assert.ok(straddling.every((r) => r.status === 200 || r.status === 401));
    assert.equal(after.length, 8 * AFTER_EACH_LOOP);
    // Past 30 refusals the address's bad keys are answered 429 (auth/refusalThrottle.ts): refused all the same.
    assert.ok(
      after.every((r) => r.status === 401 || r.status === 429),
      'after rotation returned, the old secret never works',
    );
    assert.equal((await gw.get('/v1/companies', as(rotated.body.secret))).status, 200);
  });
});
