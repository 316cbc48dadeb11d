import type { AuditEntry } from '../../infrastructure/store/store.ts';

/** Every action the audit log records, as the filter offers them, in the words of the filter's list. */
export const AUDIT_ACTIONS: readonly (readonly [string, string])[] = [
  ['record.created', 'record created through the API'],
  ['key.created', 'key created'],
  ['key.rotated', 'key rotated'],
  ['key.old-secret.ended', 'old key secret ended'],
  ['key.revoked', 'key revoked'],
  ['connection.created', 'connection created'],
  ['connection.agent-token.rotated', 'agent token rotated'],
  ['connection.agent-token.old-ended', 'old agent token ended'],
  ['connection.agent-token.revoked', 'agent token revoked'],
  ['connection.default-company.set', 'default company set'],
  ['connection.whitelist.set', 'write whitelist set'],
  ['user.invited', 'user invited'],
  ['user.sign-in-link.made', 'sign-in link made'],
  ['user.role.set', 'role changed'],
  ['user.removed', 'user removed'],
  ['oauth.approved', 'app connected (OAuth)'],
  ['oauth.revoked', 'app disconnected (OAuth)'],
  ['organisation.limits.set', 'limits set'],
  ['webhook.created', 'webhook endpoint created'],
  ['webhook.updated', 'webhook endpoint changed'],
  ['webhook.secret.rotated', 'webhook secret rotated'],
  ['webhook.disabled', 'webhook endpoint disabled'],
  ['webhook.enabled', 'webhook endpoint enabled'],
  ['webhook.deleted', 'webhook endpoint deleted'],
];

/** Words for an object's record in "created customer ACME001". */
const RECORD_NOUNS: Record<string, string> = {
  customers: 'customer',
  'customer-addresses': 'customer address',
  vendors: 'vendor',
  'vendor-addresses': 'vendor address',
  'sales-orders': 'sales document',
  'ar-invoices': 'receivables document',
  'ap-invoices': 'payables document',
  'gl-entries': 'journal entry',
};

/** A time span as the rotation choices name it: `24 h`, `7 d`, `30 min`. */
export function spanOf(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.round(minutes / 60);
  return hours < 48 ? `${hours} h` : `${Math.round(hours / 24)} d`;
}

/** The name in a target written as `<id> "<name>"` (keys, connections); the whole target otherwise. */
function nameIn(target: string): string {
  const quoted = /^\S+ "(.*)"$/s.exec(target);
  return quoted ? quoted[1]! : target;
}

const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** A detail's value in words: lists joined, nothing as "none". */
function valueOf(value: unknown): string {
  if (value === null || value === undefined) return 'none';
  if (Array.isArray(value)) return value.length ? value.map(valueOf).join(', ') : 'none';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** Details as a readable list, `name: value; …`, for an action the page has no sentence for. */
function detailsList(details: Record<string, unknown> | null): string {
  if (!details) return '';
  return Object.entries(details)
    .map(([name, value]) => `${name}: ${valueOf(value)}`)
    .join('; ');
}

/**
 * An audit entry as one sentence ("ann@acme.example rotated the key “CI”, keeping the old one for
 * 24 h"; "Key “ERP sync” created customer ACME001"). An action without a sentence reads as who did
 * what to which, with its details listed.
 */
export function auditSentence(entry: AuditEntry): string {
  const who = entry.actor;
  const d = entry.details ?? {};
  const name = `“${nameIn(entry.target)}”`;
  const kept = (until: unknown, what: string): string => {
    const end = str(until);
    if (!end) return `, ending the old ${what} at once`;
    return `, keeping the old ${what} for ${spanOf(Date.parse(end) - Date.parse(entry.at))}`;
  };
  switch (entry.action) {
    case 'record.created': {
      const object = str(d.object) ?? entry.target.split(' ')[0]!;
      const noun = RECORD_NOUNS[object] ?? object;
      const id = str(d.recordId);
      const key = str(d.keyName);
      return `${key === null ? who : `Key “${key}”`} created ${noun}${id === null ? '' : ` ${id}`}`;
    }
    case 'key.created':
      return `${who} created the ${str(d.mode) ?? ''} key ${name}${Array.isArray(d.scopes) ? ` (${valueOf(d.scopes)})` : ''}`.replace(
        '  ',
        ' ',
      );
    case 'key.rotated':
      return `${who} rotated the key ${name}${kept(d.oldWorksUntil, 'one')}`;
    case 'key.old-secret.ended':
      return `${who} ended the old secret of the key ${name}`;
    case 'key.revoked':
      return `${who} revoked the key ${name}`;
    case 'connection.created':
      return `${who} created the connection ${name}${str(d.defaultCompany) ? ` (default company ${str(d.defaultCompany)})` : ''}`;
    case 'connection.agent-token.rotated':
      return `${who} rotated the agent token of ${name}${kept(d.oldWorksUntil, 'one')}`;
    case 'connection.agent-token.old-ended':
      return `${who} ended the old agent token of ${name}`;
    case 'connection.agent-token.revoked':
      return `${who} revoked the agent token of ${name}`;
    case 'connection.default-company.set':
      return `${who} set the default company of ${name} to ${valueOf(d.defaultCompany)}`;
    case 'connection.whitelist.set':
      return `${who} set the objects writable on ${name} to ${valueOf(d.objects)}`;
    case 'user.invited':
      return `${who} invited ${entry.target}${str(d.role) ? ` as ${str(d.role)}` : ''}`;
    case 'user.sign-in-link.made':
      return `${who} made a sign-in link for ${entry.target}`;
    case 'user.role.set':
      return `${who} made ${entry.target} ${str(d.role) === 'admin' ? 'an admin' : `a ${valueOf(d.role)}`}`;
    case 'user.removed':
      return `${who} removed ${entry.target}`;
    case 'oauth.approved':
      return `${who} connected the app ${entry.target} to ${valueOf(d.connection)} (${valueOf(d.scopes)})`;
    case 'oauth.revoked':
      return `${who} disconnected the app ${entry.target}${str(d.user) ? `, connected by ${str(d.user)}` : ''}`;
    case 'organisation.limits.set':
      return `${who} set the limits of ${entry.target}: ${detailsList(entry.details)}`;
    case 'webhook.created':
    case 'webhook.updated': {
      const events = Array.isArray(d.events) && d.events.length ? valueOf(d.events) : 'every event';
      const connections = Array.isArray(d.connections) ? ` of ${valueOf(d.connections)}` : '';
      const verb = entry.action === 'webhook.created' ? 'created' : 'changed';
      return `${who} ${verb} the webhook endpoint ${name} (${events}${connections})`;
    }
    case 'webhook.secret.rotated':
      return `${who} rotated the signing secret of the webhook endpoint ${name}${kept(d.oldSignsUntil, 'one signing')}`;
    case 'webhook.disabled':
      return `${who} disabled the webhook endpoint ${name}${str(d.reason) ? `: ${str(d.reason)}` : ''}`;
    case 'webhook.enabled':
      return `${who} enabled the webhook endpoint ${name}`;
    case 'webhook.deleted':
      return `${who} deleted the webhook endpoint ${name} with its deliveries`;
    default: {
      const list = detailsList(entry.details);
      return `${who}: ${entry.action} ${entry.target}${list ? ` (${list})` : ''}`;
    }
  }
}
