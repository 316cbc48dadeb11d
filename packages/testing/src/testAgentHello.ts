/**
 * The hello frame of a hand-made agent (the scripted agent, the e2e's rogue agent, the cluster
 * bench's agents): protocol 1, a Linux agent on SQLite serving company TWO under `companyName`.
 * `allowWrites` is sent only when given, as an agent of before writes sent none.
 */
export function testAgentHello({
  version,
  host,
  allowWrites,
  companyName = 'Two',
}: {
  version: string;
  host: string;
  allowWrites?: boolean;
  companyName?: string;
}): string {
  return JSON.stringify({
    v: 1,
    type: 'hello',
    agent: { version, host, platform: 'linux', dialect: 'sqlite', ...(allowWrites === undefined ? {} : { allowWrites }) },
    companies: [{ id: 'TWO', name: companyName, number: 1 }],
  });
}
