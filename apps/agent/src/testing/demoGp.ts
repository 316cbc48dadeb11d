import { after, before } from 'node:test';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { generateDemo } from '@gp-gateway/gp-demo';
import { SqliteExecutor } from '../db/sqliteExecutor.ts';
import { ReadService } from '../service/readService.ts';

/** The demo GP of one test file: read through the agent, and changed on its own connection to TWO as GP changes it. */
export interface DemoGp {
  readonly dir: string;
  executor: SqliteExecutor;
  service: ReadService;
  gp: Database.Database;
}

/**
 * Generates the demo GP (scale 1) into a fresh temporary folder before the file's tests and removes
 * it after them. The fields are set in `before`, so tests read them as `demo.executor`, not by
 * destructuring at the top of the file.
 */
export function demoGp(prefix: string): DemoGp {
  const demo = { dir: fs.mkdtempSync(path.join(os.tmpdir(), prefix)) } as DemoGp;
  before(() => {
    generateDemo({ dir: demo.dir, scale: 1 });
    demo.executor = new SqliteExecutor({ dir: demo.dir });
    demo.service = new ReadService(demo.executor);
    demo.gp = new Database(path.join(demo.dir, 'TWO.sqlite'));
  });
  after(async () => {
    demo.gp.close();
    await demo.executor.close();
    fs.rmSync(demo.dir, { recursive: true, force: true });
  });
  return demo;
}
