import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { sha256Hex } from '../../../core/auth/secrets.ts';
import { tempStore } from '../../../testing/tempStore.ts';
import { formatTime } from '../output.ts';
import {
  createConnection,
  listConnections,
  revokeAgentToken,
  rotateAgentToken,
  setDefaultCompany,
  setWriteWhitelist,
} from './connection.ts';

const { store, admin, dispose } = await tempStore();
after(dispose);

test('connection create prints the agent token once, alone on its line, and stores only its hash', async () => {
  const org = await admin.createOrganisation('Acme Ltd');
  const lines = await createConnection(admin, { org: 'Acme Ltd', name: 'Head office', defaultCompany: 'two' });
  const token = lines[3]!;
  assert.match(token, /^lb_agent_[0-9A-Za-z]{32}$/);
  const connection = (await store.findConnectionByAgentTokenHash(sha256Hex(token)))!;
  assert.deepEqual(lines, [
    `Created connection ${connection.id} "Head office" for "Acme Ltd" (${org.id}), default company TWO.`,
    'Its agent token is shown this once; only its hash is kept. Give it to whoever installs the agent:',
    '',
    token,
    '',
    "On the customer's server, with the token above in a file (agent.token), as administrator:",
    "  gp-agent install --gateway <this gateway's URL> --token-file agent.token   (docs/operations.md: Running the agent in production)",
    `API clients of "Acme Ltd" (${org.id}) then send: X-Connection-Id: ${connection.id}`,
  ]);
  await assert.rejects(createConnection(admin, { org: org.id, name: 'Bad', defaultCompany: 'TOOLONG' }), {
    message: '"TOOLONG" is not a GP company id: 1 to 5 letters or digits, e.g. TWO',
  });
});

test('connection list shows default company, writable objects and the agents as the gateways recorded them', async () => {
  const org = await admin.createOrganisation('Listed');
  const quiet = (await admin.createConnection({ orgId: org.id, name: 'Quiet', defaultCompany: null })).connection;
  const live = (await admin.createConnection({ orgId: org.id, name: 'Live', defaultCompany: 'TWO' })).connection;
  const gone = (await admin.createConnection({ orgId: org.id, name: 'Gone', defaultCompany: 'NWIND' })).connection;
  await store.setWriteWhitelist(org.id, live.id, ['customers', 'gl-entries']);
  const at = new Date();
  const session = { gatewayId: 'gw_1', agentVersion: '0.1.0', agentHost: 'gp01', companies: ['TWO', 'NWIND'], at };
  const details = {
    platform: 'win32',
    dialect: 'mssql',
    gpVersion: '18.7.1234',
    database: 'ok' as const,
    databaseMessage: null,
    draining: false,
  };
  await store.recordAgentConnected({ ...session, id: 'as_live', connectionId: live.id, details });
  await store.recordAgentConnected({
    ...session,
    id: 'as_live2',
    connectionId: live.id,
    agentHost: 'gp02',
    agentVersion: '0.0.9',
    at: new Date(at.getTime() - 1),
    details,
  });
  await store.recordAgentDetails(
    'as_live2',
    {
      companies: [],
      details: { ...details, gpVersion: null, database: 'unavailable', databaseMessage: "Login failed for user 'api'.", draining: true },
    },
    at,
  );
  await store.recordAgentConnected({ ...session, id: 'as_gone', connectionId: gone.id, details });
  await store.recordAgentDisconnected('as_gone', new Date('2026-03-01T14:05:09.123Z'));
  const lines = await listConnections(admin, org.id);
  const rows = lines.slice(2).map((l) => (l.startsWith('    - ') ? [l] : l.split(/ {2,}/)));
  const seen = formatTime(at.toISOString());
  const before = formatTime(new Date(at.getTime() - 1).toISOString());
  assert.equal(lines[0], `Connections of "Listed" (${org.id}):`);
  assert.deepEqual(lines[1]!.split(/ {2,}/), ['ID', 'NAME', 'DEFAULT COMPANY', 'WRITABLE', 'AGENT']);
  assert.deepEqual(rows, [
    ['sandbox', 'Demo sandbox', 'TWO', 'none (read-only)', 'built-in demo agent, not running (is the gateway started?)'],
    [quiet.id, 'Quiet', '-', 'none', 'never connected'],
    [live.id, 'Live', 'TWO', 'customers,gl-entries', 'connected (2 agents; agent 0.1.0 on gp01, companies TWO, NWIND)'],
    [`    - gp01: agent 0.1.0 (win32, mssql), GP 18.7.1234, database ok, companies TWO, NWIND, connected ${seen}, last seen ${seen}`],
    [
      `    - gp02: agent 0.0.9 (OUTDATED: older than 0.1.0, the oldest this gateway supports; upgrade it) (win32, mssql), GP version unknown, DATABASE UNAVAILABLE (Login failed for user 'api'.), DRAINING (shutting down), no companies, connected ${before}, last seen ${seen}`,
    ],
    [gone.id, 'Gone', 'NWIND', 'none', 'offline, last seen 2026-03-01 14:05:09 UTC (agent 0.1.0 on gp01)'],
    ['    - last report: GP 18.7.1234, database ok'],
  ]);
});

test('set-default-company takes a connection id or name, warns when the agent lacks the company, and can clear', async () => {
  const org = await admin.createOrganisation('Defaults');
  const conn = (await admin.createConnection({ orgId: org.id, name: 'HQ', defaultCompany: 'TWO' })).connection;
  await store.recordAgentConnected({
    id: 'as_d',
    connectionId: conn.id,
    gatewayId: 'gw',
    agentVersion: '1',
    agentHost: 'h',
    companies: ['TWO', 'NWIND'],
    at: new Date(),
  });
  assert.deepEqual(await setDefaultCompany(admin, { org: 'Defaults', connection: 'HQ', company: 'nwind' }), [
    `The default company of "HQ" (${conn.id}) is now NWIND: requests without X-Company go there.`,
  ]);
  assert.deepEqual(await setDefaultCompany(admin, { org: 'Defaults', connection: conn.id, company: 'ABC' }), [
    `The default company of "HQ" (${conn.id}) is now ABC: requests without X-Company go there.`,
    'Note: its agent reports the companies TWO, NWIND; until ABC is among them, requests without X-Company get 400.',
  ]);
  assert.deepEqual(await setDefaultCompany(admin, { org: 'Defaults', connection: 'HQ', clear: true }), [
    `"HQ" (${conn.id}) has no default company now: requests must send X-Company.`,
  ]);
  assert.equal((await store.findConnection(org.id, conn.id))?.defaultCompany, null);
  await assert.rejects(setDefaultCompany(admin, { org: 'Defaults', connection: 'HQ' }), { message: 'give either a company id or --clear' });
  await assert.rejects(setDefaultCompany(admin, { org: 'Defaults', connection: 'Branch', company: 'TWO' }), {
    message: `"Defaults" has no connection with the id or name "Branch". See them with: gp-gateway connection list --org ${org.id}`,
  });
});

test('set-write-whitelist accepts writable objects, reports every bad one, and refuses the sandbox', async () => {
  const org = await admin.createOrganisation('Writers');
  const conn = (await admin.createConnection({ orgId: org.id, name: 'HQ', defaultCompany: 'TWO' })).connection;
  assert.deepEqual(await setWriteWhitelist(admin, { org: org.id, connection: 'HQ', objects: 'gl-entries,Customers' }), [
    `Writable on "HQ" (${conn.id}): customers, gl-entries. Writes to any other object are refused (403).`,
  ]);
  await assert.rejects(
    setWriteWhitelist(admin, { org: org.id, connection: 'HQ', objects: 'customers,companies,widgets' }),
    (error: Error) => {
      assert.match(
        error.message,
        /^the write whitelist was not changed:\n {2}- companies is read-only: v1 does not write it\n {2}- there is no object named "widgets"\nObjects that can be writable: customers, /,
      );
      return true;
    },
  );
  assert.deepEqual((await store.findConnection(org.id, conn.id))?.writeWhitelist, ['customers', 'gl-entries']);
  assert.deepEqual(await setWriteWhitelist(admin, { org: org.id, connection: conn.id, objects: 'none' }), [
    `No object is writable on "HQ" (${conn.id}) now.`,
  ]);
  await assert.rejects(setWriteWhitelist(admin, { org: org.id, connection: 'sandbox', objects: 'customers' }), {
    message: 'the sandbox is read-only; it has no write whitelist',
  });
});

test('connection rotate-token prints the new token once and alone; revoke-token leaves none, and list says so', async () => {
  const org = await admin.createOrganisation('Rotating Ltd');
  const { connection, agentToken } = await admin.createConnection({ orgId: org.id, name: 'Plant', defaultCompany: 'TWO' });
  const lines = await rotateAgentToken(admin, { org: 'Rotating Ltd', connection: 'Plant' });
  const token = lines[4]!;
  assert.match(token, /^lb_agent_[0-9A-Za-z]{32}$/);
  assert.deepEqual([lines[3], lines[5]], ['', '']);
  assert.equal(lines.filter((l) => l.includes(token)).length, 1);
  assert.equal(await store.findConnectionByAgentTokenHash(sha256Hex(agentToken)), null);
  assert.equal((await store.findConnectionByAgentTokenHash(sha256Hex(token)))?.id, connection.id);

  assert.deepEqual(await revokeAgentToken(admin, { org: org.id, connection: connection.id }), [
    `The agent token of "Plant" (${connection.id}) is revoked: no agent can connect for it, and agents still`,
    'connected are disconnected within a second. Its API requests get 503 until an agent connects with a new token:',
    `  gp-gateway connection rotate-token ${connection.id} --org ${org.id}`,
  ]);
  assert.equal(await store.findConnectionByAgentTokenHash(sha256Hex(token)), null);
  assert.match((await listConnections(admin, org.id)).join('\n'), /Plant .*agent token REVOKED \(issue a new one with rotate-token\)/);
  await assert.rejects(rotateAgentToken(admin, { org: org.id, connection: 'sandbox' }), {
    message: 'the sandbox is served by the built-in agent; it has no agent token',
  });
});

test('connection rotate-token --keep-old-for keeps the old token opening the connection until the time printed', async () => {
  const org = await admin.createOrganisation('Overlap tokens');
  const { connection, agentToken } = await admin.createConnection({ orgId: org.id, name: 'Plant' });
  const lines = await rotateAgentToken(admin, { org: org.id, connection: 'Plant', keepOldFor: '1h' });
  const token = lines[4]!;
  assert.match(token, /^lb_agent_[0-9A-Za-z]{32}$/);
  const until = (await store.listConnections(org.id)).find((c) => c.id === connection.id)!.previousAgentTokenUntil!;
  assert.equal(lines[0], `"Plant" (${connection.id}) has a new agent token. The old one keeps working until ${formatTime(until)}:`);
  assert.equal((await store.findConnectionByAgentTokenHash(sha256Hex(agentToken)))?.id, connection.id, 'the old token, in its hour');
  assert.equal((await store.findConnectionByAgentTokenHash(sha256Hex(token)))?.id, connection.id);
  assert.equal(await store.findConnectionByAgentTokenHash(sha256Hex(agentToken), new Date(Date.parse(until))), null, 'not from its end');
  assert.match(
    (await listConnections(admin, org.id)).join('\n'),
    new RegExp(`Plant .*; the old agent token works until ${formatTime(until)}$`, 'm'),
  );
});
