/** Where the agent serves its metrics unless told otherwise: loopback only, as cloudflared does. 9464 is the port OpenTelemetry's Prometheus exporter uses. */
const DEFAULT_METRICS = { host: '127.0.0.1', port: 9464 };

export interface MetricsAddress {
  host: string;
  port: number;
  /** Given by the operator: failing to listen there stops the agent, where the default only warns. */
  explicit: boolean;
}

/**
 * `--metrics` (or GP_AGENT_METRICS): `off`, a port (`9464`, on loopback), or `host:port`
 * (`0.0.0.0:9464` for a scraper on another machine; `[::1]:9464` for IPv6). Null means off.
 */
export function metricsAddress(value: string | undefined): MetricsAddress | null {
  if (value === undefined || value.trim() === '') return { ...DEFAULT_METRICS, explicit: false };
  const text = value.trim();
  if (/^(off|false|no|none)$/i.test(text)) return null;
  const m = /^(?:(\[[0-9a-fA-F:.]+\]|[^:\s]+):)?(\d{1,5})$/.exec(text);
  const port = m ? Number(m[2]) : NaN;
  if (!m || port > 65535) {
    throw new Error(`--metrics (GP_AGENT_METRICS) must be off, a port or host:port, e.g. 127.0.0.1:9464; got ${JSON.stringify(value)}`);
  }
  const host = m[1] ? m[1].replace(/^\[(.*)\]$/, '$1') : DEFAULT_METRICS.host;
  return { host, port, explicit: true };
}
