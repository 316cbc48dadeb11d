import type { ApiKey, DailyUsage } from '../../infrastructure/store/store.ts';

/** The status classes drawn, bottom to top, with their colour; anything else is `other`. */
const CLASSES = [
  { name: '2xx', colour: '#1e7a3c' },
  { name: '4xx', colour: '#c98a00' },
  { name: '5xx', colour: '#b3261e' },
  { name: 'other', colour: '#8a93a3' },
] as const;

export interface UsageChart {
  width: number;
  height: number;
  /** One stacked segment per status class per day that had requests. */
  segments: { x: number; y: number; width: number; height: number; colour: string; title: string }[];
  /** Day labels under some bars (every seventh, and the last). */
  labels: { x: number; text: string }[];
  /** The largest day's total, written beside the top of the axis. */
  max: number;
  legend: { name: string; colour: string }[];
  total: number;
}

const WIDTH = 720;
const HEIGHT = 180;
const BOTTOM = 20;

/**
 * Requests per UTC day over `days` days ending today, stacked by status class, as SVG geometry the
 * usage page draws (no chart library, no script: the page stays static).
 */
export function usageChart(usage: readonly DailyUsage[], days: number, today: Date = new Date()): UsageChart {
  const dayNames = Array.from({ length: days }, (_, i) =>
    new Date(today.getTime() - (days - 1 - i) * 86_400_000).toISOString().slice(0, 10),
  );
  const perDay = new Map(dayNames.map((d) => [d, new Map<string, number>()]));
  for (const row of usage) {
    const counts = perDay.get(row.day);
    if (!counts) continue;
    const name = CLASSES.some((c) => c.name === row.statusClass) ? row.statusClass : 'other';
    counts.set(name, (counts.get(name) ?? 0) + row.requests);
  }
  const totals = dayNames.map((d) => [...perDay.get(d)!.values()].reduce((a, b) => a + b, 0));
  const max = Math.max(1, ...totals);
  const slot = WIDTH / days;
  const plot = HEIGHT - BOTTOM;
  const segments: UsageChart['segments'] = [];
  dayNames.forEach((day, i) => {
    let top = plot;
    for (const c of CLASSES) {
      const n = perDay.get(day)!.get(c.name) ?? 0;
      if (!n) continue;
      const h = Math.max(1, (n / max) * (plot - 4));
      top -= h;
      segments.push({
        x: i * slot + 1,
        y: top,
        width: slot - 2,
        height: h,
        colour: c.colour,
        title: `${day}: ${n.toLocaleString('en')} × ${c.name}`,
      });
    }
  });
  // Weekly labels, and today's; a weekly one too close to today's would overlap it.
  const labelled = (i: number) => i === days - 1 || (i % 7 === 0 && days - 1 - i >= 4);
  const labels = dayNames.flatMap((day, i) => (labelled(i) ? [{ x: i * slot + slot / 2, text: day.slice(5) }] : []));
  return {
    width: WIDTH,
    height: HEIGHT,
    segments,
    labels,
    max,
    legend: CLASSES.map(({ name, colour }) => ({ name, colour })),
    total: totals.reduce((a, b) => a + b, 0),
  };
}

/** The counts of UTC days `firstDay` to `lastDay` (both included), of one key and one status class when given. */
export function usageMatching(
  usage: readonly DailyUsage[],
  filter: { firstDay: string; lastDay: string; keyId?: string; statusClass?: string },
): DailyUsage[] {
  return usage.filter(
    (d) =>
      d.day >= filter.firstDay &&
      d.day <= filter.lastDay &&
      (filter.keyId === undefined || d.keyId === filter.keyId) &&
      (filter.statusClass === undefined || d.statusClass === filter.statusClass),
  );
}

/** Each key's requests by status class over the counts given, for keys that made any. */
export function usageByKey(usage: readonly DailyUsage[], keys: readonly ApiKey[]) {
  return keys
    .map((k) => {
      const rows = usage.filter((d) => d.keyId === k.id);
      const of = (c: string) => rows.filter((d) => d.statusClass === c).reduce((n, d) => n + d.requests, 0);
      return {
        name: `${k.name} (${k.prefix}…)`,
        '2xx': of('2xx'),
        '4xx': of('4xx'),
        '5xx': of('5xx'),
        total: rows.reduce((n, d) => n + d.requests, 0),
      };
    })
    .filter((row) => row.total > 0);
}
