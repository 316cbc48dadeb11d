import WebSocket from 'ws';
import { decodeFrame, encodeFrame, GatewayToAgentFrameSchema, PROTOCOL_VERSION } from '@gp-gateway/protocol';
import { agentEndpoint } from '../connection/dialGateway.ts';
import { DEFAULT_SYSTEM_DATABASE, type Executor } from '../db/executor.ts';
import { catalogueTables, ReadService } from '../service/readService.ts';
import fs from 'node:fs';
import path from 'node:path';
import type { Finding } from './findings.ts';
import { checkSnapshotIsolation, checkSystemDatabase } from './gpDatabaseChecks.ts';
import { systemGrants, WRITE_READ_TABLES, writeProcedures } from '../mssql/writeRole.ts';
import { JOURNAL_TABLE } from '../writes/journal.ts';
import type { AgentConfig, DatabaseConfig } from './runConfig.ts';

/**
 * The checks of `gp-agent diagnose`, each a plain function returning findings in plain language
 * with a fix for every failure. They take the configuration and an executor, so tests run them
 * against SQLite; the SQL Server wording is chosen from the driver's error numbers and codes.
 */
export type { Finding, Status } from './findings.ts';

/** Clock offsets beyond these are worth a warning, and a failure (Kerberos allows SQL Server logins 5 minutes). */
const SKEW_WARN_MS = 5_000;
const SKEW_FAIL_MS = 300_000;
/** Round trips beyond this make every API request noticeably slower. */
const LATENCY_WARN_MS = 300;
const PROBE_TIMEOUT_MS = 10_000;
const PINGS = 5;

export async function checkDatabase(database: DatabaseConfig, executor: Executor): Promise<{ findings: Finding[]; companies: string[] }> {
  const label = database.kind === 'mssql' ? 'SQL Server login' : 'Database folder';
  const SYSTEM_DATABASE = executor.systemDatabase;
  const findings: Finding[] = [];
  const service = new ReadService(executor);
  let companies: { id: string; name: string | null }[];
  try {
    await executor.checkReadable(null, 'SY01500');
    companies = await service.companies();
  } catch (error) {
    findings.push({ check: label, status: 'fail', summary: (error as Error).message, fix: databaseFix(database, SYSTEM_DATABASE, error) });
    const mssqlChecks =
      database.kind === 'mssql' ? ['System database', ...(database.isolation === 'snapshot' ? ['Snapshot isolation'] : [])] : [];
    for (const check of ['GP version', 'Companies', ...mssqlChecks, 'Read permission'])
      findings.push({ check, status: 'skip', summary: `needs the "${label}" check to pass first` });
    return { findings, companies: [] };
  }
  findings.push({
    check: label,
    status: 'ok',
    summary: database.kind === 'mssql' ? `logged in; ${SYSTEM_DATABASE} can be read` : `${database.dir} holds ${SYSTEM_DATABASE}.sqlite`,
  });

  const version = await executor.gpVersion().catch((error: unknown) => error as Error);
  if (version instanceof Error || version === null) {
    findings.push({
      check: 'GP version',
      status: 'warn',
      summary: `${SYSTEM_DATABASE}..DU000020 does not say: ${version instanceof Error ? version.message : 'no row for product 0'}`,
      fix: `let the agent's login read ${SYSTEM_DATABASE}..DU000020 (the script \`gp-agent mssql grant-read\` prints grants it); requests work without it`,
    });
  } else {
    findings.push({
      check: 'GP version',
      status: 'ok',
      summary: version === 'demo' ? 'demo database (no DU000020)' : `Dynamics GP ${version}`,
    });
  }

  if (!companies.length) {
    findings.push({
      check: 'Companies',
      status: 'fail',
      summary: `${SYSTEM_DATABASE}..SY01500 lists no company`,
      fix: 'point the agent at the SQL Server instance that holds GP (the one GP Utilities created); SY01500 has a row per company',
    });
  } else {
    findings.push({ check: 'Companies', status: 'ok', summary: companies.map((c) => (c.name ? `${c.id} (${c.name})` : c.id)).join(', ') });
  }
  const ids = companies.map((c) => c.id);
  const systemDatabase = await checkSystemDatabase(executor, ids);
  if (systemDatabase) findings.push(systemDatabase);
  if (database.kind === 'mssql' && database.isolation === 'snapshot') {
    const snapshot = await checkSnapshotIsolation(executor, ids).catch((error: unknown): Finding => ({
      check: 'Snapshot isolation',
      status: 'warn',
      summary: `sys.databases cannot be read: ${(error as Error).message}`,
      fix: 'check as an administrator that every GP database allows snapshot isolation (SELECT name, snapshot_isolation_state_desc FROM sys.databases)',
    }));
    if (snapshot) findings.push(snapshot);
  }

  const tables = catalogueTables();
  const denied: string[] = [];
  const missingDatabases = new Set<string>();
  for (const table of tables.system) {
    await executor
      .checkReadable(null, table)
      .catch((error: unknown) => denied.push(`${SYSTEM_DATABASE}..${table}: ${(error as Error).message}`));
  }
  for (const company of companies) {
    for (const table of tables.company) {
      await executor.checkReadable(company.id, table).catch((error: unknown) => {
        const message = (error as Error).message;
        if (/not found|cannot open|4060/.test(message)) missingDatabases.add(company.id);
        denied.push(`${company.id}..${table}: ${message}`);
      });
    }
  }
  const checked = tables.system.length + companies.length * tables.company.length;
  if (denied.length) {
    findings.push({
      check: 'Read permission',
      status: 'fail',
      summary: `${denied.length} of ${checked} tables the API reads cannot be read`,
      details: denied.slice(0, 20).concat(denied.length > 20 ? [`… and ${denied.length - 20} more`] : []),
      fix:
        database.kind === 'mssql'
          ? `give the agent's login read access to exactly these tables: run the script \`gp-agent mssql grant-read\` prints, as a SQL Server administrator${missingDatabases.size ? ` (it cannot open ${[...missingDatabases].join(', ')} at all)` : ''}`
          : `the folder lacks tables the API reads: regenerate it with gp-demo generate --dir <folder>`,
    });
  } else {
    findings.push({
      check: 'Read permission',
      status: 'ok',
      summary: `all ${checked} tables the API reads can be read (${tables.system.length} in ${SYSTEM_DATABASE}, ${tables.company.length} in each company)`,
    });
  }
  return { findings, companies: companies.map((c) => c.id) };
}

/**
 * Whether writes are on, and when they are, whether the agent can make them: on SQL Server, every
 * grant the write role script makes (writeRole.ts), each checked with HAS_PERMS_BY_NAME: in the
 * system database what eConnect's procedures read and execute there (econnectSystemObjects.ts) and
 * taErrorCode; in every company EXECUTE on every eConnect procedure the writes call, INSERT on the
 * write journal and SELECT on the tables a write reads. Each missing one is named. On the embedded
 * database, that its files can be written.
 */
export async function checkWrites(
  database: DatabaseConfig,
  executor: Executor,
  companies: readonly string[],
  allowWrites: boolean,
): Promise<Finding> {
  if (!allowWrites)
    return {
      check: 'Writes',
      status: 'ok',
      summary: "off: the agent refuses every write (the customer's IT turns them on with --allow-writes or GP_AGENT_ALLOW_WRITES = true)",
    };
  const missing: string[] = [];
  const SYSTEM_DATABASE = executor.systemDatabase;
  if (database.kind === 'sqlite') {
    // A SQLite folder always holds DYNAMICS.sqlite (runConfig refuses another system database name there).
    for (const name of [DEFAULT_SYSTEM_DATABASE, ...companies]) {
      const file = path.join(database.dir, `${name}.sqlite`);
      try {
        fs.accessSync(file, fs.constants.W_OK);
        fs.accessSync(database.dir, fs.constants.W_OK);
      } catch {
        missing.push(`${file} cannot be written by this account`);
      }
    }
    return missing.length
      ? {
          check: 'Writes',
          status: 'fail',
          summary: 'on, but the database cannot be written',
          details: missing,
          fix: `let the service's account write ${database.dir} and its files`,
        }
      : { check: 'Writes', status: 'ok', summary: `on: writes go into ${database.dir}, one at a time` };
  }
  /** 1 granted, 0 not, null: the object does not exist (or the login may not even see it). */
  const has = async (company: string | null, object: string, permission: string): Promise<number | null> => {
    const name = `[${company ?? SYSTEM_DATABASE}].[dbo].[${object}]`;
    const [row] = await executor
      .query(company, {
        sql: `SELECT HAS_PERMS_BY_NAME(@p0, 'OBJECT', '${permission}')`,
        params: [{ value: name, type: { kind: 'varchar', length: 200 } }],
      })
      .catch(() => [[0]]);
    return row?.[0] === null || row?.[0] === undefined ? null : Number(row[0]);
  };
  let checked = 0;
  for (const grant of systemGrants()) {
    checked++;
    const state = await has(null, grant.name, grant.permission);
    // An optional object (Analytical Accounting) that is not installed needs no grant: eConnect looks for it first.
    if (state === 1 || (state === null && grant.optional)) continue;
    missing.push(`${grant.permission} on ${SYSTEM_DATABASE}..${grant.name} (${grant.reachedBy.join(', ')})`);
  }
  for (const company of companies) {
    const wanted: Array<[string, string, string]> = [
      ...writeProcedures().map((p): [string, string, string] => [p, 'EXECUTE', "GP's eConnect procedure"]),
      [JOURNAL_TABLE, 'INSERT', 'the write journal; the script creates it'],
      ...WRITE_READ_TABLES.map((t): [string, string, string] => [t, 'SELECT', 'read by a write']),
    ];
    for (const [object, permission, why] of wanted) {
      checked++;
      if ((await has(company, object, permission)) !== 1) missing.push(`${permission} on ${company}..${object} (${why})`);
    }
  }
  return missing.length
    ? {
        check: 'Writes',
        status: 'fail',
        summary: `on, but ${missing.length} of ${checked} permissions a write needs are missing`,
        details: missing.slice(0, 20).concat(missing.length > 20 ? [`… and ${missing.length - 20} more`] : []),
        fix: `run the script \`gp-agent mssql grant-write --login <login> --companies <ids>${SYSTEM_DATABASE === DEFAULT_SYSTEM_DATABASE ? '' : ` --system-database ${SYSTEM_DATABASE}`}\` prints, as a SQL Server administrator`,
      }
    : {
        check: 'Writes',
        status: 'ok',
        summary: `on: all ${checked} permissions a write needs, in ${SYSTEM_DATABASE} and every company (EXECUTE on the ${writeProcedures().length} eConnect procedures, what they reach in ${SYSTEM_DATABASE}, the write journal)`,
      };
}

function databaseFix(database: DatabaseConfig, SYSTEM_DATABASE: string, error: unknown): string {
  if (database.kind === 'sqlite')
    return `check GP_SQLITE_DIR: it must be a folder holding ${SYSTEM_DATABASE}.sqlite and one <company>.sqlite per company (gp-demo generate writes one)`;
  const message = (error as Error).message;
  if (/18456|Login failed/i.test(message))
    return 'SQL Server refused the user or password: check "User Id" and "Password" in GP_MSSQL_CONNECTION, and that SQL Server authentication is enabled';
  if (/ETIMEOUT|ESOCKET|ENOTFOUND|ECONNREFUSED|getaddrinfo|Failed to connect/i.test(message)) {
    return 'SQL Server cannot be reached: check "Server" in GP_MSSQL_CONNECTION (host,port or host\\instance), that TCP/IP is enabled for the instance, and that the firewall allows the port (1433 by default; SQL Browser UDP 1434 for named instances)';
  }
  if (/4060|Cannot open database/i.test(message))
    return (
      `the login cannot open ${SYSTEM_DATABASE}: map it to a user in ${SYSTEM_DATABASE} with read access ` +
      `(the script \`gp-agent mssql grant-read\` prints does); if GP was installed with a named system database, set GP_SYSTEM_DATABASE to its name`
    );
  if (/certificate|self.signed|TLS|SSL/i.test(message))
    return (
      "this machine does not trust SQL Server's certificate: give SQL Server a certificate from a trusted CA, or trust its certificate here " +
      'with NODE_EXTRA_CA_CERTS=<PEM file> in the service\'s environment (docs/operations.md, "SQL Server"); "TrustServerCertificate=true" in ' +
      'GP_MSSQL_CONNECTION accepts any certificate, so only on a network you trust'
    );
  return "check GP_MSSQL_CONNECTION; the message above is SQL Server's own";
}

export interface GatewayProbe {
  findings: Finding[];
}

/** Gateway reachability, WebSocket upgrade and token, clock skew and round trip, in that order. */
export async function checkGateway(config: Pick<AgentConfig, 'gatewayUrl' | 'token'>): Promise<GatewayProbe> {
  const findings: Finding[] = [];
  const url = new URL(config.gatewayUrl);
  const healthUrl = new URL(`${url.pathname.replace(/\/$/, '')}/health`, url).toString();
  let httpDate: number | null = null;
  const started = performance.now();
  try {
    const res = await fetch(healthUrl, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
    const ms = Math.round(performance.now() - started);
    const date = res.headers.get('date');
    httpDate = date ? Date.parse(date) : null;
    if (!res.ok) {
      findings.push({
        check: 'Gateway reachable',
        status: 'fail',
        summary: `${healthUrl} answered HTTP ${res.status}`,
        fix: "GP_GATEWAY_URL must be the gateway's base URL (the one API clients use, without /v1); a proxy in between may also answer like this",
      });
    } else {
      findings.push({ check: 'Gateway reachable', status: 'ok', summary: `${healthUrl} answered in ${ms} ms` });
    }
  } catch (error) {
    findings.push({ check: 'Gateway reachable', status: 'fail', summary: `${healthUrl}: ${causeOf(error)}`, fix: networkFix(url, error) });
    for (const check of ['WebSocket and token', 'Clock', 'Round trip'])
      findings.push({ check, status: 'skip', summary: 'needs the gateway to be reachable first' });
    return { findings };
  }

  const socket = await openProbe(config.gatewayUrl, config.token);
  if (!socket.ok) {
    findings.push({ check: 'WebSocket and token', status: 'fail', summary: socket.summary, fix: socket.fix });
    for (const check of ['Clock', 'Round trip']) findings.push({ check, status: 'skip', summary: 'needs the WebSocket to open first' });
    return { findings };
  }
  findings.push({
    check: 'WebSocket and token',
    status: 'ok',
    summary: `${agentEndpoint(config.gatewayUrl)} accepted the upgrade and the token`,
  });

  const samples = await pingSamples(socket.ws);
  socket.ws.close(1000, 'diagnose done');
  const best = samples.filter((s) => s.gatewayNow !== null).sort((a, b) => a.rtt - b.rtt)[0];
  let skew: number | null = null;
  let basis = '';
  if (best) {
    skew = best.gatewayNow! - (best.sentAt + best.rtt / 2);
    basis = 'from ping';
  } else if (httpDate !== null && Number.isFinite(httpDate)) {
    skew = httpDate - Date.now();
    basis = 'from the HTTP Date header, ±1 s';
  }
  if (skew === null) {
    findings.push({
      check: 'Clock',
      status: 'warn',
      summary: 'the gateway did not tell its time',
      fix: 'update the gateway; the agent works without this check',
    });
  } else {
    const abs = Math.abs(skew);
    const text = `this server's clock is ${formatMs(abs)} ${skew > 0 ? 'behind' : 'ahead of'} the gateway's (${basis})`;
    const fix =
      "synchronise this server's clock: on Windows `w32tm /resync` (domain members follow the domain controller), on Linux `timedatectl set-ntp true`";
    if (abs > SKEW_FAIL_MS) findings.push({ check: 'Clock', status: 'fail', summary: text, fix });
    else if (abs > SKEW_WARN_MS) findings.push({ check: 'Clock', status: 'warn', summary: text, fix });
    else findings.push({ check: 'Clock', status: 'ok', summary: text });
  }

  if (!samples.length) {
    findings.push({
      check: 'Round trip',
      status: 'fail',
      summary: 'the gateway answered no ping within 10 s',
      fix: 'something between this server and the gateway holds WebSocket messages back (a buffering proxy?): allow WebSocket traffic to the gateway',
    });
  } else {
    const rtts = samples.map((s) => s.rtt).sort((a, b) => a - b);
    const median = rtts[Math.floor(rtts.length / 2)]!;
    const summary = `median ${formatMs(median)} over ${rtts.length} pings (min ${formatMs(rtts[0]!)}, max ${formatMs(rtts.at(-1)!)})`;
    if (median > LATENCY_WARN_MS)
      findings.push({
        check: 'Round trip',
        status: 'warn',
        summary,
        fix: 'every API request pays this at least once; a closer gateway region or a direct route (no VPN hairpin) helps',
      });
    else findings.push({ check: 'Round trip', status: 'ok', summary });
  }
  return { findings };
}

type Probe = { ok: true; ws: WebSocket } | { ok: false; summary: string; fix: string };

function openProbe(gatewayUrl: string, token: string): Promise<Probe> {
  return new Promise((resolve) => {
    const endpoint = agentEndpoint(gatewayUrl);
    const ws = new WebSocket(endpoint, { headers: { authorization: `Bearer ${token}` }, handshakeTimeout: PROBE_TIMEOUT_MS });
    ws.once('open', () => resolve({ ok: true, ws }));
    ws.once('unexpected-response', (_req, res) => {
      ws.terminate();
      const status = res.statusCode ?? 0;
      if (status === 401 || status === 403) {
        resolve({
          ok: false,
          summary: `the gateway refused the agent token (HTTP ${status})`,
          fix: "GP_AGENT_TOKEN is not (or no longer) the token of a connection: copy it again from `gp-gateway connection create`, or ask the gateway operator for the connection's current token",
        });
      } else {
        resolve({
          ok: false,
          summary: `${endpoint} answered HTTP ${status} instead of opening a WebSocket`,
          fix:
            status === 404
              ? 'GP_GATEWAY_URL points at something that is not the gateway'
              : "a proxy or firewall between here and the gateway may block WebSocket upgrades: allow them for the gateway's host",
        });
      }
    });
    ws.once('error', (error) =>
      resolve({ ok: false, summary: `${endpoint}: ${causeOf(error)}`, fix: networkFix(new URL(gatewayUrl), error) }),
    );
  });
}

interface Sample {
  sentAt: number;
  rtt: number;
  gatewayNow: number | null;
}

/** Application-level pings before any hello: the gateway answers them with its clock and does not count the probe as an agent. */
async function pingSamples(ws: WebSocket): Promise<Sample[]> {
  const samples: Sample[] = [];
  for (let i = 0; i < PINGS; i++) {
    const sentAt = Date.now();
    const t0 = performance.now();
    const pong = await new Promise<{ now: number | null } | null>((resolve) => {
      const timer = setTimeout(() => {
        ws.off('message', onMessage);
        resolve(null);
      }, PROBE_TIMEOUT_MS);
      const onMessage = (data: WebSocket.RawData) => {
        const decoded = decodeFrame(GatewayToAgentFrameSchema, data.toString());
        if (!decoded.ok || decoded.frame.type !== 'pong' || decoded.frame.at !== sentAt) return;
        clearTimeout(timer);
        ws.off('message', onMessage);
        resolve({ now: decoded.frame.now ?? null });
      };
      ws.on('message', onMessage);
      ws.send(encodeFrame({ v: PROTOCOL_VERSION, type: 'ping', at: sentAt }));
    });
    if (!pong) break;
    samples.push({ sentAt, rtt: performance.now() - t0, gatewayNow: pong.now });
  }
  return samples;
}

function causeOf(error: unknown): string {
  const e = error as Error & { cause?: { code?: string; message?: string } };
  const cause = e.cause?.code ?? e.cause?.message;
  if (e.name === 'TimeoutError') return 'no answer within 10 s';
  return cause ? `${e.message} (${cause})` : e.message;
}

function networkFix(url: URL, error: unknown): string {
  const text = causeOf(error);
  const port = url.port || (url.protocol === 'https:' || url.protocol === 'wss:' ? '443' : '80');
  if (/ENOTFOUND|EAI_AGAIN/.test(text))
    return `the name ${url.hostname} does not resolve: check the spelling in GP_GATEWAY_URL and this server's DNS`;
  if (/ECONNREFUSED/.test(text))
    return `nothing listens on ${url.hostname}:${port}: check the port in GP_GATEWAY_URL and that the gateway runs`;
  if (/CERT|certificate|self.signed|TLS|SSL/i.test(text))
    return "this server does not trust the gateway's certificate; a TLS-inspecting proxy needs its root certificate installed (NODE_EXTRA_CA_CERTS=<file>)";
  return `outbound HTTPS from this server to ${url.hostname}:${port} seems blocked: allow it in the firewall or proxy (the agent needs no inbound port)`;
}

function formatMs(ms: number): string {
  return ms >= 10_000 ? `${Math.round(ms / 1000)} s` : ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`;
}
