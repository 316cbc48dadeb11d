import { DEFAULT_LOCK_TIMEOUT_MS } from '../../db/mssqlExecutor.ts';
import { DEFAULT_SYSTEM_DATABASE } from '../../db/executor.ts';
import { WRITE_REQUEST_TIMEOUT_MS } from '../../writes/mssql/mssqlWriter.ts';
import { DEFAULT_TIMINGS } from '../../connection/dialGateway.ts';
import { DEFAULT_HISTORY_EVERY, DEFAULT_OVERLAP_MS } from '../../changes/changeDetector.ts';
import { DEFAULT_CHANGE_SCHEDULE } from '../../changes/changeReporter.ts';
import { CONFIG_ENV } from './settings.ts';

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
    `                     GP_AGENT_CHANGES_HISTORY_EVERY  poll history tables every this many polls (default ${DEFAULT_HISTORY_EVERY})`,
    "  --state-dir        GP_AGENT_STATE_DIR              keep what change detection knows here (default: systemd's StateDirectory, else state beside the configuration file)",
    '',
    'Network (environment variables only, as other tools on the server read them):',
    '                     HTTPS_PROXY                     reach the gateway through this proxy, e.g. http://proxy:3128',
    '                     NO_PROXY                        host names that go direct, comma-separated',
    '                     SSL_CERT_FILE                   more trusted roots (the system store is trusted already)',
    '',
  ].join('\n');
}
