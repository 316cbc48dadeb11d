import { isOlderVersion, type AgentVersions } from '@gp-gateway/protocol';

/**
 * The oldest agent this gateway supports. Older agents still connect while they speak the protocol
 * (docs/decisions.md#gateway-and-agent-protocol), but operators are told to upgrade them: the CLI's
 * `connection list` (and the dashboard) flag them. Raise it when a fix on the agent's side matters.
 */
export const MINIMUM_AGENT_VERSION = '0.1.0';

/** Whether an agent reporting `version` is older than `minimum`; a version that is not x.y.z is too. */
export function isOutdatedAgent(version: string, minimum = MINIMUM_AGENT_VERSION): boolean {
  return isOlderVersion(version, minimum);
}

/** What operators read after an agent's version: nothing, or that it needs upgrading. */
export function outdatedAgentNote(version: string, minimum = MINIMUM_AGENT_VERSION): string {
  return isOutdatedAgent(version, minimum) ? ` (OUTDATED: older than ${minimum}, the oldest this gateway supports; upgrade it)` : '';
}

/** The versions a welcome or a pong names: the minimum, and the latest the release folder offers (if any) at this moment. */
export function agentVersionsNow(latest: () => string | null = () => null): AgentVersions {
  return { minimum: MINIMUM_AGENT_VERSION, latest: latest() };
}
