import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AuditEntry } from '../../infrastructure/store/store.ts';
import { AUDIT_ACTIONS, auditSentence, spanOf } from './auditSentence.ts';

const AT = '2026-05-01T10:00:00.000Z';
const entry = (action: string, target: string, details: Record<string, unknown> | null, actor = 'ann@acme.example'): AuditEntry => ({
  id: 1,
  orgId: 'org_1',
  at: AT,
  actor,
  action,
  target,
  details,
  address: null,
});
const inHours = (hours: number) => new Date(Date.parse(AT) + hours * 3600_000).toISOString();

test('each action the gateway records reads as a sentence', () => {
  const cases: [AuditEntry, string][] = [
    [
      entry(
        'record.created',
        'customers ACME001',
        { keyId: 'key_1', keyName: 'ERP sync', object: 'customers', recordId: 'ACME001' },
        'API key key_1',
      ),
      'Key “ERP sync” created customer ACME001',
    ],
    [
      entry('record.created', 'gl-entries', { keyId: 'key_1', keyName: 'ERP sync', object: 'gl-entries', recordId: null }, 'API key key_1'),
      'Key “ERP sync” created journal entry',
    ],
    [
      entry('key.created', 'key_1 "CI"', { mode: 'live', scopes: ['read', 'write'] }),
      'ann@acme.example created the live key “CI” (read, write)',
    ],
    [
      entry('key.rotated', 'key_1 "CI"', { oldWorksUntil: inHours(24) }),
      'ann@acme.example rotated the key “CI”, keeping the old one for 24 h',
    ],
    [
      entry('key.rotated', 'key_1 "CI"', { oldWorksUntil: inHours(168) }),
      'ann@acme.example rotated the key “CI”, keeping the old one for 7 d',
    ],
    [entry('key.rotated', 'key_1 "CI"', { oldWorksUntil: null }), 'ann@acme.example rotated the key “CI”, ending the old one at once'],
    [entry('key.old-secret.ended', 'key_1 "CI"', null), 'ann@acme.example ended the old secret of the key “CI”'],
    [entry('key.revoked', 'key_1 "CI"', null, 'operator CLI'), 'operator CLI revoked the key “CI”'],
    [
      entry('connection.created', 'conn_1 "Plant"', { defaultCompany: 'TWO' }),
      'ann@acme.example created the connection “Plant” (default company TWO)',
    ],
    [
      entry('connection.agent-token.rotated', 'conn_1 "Plant"', { oldWorksUntil: inHours(1) }),
      'ann@acme.example rotated the agent token of “Plant”, keeping the old one for 1 h',
    ],
    [entry('connection.agent-token.old-ended', 'conn_1 "Plant"', null), 'ann@acme.example ended the old agent token of “Plant”'],
    [entry('connection.agent-token.revoked', 'conn_1 "Plant"', null), 'ann@acme.example revoked the agent token of “Plant”'],
    [
      entry('connection.default-company.set', 'conn_1 "Plant"', { defaultCompany: null }),
      'ann@acme.example set the default company of “Plant” to none',
    ],
    [
      entry('connection.whitelist.set', 'conn_1 "Plant"', { objects: ['customers', 'sales-orders'] }),
      'ann@acme.example set the objects writable on “Plant” to customers, sales-orders',
    ],
    [entry('user.invited', 'bob@acme.example', { role: 'viewer' }), 'ann@acme.example invited bob@acme.example as viewer'],
    [entry('user.sign-in-link.made', 'bob@acme.example', null), 'ann@acme.example made a sign-in link for bob@acme.example'],
    [entry('user.role.set', 'bob@acme.example', { role: 'admin' }), 'ann@acme.example made bob@acme.example an admin'],
    [entry('user.removed', 'bob@acme.example', null), 'ann@acme.example removed bob@acme.example'],
    [
      entry('oauth.approved', 'Claude (grant_1)', { clientId: 'c', connection: 'conn_1', scopes: ['read'] }),
      'ann@acme.example connected the app Claude (grant_1) to conn_1 (read)',
    ],
    [
      entry('oauth.revoked', 'Claude (grant_1)', { user: 'bob@acme.example', connection: 'conn_1', scopes: ['read'] }),
      'ann@acme.example disconnected the app Claude (grant_1), connected by bob@acme.example',
    ],
    [
      entry('organisation.limits.set', 'Acme', { requestsPerWindow: 500, maxInFlightPerConnection: null }, 'operator CLI'),
      'operator CLI set the limits of Acme: requestsPerWindow: 500; maxInFlightPerConnection: none',
    ],
    [
      entry('webhook.created', 'we_1 "https://erp.example.com/hooks"', {
        url: 'https://erp.example.com/hooks',
        events: ['customer.*', 'vendor.created'],
        connections: null,
        description: '',
      }),
      'ann@acme.example created the webhook endpoint “https://erp.example.com/hooks” (customer.*, vendor.created)',
    ],
    [
      entry('webhook.updated', 'we_1 "https://erp.example.com/hooks"', { events: [], connections: ['conn_1'] }),
      'ann@acme.example changed the webhook endpoint “https://erp.example.com/hooks” (every event of conn_1)',
    ],
    [
      entry('webhook.secret.rotated', 'we_1 "https://erp.example.com/hooks"', { oldSignsUntil: inHours(24) }, 'operator CLI'),
      'operator CLI rotated the signing secret of the webhook endpoint “https://erp.example.com/hooks”, keeping the old one signing for 24 h',
    ],
    [
      entry('webhook.disabled', 'we_1 "https://erp.example.com/hooks"', { reason: 'every delivery failed for 5 days' }, 'gateway'),
      'gateway disabled the webhook endpoint “https://erp.example.com/hooks”: every delivery failed for 5 days',
    ],
    [
      entry('webhook.enabled', 'we_1 "https://erp.example.com/hooks"', null),
      'ann@acme.example enabled the webhook endpoint “https://erp.example.com/hooks”',
    ],
    [
      entry('webhook.deleted', 'we_1 "https://erp.example.com/hooks"', null),
      'ann@acme.example deleted the webhook endpoint “https://erp.example.com/hooks” with its deliveries',
    ],
  ];
  for (const [e, sentence] of cases) assert.equal(auditSentence(e), sentence, e.action);
  const covered = new Set(cases.map(([e]) => e.action));
  for (const [action] of AUDIT_ACTIONS) assert.ok(covered.has(action), `a sentence for ${action}`);
  for (const [e] of cases) assert.doesNotMatch(auditSentence(e), /[{}]/, 'no JSON');
});

test('an action without a sentence lists its details readably, never as JSON', () => {
  assert.equal(
    auditSentence(
      entry('feature.later', 'fl_1 "Orders"', {
        url: 'https://example.com/hook',
        events: ['customer.created', 'customer.updated'],
        secret: null,
      }),
    ),
    'ann@acme.example: feature.later fl_1 "Orders" (url: https://example.com/hook; events: customer.created, customer.updated; secret: none)',
  );
  assert.equal(auditSentence(entry('something.else', 'x', null)), 'ann@acme.example: something.else x');
});

test('spans read as the rotation choices name them', () => {
  assert.deepEqual(
    [spanOf(30 * 60_000), spanOf(3600_000), spanOf(24 * 3600_000), spanOf(7 * 86_400_000)],
    ['30 min', '1 h', '24 h', '7 d'],
  );
});
