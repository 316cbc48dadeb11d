import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { sha256Hex } from '../../../core/auth/secrets.ts';
import { startWriteHarness, type WriteHarness } from '../../../testing/writeHarness.ts';

/** The audit page over HTTP (issue 36): filters by actor, action and days from the GET query, entries as sentences. */
let h: WriteHarness;
let session = '';

before(async () => {
  h = await startWriteHarness();
  // An organisation of its own: the harness's has entries of its making.
  const org = await h.store.createOrganisation('Audited');
  const user = (await h.store.createUser({ orgId: org.id, email: 'ann@writers.example', role: 'viewer' }))!;
  session = randomBytes(24).toString('base64url');
  await h.store.createDashboardSession({ idHash: sha256Hex(session), userId: user.id, at: new Date() });
  const entry = { orgId: org.id, address: null };
  await h.store.recordAudit({
    ...entry,
    at: '2026-05-01T10:00:00.000Z',
    actor: 'ann@writers.example',
    action: 'key.created',
    target: 'key_1 "CI"',
    details: { mode: 'live', scopes: ['read'] },
  });
  await h.store.recordAudit({
    ...entry,
    at: '2026-05-02T09:00:00.000Z',
    actor: 'ann@writers.example',
    action: 'key.rotated',
    target: 'key_1 "CI"',
    details: { oldWorksUntil: '2026-05-03T09:00:00.000Z' },
  });
  await h.store.recordAudit({
    ...entry,
    at: '2026-05-02T23:30:00.000Z',
    actor: 'API key key_9',
    action: 'record.created',
    target: 'customers ACME001',
    details: { keyId: 'key_9', keyName: 'ERP sync', object: 'customers', recordId: 'ACME001' },
  });
  await h.store.recordAudit({
    ...entry,
    at: '2026-05-04T08:00:00.000Z',
    actor: 'operator CLI',
    action: 'key.revoked',
    target: 'key_1 "CI"',
    details: null,
  });
});
after(() => h.close());

async function auditPage(query: Record<string, string> = {}, as = session) {
  const res = await fetch(`${h.gateway.url}/dashboard/audit?${new URLSearchParams(query)}`, {
    headers: { cookie: `__Host-gp_session=${as}` },
    redirect: 'manual',
  });
  const html = await res.text();
  const rows = [...html.matchAll(/<tr>\s*<td>[^<]*<\/td>\s*<td>([^<]*)<\/td>/g)].map((m) => m[1]!.replace(/&#39;/g, "'"));
  return { status: res.status, html, rows };
}

const ROTATED = 'ann@writers.example rotated the key “CI”, keeping the old one for 24 h';
const CREATED = 'ann@writers.example created the live key “CI” (read)';
const WRITTEN = 'Key “ERP sync” created customer ACME001';
const REVOKED = 'operator CLI revoked the key “CI”';

test('unfiltered: every entry as a sentence, newest first, no JSON; a GET form with labelled fields', async () => {
  const page = await auditPage();
  assert.equal(page.status, 200);
  assert.deepEqual(page.rows, [REVOKED, WRITTEN, ROTATED, CREATED]);
  assert.doesNotMatch(page.html, /oldWorksUntil|&quot;mode&quot;/);
  assert.match(page.html, /<form method="get" action="\/dashboard\/audit"/);
  for (const name of ['actor', 'action', 'from', 'to'])
    assert.match(page.html, new RegExp(`<label>[A-Za-z]+\\s*<(select|input type="date") name="${name}"`));
});

test('filters by actor, action and days (UTC, both ends included), alone and together, and keeps them in the form', async () => {
  assert.deepEqual((await auditPage({ actor: 'ann@writers.example' })).rows, [ROTATED, CREATED]);
  assert.deepEqual((await auditPage({ action: 'record.created' })).rows, [WRITTEN]);
  assert.deepEqual((await auditPage({ from: '2026-05-02', to: '2026-05-02' })).rows, [WRITTEN, ROTATED]);
  assert.deepEqual((await auditPage({ from: '2026-05-02' })).rows, [REVOKED, WRITTEN, ROTATED]);
  assert.deepEqual((await auditPage({ to: '2026-05-01' })).rows, [CREATED]);
  const both = await auditPage({ actor: 'ann@writers.example', action: 'key.rotated', from: '2026-05-01', to: '2026-05-03' });
  assert.deepEqual(both.rows, [ROTATED]);
  assert.match(both.html, /<option value="ann@writers.example" selected>/);
  assert.match(both.html, /<option value="key.rotated" selected>/);
  assert.match(both.html, /name="from" value="2026-05-01"/);
  assert.match(both.html, /Show everything/);
  const none = await auditPage({ actor: 'nobody@writers.example' });
  assert.deepEqual(none.rows, []);
  assert.match(none.html, /No change matches these filters/);
});

test('a day that does not read is said, announced, and not applied', async () => {
  const bad = await auditPage({ from: '2026-02-30', to: 'yesterday' });
  assert.equal(bad.status, 200);
  assert.match(bad.html, /role="alert">“From” is not a date: use YYYY-MM-DD. “To” is not a date/);
  assert.equal(bad.rows.length, 4);
  const reversed = await auditPage({ from: '2026-05-03', to: '2026-05-01' });
  assert.match(reversed.html, /“From” is after “To”/);
  assert.deepEqual(reversed.rows, []);
});

test('200 entries a page: "Older" pages back by an opaque cursor keeping the filters, until the oldest; a cursor that does not read is said', async () => {
  const org = await h.store.createOrganisation('Busy');
  const user = (await h.store.createUser({ orgId: org.id, email: 'bo@busy.example', role: 'viewer' }))!;
  const busy = randomBytes(24).toString('base64url');
  await h.store.createDashboardSession({ idHash: sha256Hex(busy), userId: user.id, at: new Date() });
  // 450 entries, every other one a key created: key_0 is the oldest, key_449 the newest.
  for (let i = 0; i < 450; i++) {
    await h.store.recordAudit({
      orgId: org.id,
      address: null,
      at: new Date(Date.UTC(2026, 5, 1, 0, 0, i)).toISOString(),
      actor: 'operator CLI',
      action: i % 2 ? 'key.revoked' : 'key.created',
      target: `key_${i} "K${i}"`,
      details: null,
    });
  }
  const keyNumbers = (rows: string[]) => rows.map((r) => Number(/“K(\d+)”/.exec(r)![1]));
  const olderOf = (html: string) =>
    /<a href="\/dashboard\/audit\?([^"]*)" rel="next">Older<\/a>/.exec(html)?.[1]?.replace(/&amp;/g, '&') ?? null;
  const range = (from: number, to: number, step = 1) =>
    Array.from({ length: Math.floor((from - to) / step) + 1 }, (_, i) => from - i * step);

  const pages: number[][] = [];
  let query: Record<string, string> | null = {};
  while (query) {
    const page = await auditPage(query, busy);
    pages.push(keyNumbers(page.rows));
    const older = olderOf(page.html);
    query = older === null ? null : Object.fromEntries(new URLSearchParams(older));
  }
  assert.deepEqual(pages, [range(449, 250), range(249, 50), range(49, 0)]);

  // With a filter: the Older link keeps it, and its cursor is no entry id in plain sight.
  const first = await auditPage({ action: 'key.created' }, busy);
  assert.deepEqual(keyNumbers(first.rows), range(448, 50, 2));
  const older = new URLSearchParams(olderOf(first.html)!);
  assert.equal(older.get('action'), 'key.created');
  assert.doesNotMatch(older.get('older')!, /^\d+$/);
  const second = await auditPage(Object.fromEntries(older), busy);
  assert.deepEqual(keyNumbers(second.rows), range(48, 0, 2));
  assert.equal(olderOf(second.html), null, 'the oldest page has no Older link');
  assert.match(second.html, /<a href="\/dashboard\/audit\?action=key.created">Newest<\/a>/);

  const bad = await auditPage({ older: 'not-a-cursor' }, busy);
  assert.match(bad.html, /role="alert">That “Older” link does not read; the newest entries are shown/);
  assert.deepEqual(keyNumbers(bad.rows), range(449, 250));
  // A cursor made up to point past everything still reads only the viewer's organisation.
  const madeUp = await auditPage({ older: Buffer.from(`audit:${Number.MAX_SAFE_INTEGER}`).toString('base64url') });
  assert.deepEqual(madeUp.rows, [REVOKED, WRITTEN, ROTATED, CREATED]);
});
