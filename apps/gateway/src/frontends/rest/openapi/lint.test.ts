import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { documentText } from './documentFile.ts';

const REDOCLY = createRequire(import.meta.url).resolve('@redocly/cli/bin/cli.js');
const NO_NETWORK = new URL('./noNetwork.mjs', import.meta.url).pathname;

test('the document lints clean with Redocly CLI and its recommended rules, without touching the network', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'openapi-lint-'));
  try {
    const file = path.join(dir, 'openapi.json');
    fs.writeFileSync(file, documentText());
    const run = await promisify(execFile)(
      process.execPath,
      ['--import', NO_NETWORK, REDOCLY, 'lint', file, '--extends', 'recommended', '--format', 'json', '--max-problems', '50'],
      // Telemetry and the update notice are off; the preload proves nothing else reaches out.
      { cwd: dir, env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' } },
    ).catch((error: { stdout: string; stderr: string; code: number }) => error);
    assert.doesNotMatch(run.stderr, /NETWORK ATTEMPT/, run.stderr);
    const report = JSON.parse(run.stdout) as {
      totals: { errors: number; warnings: number };
      problems: { ruleId: string; message: string }[];
    };
    assert.deepEqual(
      report.problems.map((p) => `${p.ruleId}: ${p.message}`),
      [],
      'no errors and no warnings',
    );
    assert.deepEqual(report.totals, { ...report.totals, errors: 0, warnings: 0 });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
