import path from 'node:path';
import { DEFAULT_TIMINGS, type ConnectionTimings } from '../connection/dialGateway.ts';
import { faultFromEnv, type Fault } from '../writes/faults.ts';
import { gather } from './config/gather.ts';
import { CONFIG_ENV, ConfigError, SETTINGS, TEST_DELAY_ENV, type SettingKey } from './config/settings.ts';
import { settingsSchema, type DatabaseConfig, type LOG_LEVELS } from './config/settingsSchema.ts';

/**
 * The agent's settings, from a configuration file, environment variables and flags: flags win over
 * the environment, the environment over the file. The file uses the environment variables' names
 * (`GP_GATEWAY_URL = https://…`), so there is one name per setting wherever it is given, and a file
 * in this form also works as a systemd EnvironmentFile. Messages name the setting and where its
 * value came from, because the reader is whoever installs the agent; they never repeat a secret.
 *
 * The parts, one job each, under config/: settings.ts names them, configFile.ts reads the file
 * (util.parseEnv), gather.ts applies flags over environment over file, settingsSchema.ts checks them
 * (zod), settingsHelp.ts lists them for --help.
 */

export { ConfigError, TEST_DELAY_ENV } from './config/settings.ts';
export { settingsHelp } from './config/settingsHelp.ts';
export type { DatabaseConfig } from './config/settingsSchema.ts';

const TIMING_KEYS = [
  'heartbeatIntervalMs',
  'heartbeatTimeoutMs',
  'backoffMinMs',
  'backoffMaxMs',
  'connectTimeoutMs',
  'drainGraceMs',
  'statusIntervalMs',
] as const satisfies ReadonlyArray<SettingKey & keyof ConnectionTimings>;

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
  changes: { intervalMs: number; budgetMs: number; overlapMs: number; historyEvery: number };
  /**
   * Where the agent keeps what change detection knows across restarts (GP_AGENT_STATE_DIR; else
   * systemd's StateDirectory, else `state` beside the configuration file); null: in memory only.
   */
  stateDir: string | null;
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

/** Which settings a command needs: `run` and `diagnose` everything, `companies` and `query` only the database. */
export type ConfigNeeds = 'all' | 'database';

/**
 * Only the gateway's URL, from the same flags, environment and file as `run` (and checked as it is):
 * what `update` needs to fetch the release, which is public. A broken database setting or a missing
 * token must not stop an update that may be the fix.
 */
export function loadGatewayUrl(
  flags: Record<string, string | undefined>,
  env: NodeJS.ProcessEnv,
): { gatewayUrl: string; configFile: string | null } {
  const configFile = flags.config ?? env[CONFIG_ENV] ?? null;
  const given = gather(flags, env, configFile);
  const parsed = settingsSchema(given).pick({ gatewayUrl: true }).safeParse({ gatewayUrl: given.gatewayUrl?.value });
  if (!parsed.success) throw new ConfigError(parsed.error.issues.map((issue) => issue.message));
  return { gatewayUrl: parsed.data.gatewayUrl, configFile };
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
    changes: {
      intervalMs: value('changesIntervalMs'),
      budgetMs: value('changesBudgetMs'),
      overlapMs: value('changesOverlapMs'),
      historyEvery: value('changesHistoryEvery'),
    },
    stateDir: value('stateDir'),
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
    stateDir: parsed.data.stateDir ?? defaultStateDir(env, configFile),
    fault,
    configFile,
    warnings,
  };
}

/**
 * The state folder when none is given: systemd's StateDirectory= (/var/lib/gp-agent, the one folder
 * the unit lets the service write besides its logs), else `state` beside the configuration file
 * (C:\ProgramData\gp-agent\state, which `gp-agent install` lets the service write), else none.
 */
function defaultStateDir(env: NodeJS.ProcessEnv, configFile: string | null): string | null {
  const systemd = env.STATE_DIRECTORY?.split(':')[0];
  if (systemd) return systemd;
  return configFile ? path.join(path.dirname(path.resolve(configFile)), 'state') : null;
}
