import { z } from 'zod';
import { MSSQL_ISOLATION_LEVELS, type MssqlIsolation } from '../../db/mssqlIsolation.ts';
import { DEFAULT_LOCK_TIMEOUT_MS } from '../../db/mssqlExecutor.ts';
import { DEFAULT_SYSTEM_DATABASE, SYSTEM_DATABASE_NAME } from '../../db/executor.ts';
import { WRITE_REQUEST_TIMEOUT_MS } from '../../writes/mssql/mssqlWriter.ts';
import { DEFAULT_TIMINGS, type ConnectionTimings } from '../../connection/dialGateway.ts';
import { insecureGatewayProblem } from '../../connection/gatewayNetwork.ts';
import { DEFAULT_HISTORY_EVERY, DEFAULT_OVERLAP_MS } from '../../changes/changeDetector.ts';
import { DEFAULT_CHANGE_SCHEDULE } from '../../changes/changeReporter.ts';
import type { Given } from './gather.ts';
import { SETTINGS, TEST_DELAY_ENV, type SettingKey, type SettingSpec } from './settings.ts';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
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

/**
 * The schema of the settings given. Built for each load, because its messages say where each value
 * came from: `GP_AGENT_HEARTBEAT_INTERVAL_MS (from gp-agent.conf line 4): must be a whole number of
 * milliseconds from 50 to 600000; got "5s"`, a secret's value left out. A value that fails leaves
 * its default to the checks between settings, so that every problem is listed at once.
 */
export function settingsSchema(given: Given) {
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
    ).refine((text) => !GATEWAY_URL.safeParse(text).success || insecureGatewayProblem(text) === null, {
      error: (issue) => problem('gatewayUrl', insecureGatewayProblem(issue.input as string)!),
    }),
    token: required(
      'token',
      'the agent token is missing: set GP_AGENT_TOKEN (in the configuration file or the environment) or pass --token-file <file>',
      (text) => AGENT_TOKEN.test(text),
      'the agent token must look like lb_agent_ followed by 32 letters and digits (as `gp-gateway connection create` printed it)',
    ),
    database,
    logLevel: z.enum(LOG_LEVELS, { error: () => problem('logLevel', `must be one of ${LOG_LEVELS.join(', ')}`) }).default('info'),
    logFile: z.string().optional(),
    stateDir: z.string().optional(),
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
      historyEvery: wholeNumber('changesHistoryEvery', 1, 10_000).default(DEFAULT_HISTORY_EVERY),
    }),
    testDelayMs: z
      .string()
      .regex(/^\d+$/, `${TEST_DELAY_ENV} (from environment): must be a whole number of milliseconds (it is for tests only: unset it)`)
      .transform(Number)
      .default(0),
  });
}
