import type { Request } from 'express';
import { AdminError } from '../../core/admin/adminService.ts';
import { overlapEnd, ROTATION_OVERLAP_NAMES, type RotationOverlap } from '../../core/auth/rotationOverlap.ts';
import type { ConnectionWithPresence } from '../../infrastructure/store/store.ts';

/** What the dashboard's pages read from forms and the small texts they show. */

/** One string from a form field (the first when repeated), trimmed; '' when absent. */
export function field(req: Request, name: string): string {
  const value = (req.body as Record<string, unknown> | undefined)?.[name];
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' ? first.trim() : '';
}

/** Every value of a repeated form field (checkboxes). */
export function fields(req: Request, name: string): string[] {
  const value = (req.body as Record<string, unknown> | undefined)?.[name];
  return (Array.isArray(value) ? value : value === undefined ? [] : [value]).filter((v): v is string => typeof v === 'string');
}

export function secretShown(title: string, value: string, what: string) {
  return { title, value, explanation: `This ${what} is shown only now; only its hash is kept. Copy it before you leave this page.` };
}

export function problemOf(error: unknown): string {
  if (!(error instanceof AdminError)) throw error;
  return [error.message, ...error.problems.map((p) => `– ${p}`)].join('\n');
}

export function describeStatus(c: ConnectionWithPresence): string {
  const p = c.presence;
  if (p.connectedAgents > 0) return `${p.connectedAgents === 1 ? '1 agent' : `${p.connectedAgents} agents`} connected`;
  if (p.lastSeenAt === null) return c.id === 'sandbox' ? 'built-in demo agent not running' : 'no agent has connected yet';
  return `offline; last seen ${p.lastSeenAt.slice(0, 16).replace('T', ' ')} UTC`;
}

/** The overlap a rotation's confirmation offers first: a day, enough to deploy the new secret without an outage. */
const DEFAULT_OVERLAP: RotationOverlap = '24h';

const OVERLAP_LABELS: Record<RotationOverlap, string> = { now: 'At once', '1h': 'For 1 hour', '24h': 'For 24 hours', '7d': 'For 7 days' };

/** The overlaps a rotation's confirmation offers, each with the end it would have if rotated at `now`. */
export function overlapChoices(now: Date, what: string): { value: RotationOverlap; label: string; checked: boolean }[] {
  return ROTATION_OVERLAP_NAMES.map((value) => {
    const end = overlapEnd(value, now);
    const label = end
      ? `${OVERLAP_LABELS[value]}: the ${what} works until ${end.toISOString().slice(0, 16).replace('T', ' ')} UTC`
      : `${OVERLAP_LABELS[value]}: the ${what} stops working now`;
    return { value, label, checked: value === DEFAULT_OVERLAP };
  });
}

/** A `YYYY-MM-DD` day that exists, as the start of that UTC day; null otherwise. */
function dayStart(day: string): Date | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return null;
  const at = new Date(`${day}T00:00:00.000Z`);
  return Number.isNaN(at.getTime()) || at.toISOString().slice(0, 10) !== day ? null : at;
}

/**
 * The `from` and `to` days of a GET query (UTC, both included) as a time range (`since` included,
 * `before` not), with what does not read said in `problems` and left out of the range.
 */
export function dayRangeOf(req: Request): { from: string; to: string; since?: string; before?: string; problems: string[] } {
  const text = (name: string) => (typeof req.query[name] === 'string' ? req.query[name].trim().slice(0, 20) : '');
  const [from, to] = [text('from'), text('to')];
  const [start, end] = [from ? dayStart(from) : null, to ? dayStart(to) : null];
  const problems: string[] = [];
  if (from && !start) problems.push('“From” is not a date: use YYYY-MM-DD.');
  if (to && !end) problems.push('“To” is not a date: use YYYY-MM-DD.');
  if (start && end && start > end) problems.push('“From” is after “To”: nothing can match.');
  return {
    from,
    to,
    ...(start ? { since: start.toISOString() } : {}),
    ...(end ? { before: new Date(end.getTime() + 86_400_000).toISOString() } : {}),
    problems,
  };
}
