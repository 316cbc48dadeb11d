import type { Request, Router } from 'express';
import type { AuditFilter } from '../../../infrastructure/store/store.ts';
import { apiKeyActor } from '../../../core/writes/writeAudit.ts';
import { AUDIT_ACTIONS, auditSentence } from '../auditSentence.ts';
import type { PageContext } from '../pageContext.ts';
import { dayRangeOf } from '../pageParts.ts';
import { render } from '../views.ts';

/** The audit page lists this many entries, newest first. */
const AUDIT_SHOWN = 200;

/** The filter's form as the page was asked for it (GET query), and the problems of what does not read. */
interface AuditQuery {
  form: { actor: string; action: string; from: string; to: string };
  filter: AuditFilter;
  problems: string[];
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
  return { form, filter, problems };
}

/** The audit log: who changed what in the organisation, newest first, as sentences, filtered by actor, action and days. */
export function auditPages(router: Router, { admin, frame, signedIn, userOf }: PageContext): void {
  router.get('/audit', signedIn, async (req, res) => {
    const orgId = userOf(res).orgId;
    const query = auditQueryOf(req);
    const [entries, users, keys] = await Promise.all([
      admin.listAudit(orgId, AUDIT_SHOWN, query.filter),
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
      entries: entries.map((entry) => ({ ...entry, sentence: auditSentence(entry) })),
      form: query.form,
      filtered: Object.keys(query.filter).length > 0,
      actors,
      actions: AUDIT_ACTIONS,
      shown: AUDIT_SHOWN,
      ...(query.problems.length ? { problem: query.problems.join(' ') } : {}),
    });
  });
}
