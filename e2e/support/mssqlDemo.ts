import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sql from 'mssql';
import { generateDemo } from '@gp-gateway/gp-demo';
import { loadDemoIntoSqlServer } from '@gp-gateway/gp-demo/mssql';

/**
 * The start of a gated SQL Server suite: SQL Server at `url` reachable (a set but unreachable
 * MSSQL_URL fails the suite loudly rather than skipping it), then the scale-1 demo generated in a new
 * temporary folder named `prefix…` and loaded into it (DYNAMICS, TWO and NWIND dropped and recreated).
 */
export async function loadDemoIntoReachableSqlServer(url: string, prefix: string): Promise<{ dir: string; demo: string }> {
  try {
    const probe = await new sql.ConnectionPool(url).connect();
    await probe.close();
  } catch (error) {
    assert.fail(
      `MSSQL_URL is set but SQL Server cannot be reached: ${(error as Error).message}. Start one with: docker compose -f deploy/mssql/docker-compose.yml up -d`,
    );
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const demo = path.join(dir, 'demo');
  generateDemo({ dir: demo, scale: 1 });
  await loadDemoIntoSqlServer(url, demo);
  return { dir, demo };
}
