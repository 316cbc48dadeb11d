import { z } from 'zod';

/**
 * The agent versions a gateway names in its welcome (docs/decisions.md, "Agent updates"): the oldest
 * it supports and the newest it offers (null when it offers none). Added to the welcome after the
 * first release of protocol 1 as an optional field: older agents' schemas drop keys they do not know,
 * and older gateways send none.
 */
export const AgentVersionsSchema = z.object({
  minimum: z.string().max(32),
  latest: z.string().max(32).nullable(),
});
export type AgentVersions = z.infer<typeof AgentVersionsSchema>;

/** `1.2.3` as numbers; null for anything else (a pre-release or build suffix is ignored). */
function parts(version: string): [number, number, number] | null {
  const m = /^(\d+)\.(\d+)\.(\d+)(?:[-+].*)?$/.exec(version.trim());
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : null;
}

/** Whether `version` is older than `than`, compared as numbers (0.10.0 is newer than 0.9.0); a version that is not x.y.z is. */
export function isOlderVersion(version: string, than: string): boolean {
  const have = parts(version);
  const need = parts(than);
  if (!need) return false;
  if (!have) return true;
  for (let i = 0; i < 3; i++) if (have[i] !== need[i]) return have[i]! < need[i]!;
  return false;
}

/** What the agent logs after the gateway's welcome: nothing, a notice that a newer agent exists, or a warning to upgrade. */
export function agentVersionAdvice(
  version: string,
  versions: AgentVersions | undefined,
): { level: 'warn' | 'info'; message: string } | null {
  if (!versions) return null;
  if (isOlderVersion(version, versions.minimum))
    return {
      level: 'warn',
      message: `this agent (${version}) is older than ${versions.minimum}, the oldest the gateway supports: upgrade it now with \`gp-agent update\` (docs/operations.md, "Updating agents")`,
    };
  if (versions.latest && isOlderVersion(version, versions.latest))
    return {
      level: 'info',
      message: `a newer agent, ${versions.latest}, is available (this one is ${version}): upgrade when convenient with \`gp-agent update\` (docs/operations.md, "Updating agents")`,
    };
  return null;
}
