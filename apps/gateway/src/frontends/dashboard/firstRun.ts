import { SANDBOX_CONNECTION_ID, type ApiKey, type ConnectionWithPresence, type DailyUsage } from '../../infrastructure/store/store.ts';

/** One step of the first-run checklist, with where to do it. */
export interface FirstRunStep {
  title: string;
  done: boolean;
  /** What done means, or what to do. */
  text: string;
  link: { href: string; label: string } | null;
}

/** The keys page's first-run checklist, until all three steps are done. */
export interface FirstRunChecklist {
  steps: FirstRunStep[];
  /** A first call to paste: the connection's id and the public base URL, the key's secret as `$KEY`. */
  curl: string;
  /** The connection the curl names; null when there is none yet (the curl then says where its id goes). */
  connectionName: string | null;
}

/**
 * The first-run checklist (issue 36 item 7), or null once done: connect GP (a connection of the
 * organisation whose agent has connected at least once), create a key (a live key not revoked), first
 * call (a request with a live key: counted in usage, or its last use recorded).
 */
export function firstRunChecklist(input: {
  connections: readonly ConnectionWithPresence[];
  keys: readonly ApiKey[];
  /** The organisation's counted requests (AdminService.dailyUsage). */
  daily: readonly DailyUsage[];
  /** PageContext.publicUrl(). */
  publicUrl: string;
}): FirstRunChecklist | null {
  const own = input.connections.filter((c) => c.id !== SANDBOX_CONNECTION_ID);
  const connected = own.filter((c) => c.presence.connectedAgents > 0 || c.presence.lastSeenAt !== null);
  const liveKeys = input.keys.filter((k) => k.mode === 'live');
  const activeLive = liveKeys.filter((k) => k.revokedAt === null);
  const counted = new Set(input.daily.filter((d) => d.requests > 0).map((d) => d.keyId));
  const called = liveKeys.some((k) => k.lastUsedAt !== null || counted.has(k.id));
  const connectDone = connected.length > 0;
  const keyDone = activeLive.length > 0;
  if (connectDone && keyDone && called) return null;

  const connection = connected[0] ?? own[0] ?? null;
  const base = input.publicUrl.replace(/\/+$/, '');
  const curl = [
    'curl',
    '-H "Authorization: Bearer $KEY"',
    `-H "X-Connection-Id: ${connection ? connection.id : '<your connection id>'}"`,
    `"${base}/v1/companies"`,
  ].join(' ');
  return {
    steps: [
      {
        title: 'Connect GP',
        done: connectDone,
        text: connectDone
          ? `The agent of “${connected[0]!.name}” has connected.`
          : own.length
            ? 'Install the agent of your connection on a server that reaches GP; this step is done once it connects.'
            : 'Create a connection and install its agent on a server that reaches GP.',
        link: connectDone ? null : { href: '/dashboard/connections', label: 'Go to connections' },
      },
      {
        title: 'Create a key',
        done: keyDone,
        text: keyDone
          ? `The live key “${activeLive[0]!.name}” exists.`
          : 'Create a live key below: it reaches your connections (a test key reaches only the demo sandbox).',
        link: keyDone ? null : { href: '#create-key', label: 'Create a key' },
      },
      {
        title: 'Make a first call',
        done: called,
        text: called
          ? 'A live key has made a request.'
          : 'Run this with your live key’s secret in KEY (shown once when the key was made); it lists the companies the agent reaches.',
        link: null,
      },
    ],
    curl,
    connectionName: connection?.name ?? null,
  };
}
