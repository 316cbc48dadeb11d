import WebSocket from 'ws';
import {
  decodeFrame,
  encodeFrame,
  GatewayToAgentFrameSchema,
  isOlderVersion,
  PROTOCOL_VERSION,
  type AgentVersions,
} from '@gp-gateway/protocol';
import { AGENT_VERSION } from '../version.ts';
import { agentEndpoint } from '../connection/dialGateway.ts';
import { gatewaySocketOptions } from '../connection/gatewayNetwork.ts';
import type { Finding } from './findings.ts';
import type { DiagnosedGateway } from './target.ts';

/**
 * The gateway checks of `gp-agent diagnose`: reachable over HTTPS, the WebSocket upgrade and the
 * token, the clock against the gateway's, the round trip, and whether this agent is the version the
 * gateway wants; plain language, a fix for every failure.
 */

/** Clock offsets beyond these are worth a warning, and a failure (Kerberos allows SQL Server logins 5 minutes). */
const SKEW_WARN_MS = 5_000;
const SKEW_FAIL_MS = 300_000;
/** Round trips beyond this make every API request noticeably slower. */
const LATENCY_WARN_MS = 300;
const PROBE_TIMEOUT_MS = 10_000;
const PINGS = 5;

export interface GatewayProbe {
  findings: Finding[];
}

/** Gateway reachability, WebSocket upgrade and token, clock skew and round trip, in that order. */
export async function checkGateway(config: DiagnosedGateway): Promise<GatewayProbe> {
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
    for (const check of ['WebSocket and token', 'Clock', 'Round trip', 'Agent version'])
      findings.push({ check, status: 'skip', summary: 'needs the gateway to be reachable first' });
    return { findings };
  }

  const socket = await openProbe(config.gatewayUrl, config.token);
  if (!socket.ok) {
    findings.push({ check: 'WebSocket and token', status: 'fail', summary: socket.summary, fix: socket.fix });
    for (const check of ['Clock', 'Round trip', 'Agent version'])
      findings.push({ check, status: 'skip', summary: 'needs the WebSocket to open first' });
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
  findings.push(versionFinding(AGENT_VERSION, samples.find((s) => s.agentVersions)?.agentVersions ?? null));
  return { findings };
}

/**
 * Whether this agent is older than the gateway supports or than the release it offers (the versions
 * its pong names). A warning either way, not a failure: an older agent still serves while it speaks
 * the protocol, and install must still start it; the fix is the same, `gp-agent update`.
 */
export function versionFinding(version: string, versions: AgentVersions | null): Finding {
  const check = 'Agent version';
  if (!versions) return { check, status: 'ok', summary: `${version} (the gateway names no minimum or latest version: an older gateway)` };
  const fix =
    "run `gp-agent update` as administrator (root), which fetches, verifies and installs the gateway's release and restarts the service";
  if (isOlderVersion(version, versions.minimum))
    return {
      check,
      status: 'warn',
      summary: `${version} is OUTDATED: older than ${versions.minimum}, the oldest this gateway supports${versions.latest ? `; ${versions.latest} is available` : ''}`,
      fix,
    };
  if (versions.latest && isOlderVersion(version, versions.latest))
    return { check, status: 'warn', summary: `${version} is behind the latest release, ${versions.latest}, which the gateway offers`, fix };
  return {
    check,
    status: 'ok',
    summary: `${version}, ${versions.latest ? 'the latest release the gateway offers' : 'supported by the gateway (it offers no release to update to)'}`,
  };
}

type Probe = { ok: true; ws: WebSocket } | { ok: false; summary: string; fix: string };

function openProbe(gatewayUrl: string, token: string): Promise<Probe> {
  return new Promise((resolve) => {
    const endpoint = agentEndpoint(gatewayUrl);
    // The same proxy and trusted roots as the agent's own dial: a probe that went direct would prove nothing.
    const ws = new WebSocket(endpoint, {
      headers: { authorization: `Bearer ${token}` },
      handshakeTimeout: PROBE_TIMEOUT_MS,
      ...gatewaySocketOptions(endpoint),
    });
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
  agentVersions: AgentVersions | null;
}

/** Application-level pings before any hello: the gateway answers them with its clock and does not count the probe as an agent. */
async function pingSamples(ws: WebSocket): Promise<Sample[]> {
  const samples: Sample[] = [];
  for (let i = 0; i < PINGS; i++) {
    const sentAt = Date.now();
    const t0 = performance.now();
    const pong = await new Promise<{ now: number | null; agentVersions: AgentVersions | null } | null>((resolve) => {
      const timer = setTimeout(() => {
        ws.off('message', onMessage);
        resolve(null);
      }, PROBE_TIMEOUT_MS);
      const onMessage = (data: WebSocket.RawData) => {
        const decoded = decodeFrame(GatewayToAgentFrameSchema, data.toString());
        if (!decoded.ok || decoded.frame.type !== 'pong' || decoded.frame.at !== sentAt) return;
        clearTimeout(timer);
        ws.off('message', onMessage);
        resolve({ now: decoded.frame.now ?? null, agentVersions: decoded.frame.agentVersions ?? null });
      };
      ws.on('message', onMessage);
      ws.send(encodeFrame({ v: PROTOCOL_VERSION, type: 'ping', at: sentAt }));
    });
    if (!pong) break;
    samples.push({ sentAt, rtt: performance.now() - t0, gatewayNow: pong.now, agentVersions: pong.agentVersions });
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
