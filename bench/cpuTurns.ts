import { load, type GatewayAndAgent } from './system.ts';

/**
 * The turns bench:ab and bench:observability share: systems running side by side take the same
 * 16-connection load in short turns, and each sums the requests it answered and the gateway and
 * agent CPU they took, so that per-request CPU compares systems on the same shared machine.
 */
export interface CpuSide {
  name: string;
  system: GatewayAndAgent;
  requests: number;
  /** CPU ms, summed over the measured turns. */
  gateway: number;
  agent: number;
}

export const cpuSide = (name: string, system: GatewayAndAgent): CpuSide => ({ name, system, requests: 0, gateway: 0, agent: 0 });

/** `get`: customers by id, cycling through `ids`; otherwise (`list`) the first page of 100 customers. */
export function customerPaths(scenario: string, ids: readonly string[]): () => string {
  let i = 0;
  return () => (scenario === 'get' ? `/v1/customers/${encodeURIComponent(ids[i++ % ids.length]!)}` : '/v1/customers?limit=100');
}

/** The requests `system` answered in `seconds` of `path` at 16 connections; a failed request fails the bench. */
export async function loadTurn(system: GatewayAndAgent, path: () => string, seconds: number): Promise<number> {
  const { requests, errors } = await load(system.url, system.auth, path, 16, seconds);
  if (errors > 0) throw new Error(`${errors} failed requests`);
  return requests;
}

/** One measured turn of 1 s: adds its requests and the CPU both processes spent on them to `side`. */
export async function measuredTurn(side: CpuSide, path: () => string): Promise<void> {
  const before = side.system.cpu();
  side.requests += await loadTurn(side.system, path, 1);
  const after = side.system.cpu();
  side.gateway += after.gateway - before.gateway;
  side.agent += after.agent - before.agent;
}
