/**
 * The agent's settings: each one's environment variable (also its configuration-file key), its flag
 * and how messages treat it. One name per setting wherever it is given.
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
  changesHistoryEvery: { name: 'GP_AGENT_CHANGES_HISTORY_EVERY' },
  stateDir: { name: 'GP_AGENT_STATE_DIR', flag: { key: 'stateDir', text: '--state-dir' }, path: true },
} as const satisfies Record<string, SettingSpec>;
export type SettingKey = keyof typeof SETTINGS;
/** Read from the environment only, never from a file: test hooks must not end up in an installed configuration. */
export const TEST_DELAY_ENV = 'GP_AGENT_TEST_DELAY_MS';
/** The environment variable naming the configuration file (the flag is --config). */
export const CONFIG_ENV = 'GP_AGENT_CONFIG';

export class ConfigError extends Error {
  readonly issues: string[];
  constructor(issues: string[]) {
    super(issues.join('\n'));
    this.issues = issues;
  }
}

/** A setting's text as given. */
export interface Raw {
  value: string;
  /** Where it came from, for messages: "--gateway", "environment", "gp-agent.conf line 3". */
  from: string;
}
