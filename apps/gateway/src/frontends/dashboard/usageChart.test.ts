import { test } from 'node:test';
import assert from 'node:assert/strict';
import { usageChart } from './usageChart.ts';

test('the usage chart stacks each day by status class, scaled to the busiest day, over exactly the days asked for', () => {
  const today = new Date('2026-11-24T12:00:00Z');
  const row = (day: string, statusClass: string, requests: number) => ({ orgId: 'o', keyId: 'k', day, statusClass, requests });
  const chart = usageChart(
    [
      row('2026-11-24', '2xx', 30),
      row('2026-11-24', '4xx', 10),
      row('2026-11-23', '2xx', 20),
      row('2026-10-01', '2xx', 999),
      row('2026-11-22', '1xx', 5),
    ],
    30,
    today,
  );
  assert.equal(chart.total, 65, 'days outside the window do not count');
  assert.equal(chart.max, 40);
  const last = chart.segments.filter((s) => s.title.startsWith('2026-11-24'));
  assert.deepEqual(
    last.map((s) => s.title),
    ['2026-11-24: 30 × 2xx', '2026-11-24: 10 × 4xx'],
  );
  assert.ok(last[1]!.y < last[0]!.y, '4xx sits on top of 2xx');
  assert.ok(Math.abs(last[0]!.height + last[1]!.height - (chart.height - 20 - 4)) < 1e-9, 'the busiest day fills the plot');
  assert.equal(chart.segments.find((s) => s.title.startsWith('2026-11-22'))?.title, '2026-11-22: 5 × other');
  assert.deepEqual(
    chart.labels.map((l) => l.text),
    ['10-26', '11-02', '11-09', '11-16', '11-24'],
  );
});
