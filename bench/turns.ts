import { load, type BenchRequest, type Load } from './system.ts';

/** One side of a comparison: where to send, with which headers, and the next request (a GET path, or a request). */
export interface Target {
  base: string;
  headers: Record<string, string>;
  path: () => string | BenchRequest;
}

/** Throughput is measured in turns of this many seconds: see loadInTurns. */
export const TURN_SECONDS = 2;

/**
 * Throughput of each target at `connections`, `seconds` each, measured in turns of TURN_SECONDS that
 * alternate A B B A A B…: this shared 2-core machine's speed drifts by more than the comparison over
 * a minute, so back-to-back runs of one side and then the other measure the drift as much as the
 * sides. Requests and errors are summed over the turns; p50 and p99 are the medians of the turns'.
 * `busy` is called around each of the first target's turns (the CPU it reads is summed).
 */
export async function loadInTurns(
  targets: readonly [Target, Target],
  connections: number,
  busy: (work: () => Promise<Load>) => Promise<Load>,
  seconds: number,
): Promise<[Load, Load]> {
  const turns: Load[][] = [[], []];
  const count = Math.max(1, Math.round(seconds / TURN_SECONDS));
  for (let turn = 0; turn < count; turn++) {
    const order = turn % 2 === 0 ? [0, 1] : [1, 0];
    for (const i of order) {
      const { base, headers, path } = targets[i]!;
      const run = () => load(base, headers, path, connections, seconds / count);
      turns[i]!.push(await (i === 0 ? busy(run) : run()));
    }
  }
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  return turns.map((runs) => {
    const requests = runs.reduce((sum, r) => sum + r.requests, 0);
    return {
      rps: requests / seconds,
      requests,
      p50: median(runs.map((r) => r.p50)),
      p99: median(runs.map((r) => r.p99)),
      errors: runs.reduce((sum, r) => sum + r.errors, 0),
    };
  }) as [Load, Load];
}

/**
 * Latency at concurrency 1 with sub-millisecond resolution (autocannon's histogram counts whole
 * milliseconds): one request after another for `seconds`, timed with performance.now(). The targets
 * take turns, request by request, so that each sees the same machine: on a shared 2-core machine,
 * back-to-back runs of a few seconds differ by more than what is being compared. `rps` is requests
 * per second of the side's own time (1 / mean latency): its throughput at concurrency 1.
 */
export type Latency = { p50: number; p99: number; rps: number; requests: number };

export async function sequential<T extends readonly Target[]>(targets: T, seconds: number): Promise<{ [K in keyof T]: Latency }> {
  const times: number[][] = targets.map(() => []);
  const until = performance.now() + seconds * 1000;
  while (performance.now() < until) {
    for (const [i, target] of targets.entries()) {
      const next = target.path();
      const request = typeof next === 'string' ? { path: next } : next;
      const started = performance.now();
      const res = await fetch(`${target.base}${request.path}`, {
        method: request.method ?? 'GET',
        headers: { ...target.headers, ...request.headers },
        ...(request.body !== undefined && { body: request.body }),
      });
      const body = await res.arrayBuffer();
      if (!res.ok) throw new Error(`${res.status} from ${target.base}${request.path}: ${Buffer.from(body).toString('utf8').slice(0, 500)}`);
      times[i]!.push(performance.now() - started);
    }
  }
  return times.map((t) => {
    const total = t.reduce((sum, x) => sum + x, 0);
    t.sort((x, y) => x - y);
    return { p50: t[Math.floor(t.length / 2)]!, p99: t[Math.floor(t.length * 0.99)]!, rps: t.length / (total / 1000), requests: t.length };
  }) as { [K in keyof T]: Latency };
}
