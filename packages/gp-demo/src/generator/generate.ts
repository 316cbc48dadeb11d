/**
 * Builds the demo databases: DYNAMICS.sqlite plus one <INTERID>.sqlite per company. Everything is
 * built in a temporary sibling folder and renamed into place at the end, the system database
 * last, so a crash never leaves a half-written set that a later start would take for complete.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { DEFAULT_ACCOUNT_FRAMEWORK, GP_TABLES, sqliteSchemaVersion, type AccountFramework } from '@gp-gateway/gp-schema';
import { DEMO_COMPANIES, SYSTEM_DATABASE_NAME } from './companies.ts';
import { buildCompanyDatabase } from './companyDatabase.ts';
import type { ProgressListener } from './progress.ts';
import { startPhase } from './progress.ts';
import { buildSystemDatabase } from './systemDatabase.ts';

export { DEMO_COMPANIES, demoAccountFramework, SYSTEM_DATABASE_NAME } from './companies.ts';
export type { DemoCompany } from './companies.ts';
export type { GenerateProgress, ProgressListener } from './progress.ts';

export interface GenerateOptions {
  dir: string;
  /**
   * Integer >= 1. Per company and unit of scale: 500 customers, 5,000 GL lines, 150 vendors, 300
   * items, and documents (receivables/payables from the GL plus extras, ~300 sales documents, 150
   * purchase orders). Setup tables (terms, salespeople, sites, checkbooks, fiscal periods) do not scale.
   */
  scale?: number;
  seed?: number;
  /**
   * GP's account framework for the whole demo (it is one per GP install): how many segments account
   * numbers have and how long each is. The GP 2015 sample's four (5/5/3/3) by default;
   * demoAccountFramework(n) gives one of n segments.
   */
  accountFramework?: AccountFramework;
  onProgress?: ProgressListener;
}

export interface GenerateResult {
  systemDatabase: string;
  /** INTERID -> path. */
  companyDatabases: Record<string, string>;
  /** Database (DYNAMICS or INTERID) -> table -> rows. */
  counts: Record<string, Record<string, number>>;
}

const DEFAULT_DEMO_SEED = 1;

/** Thrown when `dir` already holds a complete demo; the caller decides whether to reuse it. */
export class DemoExistsError extends Error {
  readonly code = 'DEMO_EXISTS';

  constructor(readonly dir: string) {
    super(`a complete demo already exists in ${dir}`);
    this.name = 'DemoExistsError';
  }
}

/** Raised whenever the generator writes other rows into the same schema (2: GL lines in the base ledger). */
const DEMO_DATA_VERSION = 2;

/**
 * A short hash of the demo databases' SQLite schema (gp-schema's sqliteSchemaVersion) and the
 * generator's data version, for caches of generated demos: one built from another schema or by an
 * earlier generator is not what the agent reads today.
 */
export function demoSchemaVersion(): string {
  return `${sqliteSchemaVersion(Object.values(GP_TABLES))}-data${DEMO_DATA_VERSION}`;
}

export function demoDatabasePaths(dir: string): { systemDatabase: string; companyDatabases: Record<string, string> } {
  return {
    systemDatabase: path.join(dir, `${SYSTEM_DATABASE_NAME}.sqlite`),
    companyDatabases: Object.fromEntries(DEMO_COMPANIES.map((c) => [c.id, path.join(dir, `${c.id}.sqlite`)])),
  };
}

/** True when every demo database file is present (generateDemo only ever publishes whole sets). */
function hasCompleteDemo(dir: string): boolean {
  const paths = demoDatabasePaths(dir);
  return [paths.systemDatabase, ...Object.values(paths.companyDatabases)].every((file) => fs.existsSync(file));
}

export function generateDemo(options: GenerateOptions): GenerateResult {
  const { dir, scale = 1, seed = DEFAULT_DEMO_SEED, accountFramework: framework = DEFAULT_ACCOUNT_FRAMEWORK, onProgress } = options;
  if (!Number.isSafeInteger(scale) || scale < 1) throw new RangeError(`scale must be an integer >= 1, got ${scale}`);
  if (!Number.isSafeInteger(seed)) throw new RangeError(`seed must be an integer, got ${seed}`);
  if (hasCompleteDemo(dir)) throw new DemoExistsError(dir);

  const parent = path.dirname(path.resolve(dir));
  fs.mkdirSync(parent, { recursive: true });
  // Not mkdtemp: its 0700 mode would stick to `dir` when the folder is renamed into place.
  const staging = path.join(parent, `.${path.basename(dir)}.building-${randomUUID()}`);
  fs.mkdirSync(staging);
  try {
    const built = demoDatabasePaths(staging);
    const counts: Record<string, Record<string, number>> = {};
    for (const company of DEMO_COMPANIES) {
      counts[company.id] = buildCompanyDatabase(built.companyDatabases[company.id] as string, company, {
        seed,
        scale,
        framework,
        onProgress,
      });
    }
    const systemProgress = startPhase(onProgress, `${SYSTEM_DATABASE_NAME} companies`, DEMO_COMPANIES.length);
    counts[SYSTEM_DATABASE_NAME] = buildSystemDatabase(built.systemDatabase, DEMO_COMPANIES, framework);
    systemProgress.tick(DEMO_COMPANIES.length);
    systemProgress.finish();

    publish(staging, dir);
    return { ...demoDatabasePaths(dir), counts };
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

/**
 * Moves the built files into `dir`. A missing `dir` is replaced by the staging folder in one
 * rename. Otherwise files move one by one: the old system database goes first and the new one
 * arrives last, so until the very end the set is incomplete and will be rebuilt after a crash.
 */
function publish(staging: string, dir: string): void {
  if (!fs.existsSync(dir)) {
    fs.renameSync(staging, dir);
    return;
  }
  const from = demoDatabasePaths(staging);
  const to = demoDatabasePaths(dir);
  removeDatabaseFile(to.systemDatabase);
  const moves = [
    ...DEMO_COMPANIES.map((c) => [from.companyDatabases[c.id], to.companyDatabases[c.id]] as const),
    [from.systemDatabase, to.systemDatabase] as const,
  ];
  for (const [source, target] of moves) {
    if (!source || !target) throw new Error('demo paths are incomplete');
    // A stale -wal beside the target would be replayed into the new file by the next opener.
    removeDatabaseFile(target);
    fs.renameSync(source, target);
  }
}

function removeDatabaseFile(file: string): void {
  for (const suffix of ['-wal', '-shm', '-journal', '']) fs.rmSync(`${file}${suffix}`, { force: true });
}
