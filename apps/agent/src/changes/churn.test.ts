import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eventTypeOf } from '@gp-gateway/protocol';
import { churn, generateDemo } from '@gp-gateway/gp-demo';
import { SqliteExecutor } from '../db/sqliteExecutor.ts';
import { ReadService } from '../service/readService.ts';
import { catalogueRecords } from './catalogueRecords.ts';
import { ChangeDetector } from './changeDetector.ts';
import { ALL_TRACKED } from './allTracked.ts';

/**
 * `gp-demo churn` makes the changes it says it makes, and detection reports exactly the events churn
 * announces for them: what the sandbox's feed is checked against by hand.
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'churn-'));
let executor: SqliteExecutor;
let detector: ChangeDetector;

before(() => {
  generateDemo({ dir, scale: 1 });
  executor = new SqliteExecutor({ dir });
  detector = new ChangeDetector(executor, catalogueRecords(new ReadService(executor)), {
    rangeRows: 50,
    rangesPerPoll: 10_000,
    historyEvery: 1,
  });
});
after(async () => {
  await executor.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Every tracked object polled once; the events it found, as churn names them. */
async function pollAll(): Promise<string[]> {
  const events: string[] = [];
  for (const tracked of ALL_TRACKED) {
    const found = await detector.poll('TWO', tracked);
    found.commit();
    events.push(...found.changes.map((c) => `${eventTypeOf(tracked.object, c.kind)} ${c.id}`));
  }
  return events.sort();
}

test('each change churn makes is found by detection as exactly the events churn announces', async () => {
  assert.deepEqual(await pollAll(), [], 'learning');
  const kinds = new Set<string>();
  for (let i = 0; i < 40; i++) {
    const [change] = await churn(path.join(dir, 'TWO.sqlite'), { count: 1, seed: i });
    for (const event of change!.events) kinds.add(event.split(' ')[0]!);
    assert.deepEqual(await pollAll(), [...change!.events].sort(), change!.what);
  }
  assert.ok(kinds.size >= 8, `a mix of changes: ${[...kinds].join(', ')}`);
});
