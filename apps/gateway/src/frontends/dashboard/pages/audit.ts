import type { Request, Router } from 'express';
import type { AuditFilter } from '../../../infrastructure/store/store.ts';
import { apiKeyActor } from '../../../core/writes/writeAudit.ts';
import { AUDIT_ACTIONS, auditSentence } from '../auditSentence.ts';
import type { PageContext } from '../pageContext.ts';
import { dayRangeOf } from '../pageParts.ts';
import { render } from '../views.ts';

/** The audit page lists this many entries a page, newest first. */
const AUDIT_SHOWN = 200;

/** The filter's form as the page was asked for it (GET query), and the problems of what does not read. */
interface AuditQuery {
  form: { actor: string; action: string; from: string; to: string };
  filter: AuditFilter;
  /** The page's older bound from its `older` cursor; absent on the first page. */
  beforeId?: number;
  problems: string[];
}

/**
 * The "Older" link's cursor: opaque to the browser (an entry id in base64url), not signed. It only
 * says "entries before this one"; the store reads them within the signed-in user's organisation and
 * with the filters of the query, so an altered cursor shows nothing a user could not page to.
 */
const auditCursor = (id: number): string => Buffer.from(`audit:${id}`).toString('base64url');

/** The entry id of a cursor auditCursor made, or null for anything else. */
function auditCursorId(cursor: string): number | null {
  const id = /^audit:([1-9]\d{0,15})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'))?.[1];
  return id !== undefined && Number.isSafeInteger(Number(id)) ? Number(id) : null;
}

/** Reads the filter from the query: actor and action exactly, `from` and `to` as UTC days, both included. */
function auditQueryOf(req: Request): AuditQuery {
  const text = (name: string) => {
    const value = req.query[name];
    return typeof value === 'string' ? value.trim().slice(0, 320) : '';
  };
  const days = dayRangeOf(req);
  const form = { actor: text('actor'), action: text('action'), from: days.from, to: days.to };
  const filter: AuditFilter = {};
  if (form.actor) filter.actor = form.actor;
  if (form.action) filter.action = form.action;
  if (days.since) filter.since = days.since;
  if (days.before) filter.before = days.before;
  const problems = days.problems;
  const older = typeof req.query.older === 'string' ? req.query.older.slice(0, 100) : '';
  const beforeId = older ? auditCursorId(older) : null;
  if (older && beforeId === null) problems.push('That “Older” link does not read; the newest entries are shown.');
  return { form, filter, problems, ...(beforeId !== null ? { beforeId } : {}) };
}

/** The audit page's address with the form's filters (those given) and, for an older page, its cursor. */
function auditHref(form: AuditQuery['form'], older?: string): string {
  const query = new URLSearchParams(Object.entries(form).filter(([, value]) => value !== ''));
  if (older) query.set('older', older);
  const text = query.toString();
  return text ? `/dashboard/audit?${text}` : '/dashboard/audit';
}

/** The audit log: who changed what in the organisation, newest first, as sentences, filtered by actor, action and days. */
export function auditPages(router: Router, { admin, frame, signedIn, userOf }: PageContext): void {
  router.get('/audit', signedIn, async (req, res) => {
    const orgId = userOf(res).orgId;
    const query = auditQueryOf(req);
    const [entries, users, keys] = await Promise.all([
      // One more than shown tells whether there is an older page.
      admin.listAudit(orgId, AUDIT_SHOWN + 1, { ...query.filter, ...(query.beforeId !== undefined ? { beforeId: query.beforeId } : {}) }),
      admin.listUsers(orgId),
      admin.listApiKeys(orgId),
    ]);
    // Who can have acted: the organisation's users, its keys (their API writes) and the operator CLI.
    const actors: [string, string][] = [
      ...users.map((u): [string, string] => [u.email, u.email]),
      ...keys.map((k): [string, string] => [apiKeyActor(k.id), `key “${k.name}” (${k.prefix}…)`]),
      ['operator CLI', 'operator CLI'],
    ];
    if (query.form.actor && !actors.some(([value]) => value === query.form.actor)) actors.push([query.form.actor, query.form.actor]);
    render(res, 200, 'audit', await frame(res), {
      title: 'Audit log',
      page: 'audit',
      entries: entries.slice(0, AUDIT_SHOWN).map((entry) => ({ ...entry, sentence: auditSentence(entry) })),
      paging: {
        older: entries.length > AUDIT_SHOWN ? auditHref(query.form, auditCursor(entries[AUDIT_SHOWN - 1]!.id)) : null,
        newest: query.beforeId !== undefined ? auditHref(query.form) : null,
      },
      form: query.form,
      filtered: Object.keys(query.filter).length > 0,
      actors,
      actions: AUDIT_ACTIONS,
      shown: AUDIT_SHOWN,
      ...(query.problems.length ? { problem: query.problems.join(' ') } : {}),
    });
  });
}
