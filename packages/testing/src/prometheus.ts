/**
 * Samples of Prometheus' text format as a map: `name{a=x,b=y}` (labels sorted, values unquoted) to
 * the value, for tests that read a `/metrics` answer as a scraper would.
 */
export function prometheusSamples(text: string): Map<string, number> {
  const found = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) throw new Error(`not a sample line: ${line}`);
    const labels = [...(m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)].map(([, k, v]) => `${k}=${v}`).sort();
    found.set(`${m[1]}{${labels.join(',')}}`, Number(m[3]));
  }
  return found;
}
