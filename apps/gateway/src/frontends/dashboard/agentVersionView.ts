import { isOlderVersion } from '@gp-gateway/protocol';
import { outdatedAgentNote } from '../../core/agents/agentVersion.ts';
import type { AgentSessionInfo } from '../../infrastructure/store/store.ts';

/**
 * An agent's version as the connections page shows it: version, commit and Node runtime, then a flag
 * when it is older than the gateway supports (OUTDATED) or than the release the gateway offers
 * (`latest`, from its release folder), with what to run.
 */
export function agentVersionText(agent: Pick<AgentSessionInfo, 'agentVersion' | 'details'>, latest: string | null): string {
  const built = [agent.details?.commit && `commit ${agent.details.commit}`, agent.details?.node && `Node ${agent.details.node}`].filter(
    Boolean,
  );
  const text = `${agent.agentVersion}${built.length ? ` (${built.join(', ')})` : ''}`;
  const outdated = outdatedAgentNote(agent.agentVersion);
  if (outdated) return `${text}${outdated}`;
  if (latest && isOlderVersion(agent.agentVersion, latest))
    return `${text} (behind: ${latest} is available; run gp-agent update on its server)`;
  return text;
}
