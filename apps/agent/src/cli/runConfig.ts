import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { MSSQL_ISOLATION_LEVELS, type MssqlIsolation } from '../db/mssqlIsolation.ts';
import { DEFAULT_LOCK_TIMEOUT_MS } from '../db/mssqlExecutor.ts';
import { DEFAULT_SYSTEM_DATABASE, SYSTEM_DATABASE_NAME } from '../db/executor.ts';
import { WRITE_REQUEST_TIMEOUT_MS } from '../writes/mssql/mssqlWriter.ts';
import { DEFAULT_TIMINGS, type ConnectionTimings } from '../connection/dialGateway.ts';
import { faultFromEnv, type Fault } from '../writes/faults.ts';
import { DEFAULT_OVERLAP_MS } from '../changes/changeDetector.ts';
import { DEFAULT_CHANGE_SCHEDULE } from '../changes/changeReporter.ts';

/**
 * The agent's settings, from a configuration file, environment variables and flags: flags win over
 * the environment, the environment over the file. The file uses the environment variables' names
 * (`GP_GATEWAY_URL = https://…`), so there is one name per setting wherever it is given, and a file
 * in this form also works as a systemd EnvironmentFile. Messages name the setting and where its
 * value came from, because the reader is whoever installs the agent; they never repeat a secret.
 */

export interface SettingSpec {
  /** Environment variable and configuration-file key. */
  name: string;
  /** Flag of `gp-agent run`/`diagnose`, if any (commander's camelCase key and the flag as typed). */
  flag?: { key: string; text: string };
  /** A path: relative ones in the file are relative to the file's folder. */
  path?: boolean;
  /** Never shown in messages. */
  secret?: boolean;
}

export const SETTINGS = {
  gatewayUrl: { name: 'GP_GATEWAY_URL', flag: { key: 'gateway', text: '--gateway' } },
  token: { name: 'GP_AGENT_TOKEN', flag: { key: 'token', text: '--token' }, secret: true },
  tokenFile: { name: 'GP_AGENT_TOKEN_FILE', flag: { key: 'tokenFile', text: '--token-file' }, path: true },
  mssql: { name: 'GP_MSSQL_CONNECTION', flag: { key: 'mssql', text: '--mssql' }, secret: true },
  mssqlIsolation: { name: 'GP_MSSQL_ISOLATION' },
  mssqlLockTimeoutMs: { name: 'GP_MSSQL_LOCK_TIMEOUT_MS' },
  mssqlWriteTimeoutMs: { name: 'GP_MSSQL_WRITE_TIMEOUT_MS' },
  systemDatabase: { name: 'GP_SYSTEM_DATABASE' },
  sqliteDir: { name: 'GP_SQLITE_DIR', flag: { key: 'sqliteDir', text: '--sqlite-dir' }, path: true },
  logLevel: { name: 'LOG_LEVEL', flag: { key: 'logLevel', text: '--log-level' } },
  logFile: { name: 'GP_AGENT_LOG_FILE', flag: { key: 'logFile', text: '--log-file' }, path: true },
  heartbeatIntervalMs: { name: 'GP_AGENT_HEARTBEAT_INTERVAL_MS' },
  heartbeatTimeoutMs: { name: 'GP_AGENT_HEARTBEAT_TIMEOUT_MS' },
  backoffMinMs: { name: 'GP_AGENT_BACKOFF_MIN_MS' },
  backoffMaxMs: { name: 'GP_AGENT_BACKOFF_MAX_MS' },
  connectTimeoutMs: { name: 'GP_AGENT_CONNECT_TIMEOUT_MS' },
  drainGraceMs: { name: 'GP_AGENT_DRAIN_GRACE_MS' },
  statusIntervalMs: { name: 'GP_AGENT_STATUS_INTERVAL_MS' },
  sqliteWorkers: { name: 'GP_SQLITE_WORKERS' },
  allowWrites: { name: 'GP_AGENT_ALLOW_WRITES', flag: { key: 'allowWrites', text: '--allow-writes' } },
  changesIntervalMs: { name: 'GP_AGENT_CHANGES_INTERVAL_MS' },
  changesBudgetMs: { name: 'GP_AGENT_CHANGES_BUDGET_MS' },
  changesOverlapMs: { name: 'GP_AGENT_CHANGES_OVERLAP_MS' },
} as const satisfies Record<string, SettingSpec>;
type SettingKey = keyof typeof SETTINGS;
const TIMING_KEYS = [
  'heartbeatIntervalMs',
  'heartbeatTimeoutMs',
  'backoffMinMs',
  'backoffMaxMs',
  'connectTimeoutMs',
  'drainGraceMs',
  'statusIntervalMs',
] as const satisfies ReadonlyArray<SettingKey & keyof ConnectionTimings>;

/** Read from the environment only, never from a file: test hooks must not end up in an installed configuration. */
export const TEST_DELAY_ENV = 'GP_AGENT_TEST_DELAY_MS';
const CONFIG_ENV = 'GP_AGENT_CONFIG';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
const GATEWAY_URL = z.url({ protocol: /^(https?|wss?)$/ });
const AGENT_TOKEN = /^lb_agent_[0-9A-Za-z]{32}$/;
/** How a yes/no setting may be written in the file or the environment. */
const BOOLEAN_TEXT = new Map([
  ['true', true],
  ['yes', true],
  ['1', true],
  ['on', true],
  ['false', false],
  ['no', false],
  ['0', false],
  ['off', false],
]);

export type DatabaseConfig =
  | { kind: 'sqlite'; dir: string }
  | {
      kind: 'mssql';
      connection: string;
      isolation: MssqlIsolation;
      /** How long a read or a write waits for a lock (SET LOCK_TIMEOUT) before it answers ERP_UNAVAILABLE. */
      lockTimeoutMs: number;
      /** GP's system database (DYNAMICS unless GP was installed with a named one). */
      systemDatabase: string;
      /** How long one write request may run (GP_MSSQL_WRITE_TIMEOUT_MS); WRITE_REQUEST_TIMEOUT_MS unless set. */
      writeTimeoutMs?: number;
    };

export interface AgentConfig {
  gatewayUrl: string;
  token: string;
  database: DatabaseConfig;
  logLevel: (typeof LOG_LEVELS)[number];
  /** Null: JSON lines on standard output (journald, WinSW and docker collect and rotate them). */
  logFile: string | null;
  timings: ConnectionTimings;
  sqliteWorkers: number;
  /** Test-only slowness of SQLite statements on company databases; 0 in production. */
  testDelayMs: number;
  /** Test-only fault of the write path (GP_AGENT_FAULT, writes/faults.ts); null in production. */
  fault: Fault | null;
  /**
   * Whether this agent writes into GP (POST /v1/…): the customer's IT decides, with --allow-writes or
   * GP_AGENT_ALLOW_WRITES = true; off unless set.
   */
  allowWrites: boolean;
  /** Change detection (docs/decisions.md#change-feed): how often, within what budget, and how far back each poll looks again. */
  changes: { intervalMs: number; budgetMs: number; overlapMs: number };
  /** The configuration file read, if any. */
  configFile: string | null;
  /** What works but should change, for the log and the terminal (a token on the command line). */
  warnings: string[];
}

/** `--token` works, but every user of the server sees it in the process list (`ps`, Task Manager). */
const TOKEN_FLAG_WARNING =
  '--token shows the agent token to every user of this server in the process list (ps, Task Manager): ' +
  'put it in the configuration file (GP_AGENT_TOKEN = …, readable by administrators and the service account only), ' +
  'in the environment variable GP_AGENT_TOKEN, or in a file named by --token-file';

export class ConfigError extends Error {
  readonly issues: string[];
  constructor(issues: string[]) {
    super(issues.join('\n'));
    this.issues = issues;
  }
}

interface Raw {
  value: string;
  /** Where it came from, for messages: "--gateway", "environment", "gp-agent.conf line 3". */
  from: string;
}

/** Reads the file named by --config or GP_AGENT_CONFIG; an unreadable or malformed file is a ConfigError. */
export function readConfigFile(file: string): Map<string, Raw> {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8').replace(/^\uFEFF/, '');
  } catch (error) {
    throw new ConfigError([
      `the configuration file ${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}): check --config or ${CONFIG_ENV}`,
    ]);
  }
  const known = new Set<string>(Object.values(SETTINGS).map((s) => s.name));
  const base = path.basename(file);
  const values = new Map<string, Raw>();
  const issues: string[] = [];
  const put = (key: string, value: string, from: string) => {
    if (!known.has(key)) issues.push(`${from}: ${key} is not a setting of the agent; the settings are ${[...known].join(', ')}`);
    else values.set(key, { value, from });
  };
  if (file.toLowerCase().endsWith('.json')) {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      throw new ConfigError([`the configuration file ${file} is not valid JSON: ${(error as Error).message}`]);
    }
    if (typeof json !== 'object' || json === null || Array.isArray(json))
      throw new ConfigError([`the configuration file ${file} must hold one JSON object`]);
    for (const [key, value] of Object.entries(json)) {
      if (typeof value !== 'string' && typeof value !== 'number') issues.push(`${base}: ${key} must be a string or a number`);
      else put(key, String(value), base);
    }
  } else {
    text.split(/\r?\n/).forEach((line, i) => {
      const trimmed = line.trim();
      if (!trimmed || trimmed.startsWith('#') || trimmed.startsWith(';')) return;
      const m = /^([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/.exec(trimmed);
      const from = `${base} line ${i + 1}`;
      if (!m) return void issues.push(`${from}: expected NAME = value, e.g. GP_GATEWAY_URL = https://gateway.example.com`);
      put(m[1]!, unquote(m[2]!), from);
    });
  }
  if (issues.length) throw new ConfigError(issues);
  return values;
}

function unquote(value: string): string {
  const m = /^(["'])(.*)\1$/.exec(value);
  return m ? m[2]! : value;
}

/** Which settings a command needs: `run` and `diagnose` everything, `companies` and `query` only the database. */
export type ConfigNeeds = 'all' | 'database';

/** The settings given, each with where it came from: what messages name and quote. */
type Given = Partial<Record<SettingKey, Raw>>;

/** Flags over the environment, the environment over the file; empty flags and variables count as unset. */
function gather(flags: Record<string, string | undefined>, env: NodeJS.ProcessEnv, configFile: string | null): Given {
  const file = configFile ? readConfigFile(configFile) : new Map<string, Raw>();
  const given: Given = {};
  for (const [key, spec] of Object.entries(SETTINGS) as [SettingKey, SettingSpec][]) {
    // Commander gives a switch (--allow-writes) as `true`, a valued flag as its text.
    const raw: unknown = spec.flag ? flags[spec.flag.key] : undefined;
    const flag = raw === undefined ? undefined : String(raw);
    const fromEnv = env[spec.name];
    const fromFile = file.get(spec.name);
    if (flag !== undefined && flag !== '') given[key] = { value: flag, from: spec.flag!.text };
    else if (fromEnv !== undefined && fromEnv !== '') given[key] = { value: fromEnv, from: 'environment' };
    else if (fromFile)
      given[key] = spec.path && configFile ? { ...fromFile, value: path.resolve(path.dirname(configFile), fromFile.value) } : fromFile;
  }
  if (given.tokenFile) {
    if (given.token)
      throw new ConfigError([
        `both GP_AGENT_TOKEN (from ${given.token.from}) and GP_AGENT_TOKEN_FILE (from ${given.tokenFile.from}) are set: give one`,
      ]);
    given.token = { value: readTokenFile(given.tokenFile), from: `the token file ${given.tokenFile.value}` };
  }
  return given;
}

/** The token held by a file (its first line; a service manager's credential file has nothing else). */
function readTokenFile(setting: Raw): string {
  try {
    return fs
      .readFileSync(setting.value, 'utf8')
      .replace(/^\uFEFF/, '')
      .split(/\r?\n/)[0]!
      .trim();
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new ConfigError([`GP_AGENT_TOKEN_FILE (from ${setting.from}): ${setting.value} cannot be read (${reason})`]);
  }
}

/**
 * The schema of the settings given. Built for each load, because its messages say where each value
 * came from: `GP_AGENT_HEARTBEAT_INTERVAL_MS (from gp-agent.conf line 4): must be a whole number of
 * milliseconds from 50 to 600000; got "5s"`, a secret's value left out. A value that fails leaves
 * its default to the checks between settings, so that every problem is listed at once.
 */
function settingsSchema(given: Given) {
  /** The setting as the reader knows it: where it was given, or how to give it. */
  const where = (key: SettingKey) => {
    const spec: SettingSpec = SETTINGS[key];
    const how = spec.flag ? `${spec.flag.text} or ${spec.name}` : spec.name;
    return given[key] ? `${spec.name} (from ${given[key].from})` : how;
  };
  const problem = (key: SettingKey, message: string) => {
    const spec: SettingSpec = SETTINGS[key];
    const shown = given[key] && !spec.secret ? `; got "${given[key].value}"` : '';
    return `${where(key)}: ${message}${shown}`;
  };
  /** One check of the text, so that one message says what is wrong, and a value that fails stays text. */
  const wholeNumber = (key: SettingKey, min: number, max: number, unit = 'milliseconds') =>
    z
      .string()
      .trim()
      .refine((text) => /^\d+$/.test(text) && Number(text) >= min && Number(text) <= max, {
        error: () => problem(key, `must be a whole number of ${unit} from ${min} to ${max}`),
      })
      .transform(Number);
  /** A setting that must be given: missing, or empty in the file, it says how to give it instead. */
  const required = (key: SettingKey, missing: string, valid: (text: string) => boolean, message: string) =>
    z.string({ error: missing }).refine(valid, { error: (issue) => (issue.input === '' ? missing : problem(key, message)) });

  const database = z
    .object({
      mssql: z.string().optional(),
      mssqlIsolation: z
        .enum(MSSQL_ISOLATION_LEVELS, { error: () => problem('mssqlIsolation', `must be one of ${MSSQL_ISOLATION_LEVELS.join(', ')}`) })
        .default('read-committed'),
      // Longer than the gateway's request deadline (REQUEST_TIMEOUT_MS, 30 s) is allowed but pointless:
      // the client has had its 504 by then.
      mssqlLockTimeoutMs: wholeNumber('mssqlLockTimeoutMs', 0, 600_000).default(DEFAULT_LOCK_TIMEOUT_MS),
      // A write's own request timeout (mssql's default of 15 s cancelled long documents mid-check).
      mssqlWriteTimeoutMs: wholeNumber('mssqlWriteTimeoutMs', 1_000, 3_600_000).default(WRITE_REQUEST_TIMEOUT_MS),
      systemDatabase: z
        .string()
        .trim()
        .refine((text) => SYSTEM_DATABASE_NAME.test(text), {
          error: () =>
            problem(
              'systemDatabase',
              "must be the name of GP's system database as SQL Server has it (a letter or _, then letters, digits or _ $ # @, at most 128), e.g. DYNAMICS",
            ),
        })
        .optional(),
      sqliteDir: z.string().optional(),
    })
    .superRefine(
      ({ mssql, sqliteDir, systemDatabase }, ctx) => {
        if (sqliteDir && systemDatabase !== undefined && systemDatabase.toUpperCase() !== DEFAULT_SYSTEM_DATABASE)
          ctx.addIssue({
            code: 'custom',
            message: `${where('systemDatabase')}: names the system database on SQL Server; a SQLite folder always holds ${DEFAULT_SYSTEM_DATABASE}.sqlite`,
          });
        if (mssql && sqliteDir)
          ctx.addIssue({
            code: 'custom',
            message: `both ${where('mssql')} and ${where('sqliteDir')} are set: give one database, not both`,
          });
        else if (!mssql && !sqliteDir)
          ctx.addIssue({
            code: 'custom',
            message:
              'no database configured: pass --mssql <connection string> (env GP_MSSQL_CONNECTION) or --sqlite-dir <folder> (env GP_SQLITE_DIR), not both',
          });
      },
      { when: () => true },
    )
    .transform(({ mssql, mssqlIsolation, mssqlLockTimeoutMs, mssqlWriteTimeoutMs, systemDatabase, sqliteDir }): DatabaseConfig =>
      mssql
        ? {
            kind: 'mssql',
            connection: mssql,
            isolation: mssqlIsolation,
            lockTimeoutMs: mssqlLockTimeoutMs as number,
            writeTimeoutMs: mssqlWriteTimeoutMs as number,
            systemDatabase: systemDatabase ?? DEFAULT_SYSTEM_DATABASE,
          }
        : { kind: 'sqlite', dir: sqliteDir! },
    );

  const d = DEFAULT_TIMINGS;
  const timings = z
    .object({
      heartbeatIntervalMs: wholeNumber('heartbeatIntervalMs', 50, 600_000).default(d.heartbeatIntervalMs),
      heartbeatTimeoutMs: wholeNumber('heartbeatTimeoutMs', 100, 3_600_000).default(d.heartbeatTimeoutMs),
      backoffMinMs: wholeNumber('backoffMinMs', 10, 600_000).default(d.backoffMinMs),
      backoffMaxMs: wholeNumber('backoffMaxMs', 10, 3_600_000).default(d.backoffMaxMs),
      connectTimeoutMs: wholeNumber('connectTimeoutMs', 100, 600_000).default(d.connectTimeoutMs),
      drainGraceMs: wholeNumber('drainGraceMs', 0, 3_600_000).default(d.drainGraceMs),
      statusIntervalMs: wholeNumber('statusIntervalMs', 0, 86_400_000).default(d.statusIntervalMs),
    })
    .superRefine(
      (t, ctx) => {
        // A timing that failed its own check is still its text here: its default stands in for it.
        const valid = (key: keyof ConnectionTimings) => (typeof t[key] === 'number' ? t[key] : d[key]);
        if (given.heartbeatTimeoutMs && valid('heartbeatTimeoutMs') <= valid('heartbeatIntervalMs')) {
          const message = `must be longer than GP_AGENT_HEARTBEAT_INTERVAL_MS (${valid('heartbeatIntervalMs')}), or a single late pong drops the connection`;
          ctx.addIssue({ code: 'custom', message: problem('heartbeatTimeoutMs', message) });
        }
        if (given.backoffMaxMs && valid('backoffMaxMs') < valid('backoffMinMs')) {
          ctx.addIssue({
            code: 'custom',
            message: problem('backoffMaxMs', `must be at least GP_AGENT_BACKOFF_MIN_MS (${valid('backoffMinMs')})`),
          });
        }
      },
      { when: () => true },
    );

  return z.object({
    gatewayUrl: required(
      'gatewayUrl',
      'the gateway URL is missing: pass --gateway https://… or set GP_GATEWAY_URL',
      (text) => GATEWAY_URL.safeParse(text).success,
      "must be the gateway's http(s) URL, e.g. https://gateway.example.com",
    ),
    token: required(
      'token',
      'the agent token is missing: set GP_AGENT_TOKEN (in the configuration file or the environment) or pass --token-file <file>',
      (text) => AGENT_TOKEN.test(text),
      'the agent token must look like lb_agent_ followed by 32 letters and digits (as `gp-gateway connection create` printed it)',
    ),
    database,
    logLevel: z.enum(LOG_LEVELS, { error: () => problem('logLevel', `must be one of ${LOG_LEVELS.join(', ')}`) }).default('info'),
    logFile: z.string().optional(),
    timings,
    sqliteWorkers: wholeNumber('sqliteWorkers', 1, 64, 'threads').default(2),
    allowWrites: z
      .string()
      .trim()
      .toLowerCase()
      .refine((text) => BOOLEAN_TEXT.has(text), { error: () => problem('allowWrites', 'must be true or false') })
      .transform((text) => BOOLEAN_TEXT.get(text)!)
      .default(false),
    changes: z.object({
      intervalMs: wholeNumber('changesIntervalMs', 0, 86_400_000).default(DEFAULT_CHANGE_SCHEDULE.intervalMs),
      budgetMs: wholeNumber('changesBudgetMs', 1, 3_600_000).default(DEFAULT_CHANGE_SCHEDULE.budgetMs),
      overlapMs: wholeNumber('changesOverlapMs', 0, 7 * 86_400_000).default(DEFAULT_OVERLAP_MS),
    }),
    testDelayMs: z
      .string()
      .regex(/^\d+$/, `${TEST_DELAY_ENV} (from environment): must be a whole number of milliseconds (it is for tests only: unset it)`)
      .transform(Number)
      .default(0),
  });
}

/**
 * Collects every setting from flags, environment and file, validates them, and either returns the
 * configuration or throws one ConfigError listing every problem. The support commands (`needs`
 * 'database') leave the gateway and the timings out: a bad timing must not stop them.
 */
export function loadAgentConfig(
  flags: Record<string, string | undefined>,
  env: NodeJS.ProcessEnv,
  needs: ConfigNeeds = 'all',
): AgentConfig {
  const configFile = flags.config ?? env[CONFIG_ENV] ?? null;
  const given = gather(flags, env, configFile);
  const value = (key: SettingKey) => given[key]?.value;
  const input = {
    gatewayUrl: value('gatewayUrl'),
    token: value('token'),
    database: {
      mssql: value('mssql'),
      mssqlIsolation: value('mssqlIsolation'),
      mssqlLockTimeoutMs: value('mssqlLockTimeoutMs'),
      mssqlWriteTimeoutMs: value('mssqlWriteTimeoutMs'),
      systemDatabase: value('systemDatabase'),
      sqliteDir: value('sqliteDir'),
    },
    logLevel: value('logLevel'),
    logFile: value('logFile'),
    timings: Object.fromEntries(TIMING_KEYS.map((key) => [key, value(key)])),
    sqliteWorkers: value('sqliteWorkers'),
    allowWrites: value('allowWrites'),
    changes: { intervalMs: value('changesIntervalMs'), budgetMs: value('changesBudgetMs'), overlapMs: value('changesOverlapMs') },
    testDelayMs: env[TEST_DELAY_ENV] || undefined,
  };
  const schema = settingsSchema(given);
  const parsed = needs === 'all' ? schema.safeParse(input) : schema.omit({ gatewayUrl: true, token: true, timings: true }).safeParse(input);
  if (!parsed.success) throw new ConfigError(parsed.error.issues.map((issue) => issue.message));
  let fault: Fault | null;
  try {
    fault = faultFromEnv(env);
  } catch (error) {
    throw new ConfigError([(error as Error).message]);
  }
  const warnings = given.token?.from === SETTINGS.token.flag.text ? [TOKEN_FLAG_WARNING] : [];
  return {
    gatewayUrl: '',
    token: '',
    timings: DEFAULT_TIMINGS,
    ...parsed.data,
    logFile: parsed.data.logFile ?? null,
    fault,
    configFile,
    warnings,
  };
}

/** The lines of `--help` that list every setting, for the commands that read them. */
export function settingsHelp(): string {
  const d = DEFAULT_TIMINGS;
  return [
    '',
    'Settings (flag, or environment variable / configuration-file key; flags win over the environment,',
    `the environment over the file given with --config or ${CONFIG_ENV}):`,
    '  --gateway          GP_GATEWAY_URL                  the gateway, e.g. https://gateway.example.com',
    "  --token-file       GP_AGENT_TOKEN                  the connection's agent token, lb_agent_…, best in the file",
    '                     GP_AGENT_TOKEN_FILE             or a file holding it (--token works too, but shows it in ps)',
    '  --mssql            GP_MSSQL_CONNECTION             SQL Server connection string, or',
    '                     GP_MSSQL_ISOLATION              read-committed (default), snapshot or read-uncommitted',
    `                     GP_MSSQL_LOCK_TIMEOUT_MS        how long a read or write waits for GP's locks (default ${DEFAULT_LOCK_TIMEOUT_MS})`,
    `                     GP_MSSQL_WRITE_TIMEOUT_MS       how long one write may run on SQL Server (default ${WRITE_REQUEST_TIMEOUT_MS})`,
    `                     GP_SYSTEM_DATABASE              GP's system database on SQL Server (default ${DEFAULT_SYSTEM_DATABASE})`,
    '  --sqlite-dir       GP_SQLITE_DIR                   a folder of GP-shaped SQLite databases (demo)',
    '  --log-level        LOG_LEVEL                       fatal, error, warn, info (default), debug, trace',
    '  --log-file         GP_AGENT_LOG_FILE               write logs to this file (default: standard output)',
    `                     GP_AGENT_HEARTBEAT_INTERVAL_MS  ping the gateway this often (default ${d.heartbeatIntervalMs})`,
    `                     GP_AGENT_HEARTBEAT_TIMEOUT_MS   reconnect after this long without a word (default ${d.heartbeatTimeoutMs})`,
    `                     GP_AGENT_BACKOFF_MIN_MS         first reconnect delay (default ${d.backoffMinMs})`,
    `                     GP_AGENT_BACKOFF_MAX_MS         longest reconnect delay (default ${d.backoffMaxMs})`,
    `                     GP_AGENT_CONNECT_TIMEOUT_MS     connect and upgrade timeout (default ${d.connectTimeoutMs})`,
    `                     GP_AGENT_DRAIN_GRACE_MS         on stop, time for requests in flight (default ${d.drainGraceMs})`,
    `                     GP_AGENT_STATUS_INTERVAL_MS     re-check the database this often (default ${d.statusIntervalMs})`,
    '                     GP_SQLITE_WORKERS               SQLite threads (default 2)',
    '  --allow-writes     GP_AGENT_ALLOW_WRITES           true: write into GP (POST /v1/…); off by default',
    `                     GP_AGENT_CHANGES_INTERVAL_MS    look for changes in GP this often; 0: never (default ${DEFAULT_CHANGE_SCHEDULE.intervalMs})`,
    `                     GP_AGENT_CHANGES_BUDGET_MS      at most this much query time per round (default ${DEFAULT_CHANGE_SCHEDULE.budgetMs})`,
    `                     GP_AGENT_CHANGES_OVERLAP_MS     how far back each poll looks again for late commits (default ${DEFAULT_OVERLAP_MS})`,
    '',
  ].join('\n');
}
