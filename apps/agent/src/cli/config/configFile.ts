import fs from 'node:fs';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { CONFIG_ENV, ConfigError, SETTINGS, type Raw } from './settings.ts';

/**
 * Reads the configuration file named by --config or GP_AGENT_CONFIG: `NAME = value` lines (read by
 * Node's own env-file parser, `util.parseEnv`, the rules of `node --env-file`), or one JSON object
 * when the name ends in .json. An unreadable or malformed file, or a name that is no setting, is a
 * ConfigError naming the line.
 */
export function readConfigFile(file: string): Map<string, Raw> {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8').replace(/^\uFEFF/, '');
  } catch (error) {
    throw new ConfigError([
      `the configuration file ${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}): check --config or ${CONFIG_ENV}`,
    ]);
  }
  const base = path.basename(file);
  const entries = file.toLowerCase().endsWith('.json') ? jsonEntries(text, file, base) : envEntries(text, base);
  const known = new Set<string>(Object.values(SETTINGS).map((s) => s.name));
  const issues: string[] = [];
  const values = new Map<string, Raw>();
  for (const entry of entries) {
    if ('issue' in entry) issues.push(entry.issue);
    else if (!known.has(entry.key))
      issues.push(`${entry.from}: ${entry.key} is not a setting of the agent; the settings are ${[...known].join(', ')}`);
    else values.set(entry.key, { value: entry.value, from: entry.from });
  }
  if (issues.length) throw new ConfigError(issues);
  return values;
}

/** The file's settings and problems, in the file's order. */
type Entries = ({ key: string; value: string; from: string } | { issue: string })[];

/**
 * Each line on its own through `util.parseEnv`, so that a message can name its line. Lines starting
 * with `;` are comments too (the INI habit of Windows administrators). A `#` outside quotes starts a
 * comment for parseEnv; the file predates that rule, so an unquoted value holding one is refused
 * rather than silently cut (a password with a # would otherwise fail far from its cause).
 */
function envEntries(text: string, base: string): Entries {
  const entries: Entries = [];
  text.split(/\r?\n/).forEach((line, i) => {
    const trimmed = line.trim();
    if (!trimmed || trimmed.startsWith('#') || trimmed.startsWith(';')) return;
    const from = `${base} line ${i + 1}`;
    const parsed = Object.entries(parseEnv(trimmed));
    const assignment = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/.exec(trimmed);
    if (parsed.length !== 1 || !assignment)
      return void entries.push({ issue: `${from}: expected NAME = value, e.g. GP_GATEWAY_URL = https://gateway.example.com` });
    const [key, value = ''] = parsed[0]!;
    const written = assignment[2]!;
    if (!/^["'`]/.test(written) && written.includes('#'))
      return void entries.push({
        issue: `${from}: ${key}'s value holds a #, which starts a comment unless the value is in quotes: write ${key} = "…"`,
      });
    entries.push({ key, value, from });
  });
  return entries;
}

function jsonEntries(text: string, file: string, base: string): Entries {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ConfigError([`the configuration file ${file} is not valid JSON: ${(error as Error).message}`]);
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    throw new ConfigError([`the configuration file ${file} must hold one JSON object`]);
  const entries: Entries = [];
  for (const [key, value] of Object.entries(json)) {
    if (typeof value !== 'string' && typeof value !== 'number') entries.push({ issue: `${base}: ${key} must be a string or a number` });
    else entries.push({ key, value: String(value), from: base });
  }
  return entries;
}
