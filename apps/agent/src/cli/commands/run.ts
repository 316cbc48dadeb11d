import os from 'node:os';
import path from 'node:path';
import type { Command } from 'commander';
import type { Logger } from 'pino';
import { ReadService } from '../../service/readService.ts';
import { checkSnapshotIsolation } from '../../diagnostics/gpDatabaseChecks.ts';
import { dialGateway, FatalConnectionError } from '../../connection/dialGateway.ts';
import { AGENT_COMMIT, AGENT_VERSION } from '../../version.ts';
import { createAgentLogger, openServing, type Serving } from '../common.ts';
import { loadAgentConfig, settingsHelp, TEST_DELAY_ENV, type AgentConfig } from '../runConfig.ts';
import { FAULT_ENV } from '../../writes/faults.ts';
import { startAgentMetrics, type AgentMetricsServer } from '../../telemetry/promMetrics.ts';
import { metricsAddress, type MetricsAddress } from '../metricsAddress.ts';
import { startTracing } from '@gp-gateway/telemetry';
import { SqliteWorkerPool } from '../../db/sqliteWorkerPool.ts';
import { catalogueRecords } from '../../changes/catalogueRecords.ts';
import { ChangeDetector } from '../../changes/changeDetector.ts';
import { ChangeReporter } from '../../changes/changeReporter.ts';
import { MEMORY_ONLY, SqliteDetectionState, STATE_FILE_NAME, type DetectionStateStore } from '../../changes/detectionState.ts';

/**
 * Exit codes of `gp-agent run`, for service managers and support. A configuration error exits 1,
 * from main.ts, like any failure of a command.
 */
const EXIT_STOPPED = 0;
const EXIT_REFUSED = 2;

/**
 * Serves until stopped. The first SIGTERM/SIGINT (Ctrl+C, `systemctl stop`, a Windows service stop)
 * drains: the gateway is told, new requests go elsewhere, requests in flight get the grace period,
 * then the agent exits 0. A second signal stops at once.
 */
async function runAgent(config: AgentConfig, metricsAt: MetricsAddress | null): Promise<number> {
  const { log, flush } = createAgentLogger(config.logLevel, config.logFile);
  const metrics = metricsAt ? await serveMetrics(metricsAt, log) : null;
  // Traces only when OTEL_EXPORTER_OTLP_ENDPOINT is set (docs/operations.md#traces).
  const tracing = startTracing('gp-agent', { 'host.name': os.hostname() });
  for (const warning of config.warnings) {
    console.error(`gp-agent: warning: ${warning}`);
    log.warn(warning);
  }
  const serving = openServing(config.database, {
    sqliteThreads: config.sqliteWorkers,
    testDelayMs: config.testDelayMs,
    allowWrites: config.allowWrites,
    fault: config.fault,
  });
  log.info(
    {
      version: AGENT_VERSION,
      commit: AGENT_COMMIT,
      host: os.hostname(),
      pid: process.pid,
      gateway: config.gatewayUrl,
      database: config.database.kind === 'sqlite' ? { kind: 'sqlite', dir: config.database.dir } : { kind: 'mssql' },
      configFile: config.configFile,
      timings: config.timings,
      allowWrites: config.allowWrites,
    },
    'agent starting',
  );
  // In the background: a database that is down must not hold up connecting to the gateway.
  void checkAtStart(config, serving, log);
  void checkWritesAtStart(serving, log);
  if (config.fault)
    log.warn({ fault: config.fault }, `${FAULT_ENV} is set: the agent stops itself at the point it names. It is for tests only; unset it.`);
  if (config.testDelayMs > 0)
    log.warn(
      { testDelayMs: config.testDelayMs },
      `${TEST_DELAY_ENV} is set: every company query is slowed down. It is for tests only; unset it.`,
    );

  const stop = new AbortController();
  const force = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => {
    if (!stop.signal.aborted) {
      log.info(
        { signal, graceMs: config.timings.drainGraceMs },
        'stopping: finishing the requests in flight (send the signal again to stop at once)',
      );
      stop.abort();
    } else if (!force.signal.aborted) {
      log.warn({ signal }, 'stopping at once');
      force.abort();
    }
  };
  const signals: NodeJS.Signals[] = process.platform === 'win32' ? ['SIGINT', 'SIGTERM', 'SIGBREAK'] : ['SIGINT', 'SIGTERM'];
  for (const signal of signals) process.on(signal, onSignal);

  // Change detection reads one statement at a time: on SQL Server through the driver's pool, on the
  // embedded database on a thread of its own, so that its table scans never hold up the event loop.
  const changesExecutor =
    config.changes.intervalMs <= 0
      ? null
      : (serving.mssql ??
        (config.database.kind === 'sqlite' ? new SqliteWorkerPool({ dir: config.database.dir, readonly: true, workers: 1 }) : null));
  const detectionState = changesExecutor ? openDetectionState(config.stateDir, log) : MEMORY_ONLY;
  const changes = changesExecutor
    ? new ChangeReporter({
        detector: new ChangeDetector(changesExecutor, catalogueRecords(serving.service), {
          overlapMs: config.changes.overlapMs,
          historyEvery: config.changes.historyEvery,
          state: detectionState,
        }),
        companies: async () => (await serving.service.health()).companies.map((c) => c.id),
        log: log.child({ component: 'changes' }),
        schedule: { intervalMs: config.changes.intervalMs, budgetMs: config.changes.budgetMs },
      })
    : undefined;

  let code = EXIT_STOPPED;
  try {
    await dialGateway(
      {
        gatewayUrl: config.gatewayUrl,
        token: config.token,
        service: serving.service,
        ...(serving.writes && { writes: serving.writes }),
        log,
        dialect: serving.dialect,
        timings: config.timings,
        ...(changes && { changes }),
      },
      { stop: stop.signal, force: force.signal },
    );
    log.info('agent stopped');
  } catch (error) {
    if (!(error instanceof FatalConnectionError)) throw error;
    log.fatal({ reason: error.message }, 'the gateway refused the agent; not retrying');
    console.error(`gp-agent: ${error.message}`);
    code = EXIT_REFUSED;
  } finally {
    for (const signal of signals) process.off(signal, onSignal);
    changes?.detach();
    await changes?.settled();
    if (changesExecutor && changesExecutor !== serving.mssql) await changesExecutor.close();
    detectionState.close();
    await serving.close().catch(() => {});
    await metrics?.close();
    await tracing?.shutdown().catch(() => {});
    flush();
  }
  return code;
}

/**
 * The file of what change detection knows (docs/decisions.md#change-feed). Without one, or when it
 * cannot be opened, detection still runs, but a restarted agent learns the tables again and reports
 * nothing of what changed while it was down: worth a warning, not a stopped agent.
 */
function openDetectionState(dir: string | null, log: Logger): DetectionStateStore {
  if (!dir) {
    log.warn('no state folder (GP_AGENT_STATE_DIR): change detection starts afresh after every restart, missing what changed meanwhile');
    return MEMORY_ONLY;
  }
  const file = path.join(dir, STATE_FILE_NAME);
  try {
    const state = new SqliteDetectionState(file);
    log.info({ file }, 'change detection keeps its state here');
    return state;
  } catch (error) {
    log.warn(
      { file, err: (error as Error).message },
      'the change detection state cannot be kept (set GP_AGENT_STATE_DIR to a folder the agent may write): it starts afresh after every restart',
    );
    return MEMORY_ONLY;
  }
}

/**
 * The metrics port (docs/operations.md#agent-metrics). The default one taken (another agent, or
 * anything else, on this machine) is worth a warning, not a stopped agent; a port the operator chose
 * that cannot be had stops it, as any configuration error does.
 */
async function serveMetrics(at: MetricsAddress, log: Logger): Promise<AgentMetricsServer | null> {
  try {
    const server = await startAgentMetrics(at.host, at.port);
    log.info({ url: server.url }, 'serving metrics');
    return server;
  } catch (error) {
    const message = `metrics could not listen on ${at.host}:${at.port}: ${(error as Error).message}`;
    if (at.explicit) throw new Error(`${message}; choose another with --metrics host:port, or --metrics off`);
    log.warn(
      { host: at.host, port: at.port, err: (error as Error).message },
      'metrics not served: the default port is taken; choose one with --metrics',
    );
    return null;
  }
}

/**
 * What would otherwise fail every read later, said once at start in plain words: snapshot
 * isolation configured on databases that do not allow it (each read would fail with error 3952).
 * The agent still serves: a DBA may turn it on while it runs, and `diagnose` says the same.
 */
async function checkAtStart(config: AgentConfig, serving: Serving, log: Logger): Promise<void> {
  if (config.database.kind !== 'mssql' || config.database.isolation !== 'snapshot' || !serving.mssql) return;
  try {
    const companies = (await new ReadService(serving.mssql).companies()).map((c) => c.id);
    const finding = await checkSnapshotIsolation(serving.mssql, companies);
    if (!finding || finding.status === 'ok') return void log.info({ check: 'snapshot isolation' }, finding?.summary ?? 'not checked');
    log.error({ check: 'snapshot isolation', details: finding.details, fix: finding.fix }, finding.summary);
    console.error([`gp-agent: ${finding.summary}`, ...(finding.details ?? []).map((d) => `  ${d}`), `  Fix: ${finding.fix}`].join('\n'));
  } catch (error) {
    log.warn({ reason: (error as Error).message }, 'snapshot isolation could not be checked at start; `gp-agent diagnose` checks it');
  }
}

/**
 * With writes on, the write check (writes/writeCheck.ts) once at start: a validate-only write of
 * every writable object in the first companies, nothing written and no number taken. Its result
 * goes into the agent's health (the gateway's dashboard shows it per object) and, when an object
 * fails, into the log in plain words; `gp-agent diagnose --writes` runs the same check on demand.
 */
async function checkWritesAtStart(serving: Serving, log: Logger): Promise<void> {
  if (!serving.writes) return;
  try {
    const { companies } = await serving.service.health();
    const check = await serving.writes.check(
      serving.service,
      companies.map((c) => c.id),
    );
    for (const { company, objects } of check.companies) {
      const failing = objects.filter((o) => o.status !== 'works');
      if (!failing.length) log.info({ check: 'writes', company }, `write check: every object works in ${company}`);
      else
        log.warn(
          { check: 'writes', company, objects: failing },
          `write check: ${failing.map((o) => o.object).join(', ')} would not be written in ${company}; \`gp-agent diagnose --writes\` says why`,
        );
    }
  } catch (error) {
    log.warn({ reason: (error as Error).message }, 'the write check could not run at start; `gp-agent diagnose --writes` runs it');
  }
}

export function registerRunCommand(program: Command): void {
  program
    .command('run')
    .description('Connect to the gateway and serve requests until stopped (Ctrl+C or SIGTERM drains, a second one stops at once).')
    .option('--config <file>', 'configuration file (env GP_AGENT_CONFIG): NAME = value lines, or a .json object')
    .option('--gateway <url>', 'gateway base URL (env GP_GATEWAY_URL), e.g. https://gateway.example.com')
    .option('--token-file <file>', 'a file holding the agent token of this connection (env GP_AGENT_TOKEN_FILE)')
    .option('--token <token>', 'the agent token itself (env GP_AGENT_TOKEN); shows in the process list, so prefer the file')
    .option(
      '--mssql <connection>',
      'SQL Server connection string, e.g. "Server=gp01;User Id=api_read;Password=…;Encrypt=true" (env GP_MSSQL_CONNECTION)',
    )
    .option('--sqlite-dir <dir>', 'serve the embedded GP-shaped SQLite databases in this folder instead (env GP_SQLITE_DIR)')
    .option('--log-level <level>', 'fatal, error, warn, info, debug (env LOG_LEVEL)')
    .option('--log-file <file>', 'write logs to this file instead of standard output (env GP_AGENT_LOG_FILE)')
    .option('--state-dir <folder>', 'keep what change detection knows here across restarts (env GP_AGENT_STATE_DIR)')
    .option(
      '--metrics <address>',
      'Prometheus metrics at http://<address>/metrics: host:port, a port on 127.0.0.1, or off (env GP_AGENT_METRICS; default 127.0.0.1:9464)',
    )
    .option(
      '--allow-writes',
      "write into GP when the gateway asks (env GP_AGENT_ALLOW_WRITES=true); off by default: the customer's IT decides",
    )
    .addHelpText(
      'after',
      settingsHelp() +
        '\nExit codes: 0 stopped, 1 configuration error, 2 the gateway refused the token or protocol version.\n' +
        '\nExamples:\n' +
        '  GP_AGENT_TOKEN=lb_agent_… gp-agent run --gateway https://gateway.example.com --sqlite-dir ./data/demo\n' +
        '  gp-agent run --config /etc/gp-agent/gp-agent.conf\n' +
        '  gp-agent run --config "C:\\ProgramData\\gp-agent\\gp-agent.conf"\n',
    )
    .action(async (flags: Record<string, string | undefined>) => {
      const config = loadAgentConfig(flags, process.env, 'all');
      const code = await runAgent(config, metricsAddress(flags.metrics ?? process.env.GP_AGENT_METRICS));
      // Exit now: a database driver's idle sockets must not keep a stopped service alive.
      process.exit(code);
    });
}
