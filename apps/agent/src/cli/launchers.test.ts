import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { EXEC_ARGV } from '../../build/sea.ts';

/**
 * The gateway and the agent run with a floor under V8's old-generation limit (docs/decisions.md,
 * "Speed"): without it, the page buffers in flight kept V8 marking the whole heap every ~25 pages,
 * a third of the agent's CPU in an export. Every way of starting them must pass the same flags, and
 * `pnpm bench` takes them from `pnpm start`, so a launcher that drifts is caught here.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');

const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
const startWords = scripts.start!.split(/\s+/);
const FLAGS = startWords.slice(1, startWords.indexOf('--import')).join(' ');

test('pnpm start passes the heap floor to node', () => {
  assert.equal(startWords[0], 'node');
  assert.match(FLAGS, /^--initial-old-space-size=\d+$/);
});

test('every launcher of the gateway and the agent passes the same node flags', () => {
  const launchers: Array<[string, string]> = [
    ['package.json "agent"', scripts.agent!],
    ['package.json "gateway"', scripts.gateway!],
    ['gp-agent shebang', read('apps/agent/src/cli/main.ts').split('\n')[0]!],
  ];
  for (const [name, line] of launchers) assert.ok(line.includes(`node ${FLAGS} --import tsx`), `${name}: ${line}`);
});

test('the single-file programs (which the systemd unit and the Windows service run) carry the same flags', () => {
  assert.equal(EXEC_ARGV.join(' '), FLAGS);
  assert.match(read('deploy/systemd/gp-agent.service'), /^ExecStart=\/opt\/gp-agent\/gp-agent run /m);
  assert.match(read('deploy/windows/gp-agent-service.xml'), /<executable>C:\\Program Files\\gp-agent\\gp-agent\.exe<\/executable>/);
});
