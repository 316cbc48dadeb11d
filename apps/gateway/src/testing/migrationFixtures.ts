import assert from 'node:assert/strict';
import type { Kysely } from 'kysely';
import type { EngineKind } from '../infrastructure/store/sql/engine.ts';
import { storeMigrator } from '../infrastructure/store/sql/migrations.ts';

/** The creation time the fixtures give every row they write. */
export const FIXTURE_AT = '2026-01-01T00:00:00.000Z';

/**
 * Migrates an empty store database up to step 3 (0003_change_feed) and adds organisations org_a and
 * org_b: where each engine's test of step 7 (0007_users_per_org) adds its users, then migrates on.
 */
export async function twoOrganisationsAtStep3(db: Kysely<any>, kind: EngineKind): Promise<void> {
  assert.equal((await storeMigrator(db, kind).migrateTo('0003_change_feed')).error, undefined);
  await db
    .insertInto('organisations')
    .values([
      { id: 'org_a', name: 'Alpha', created_at: FIXTURE_AT },
      { id: 'org_b', name: 'Beta', created_at: FIXTURE_AT },
    ])
    .execute();
}
