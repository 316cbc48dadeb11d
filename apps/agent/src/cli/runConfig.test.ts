import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_TIMINGS } from '../connection/dialGateway.ts';
import { ConfigError, loadAgentConfig } from './runConfig.ts';

const token = `lb_agent_${'a'.repeat(32)}`;
/** What a SQL Server configuration holds when only the connection is given. */
const MSSQL_DEFAULTS = { lockTimeoutMs: 5000, writeTimeoutMs: 120_000, systemDatabase: 'DYNAMICS' };
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-config-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const p = path.join(dir, name);
  fs.writeFileSync(p, text);
  return p;
}

function issuesOf(run: () => unknown): string[] {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof ConfigError, String(error));
    return error.issues;
  }
  assert.fail('expected a ConfigError');
}

test('flags win over environment variables', () => {
  const config = loadAgentConfig(
    { gateway: 'https://gw.example.com', sqliteDir: './demo' },
    { GP_AGENT_TOKEN: token, GP_GATEWAY_URL: 'https://other' },
  );
  assert.deepEqual(
    {
      gatewayUrl: config.gatewayUrl,
      token: config.token,
      database: config.database,
      logLevel: config.logLevel,
      logFile: config.logFile,
      timings: config.timings,
    },
    {
      gatewayUrl: 'https://gw.example.com',
      token,
      database: { kind: 'sqlite', dir: './demo' },
      logLevel: 'info',
      logFile: null,
      timings: DEFAULT_TIMINGS,
    },
  );
});

test('a SQL Server connection comes from --mssql or GP_MSSQL_CONNECTION', () => {
  const config = loadAgentConfig(
    {},
    { GP_GATEWAY_URL: 'https://gw', GP_AGENT_TOKEN: token, GP_MSSQL_CONNECTION: 'Server=gp01;Database=DYNAMICS' },
  );
  assert.deepEqual(config.database, {
    kind: 'mssql',
    connection: 'Server=gp01;Database=DYNAMICS',
    isolation: 'read-committed',
    lockTimeoutMs: 5000,
    writeTimeoutMs: 120_000,
    systemDatabase: 'DYNAMICS',
  });
});

test('each missing or malformed setting is named with how to give it', () => {
  assert.throws(
    () => loadAgentConfig({}, {}),
    (error: Error) => {
      assert.match(error.message, /gateway URL is missing.*--gateway.*GP_GATEWAY_URL/);
      assert.match(error.message, /agent token is missing.*GP_AGENT_TOKEN.*--token-file/);
      assert.match(error.message, /no database configured/);
      return true;
    },
  );
  assert.throws(() => loadAgentConfig({ gateway: 'https://gw', token: 'lb_live_x', sqliteDir: 'd' }, {}), /must look like lb_agent_/);
  assert.throws(() => loadAgentConfig({ gateway: 'https://gw', token, sqliteDir: 'd', mssql: 'Server=x' }, {}), /not both/);
});

test('a configuration file gives every setting by its environment name; the environment and flags win over it', () => {
  const conf = file(
    'gp-agent.conf',
    [
      '# the agent on gp01',
      `GP_GATEWAY_URL = https://file.example.com`,
      `GP_AGENT_TOKEN = "${token}"`,
      'GP_SQLITE_DIR = demo',
      '; timings',
      'GP_AGENT_HEARTBEAT_INTERVAL_MS=200',
      'GP_AGENT_HEARTBEAT_TIMEOUT_MS = 600',
      'GP_AGENT_DRAIN_GRACE_MS = 5000',
      'LOG_LEVEL = debug',
    ].join('\r\n'),
  );
  const config = loadAgentConfig({ config: conf, logLevel: 'warn' }, { GP_AGENT_DRAIN_GRACE_MS: '1000' });
  assert.equal(config.gatewayUrl, 'https://file.example.com');
  assert.equal(config.token, token);
  assert.deepEqual(config.database, { kind: 'sqlite', dir: path.join(dir, 'demo') }, 'relative paths in the file are relative to the file');
  assert.equal(config.logLevel, 'warn');
  assert.deepEqual([config.timings.heartbeatIntervalMs, config.timings.heartbeatTimeoutMs, config.timings.drainGraceMs], [200, 600, 1000]);
  assert.equal(loadAgentConfig({}, { GP_AGENT_CONFIG: conf }).configFile, conf);
});

test('a JSON configuration file works the same way', () => {
  const conf = file(
    'agent.json',
    JSON.stringify({
      GP_GATEWAY_URL: 'https://json.example.com',
      GP_AGENT_TOKEN: token,
      GP_MSSQL_CONNECTION: 'Server=gp01',
      GP_SQLITE_WORKERS: 4,
    }),
  );
  const config = loadAgentConfig({ config: conf }, {});
  assert.deepEqual(
    [config.gatewayUrl, config.database, config.sqliteWorkers],
    ['https://json.example.com', { kind: 'mssql', connection: 'Server=gp01', isolation: 'read-committed', ...MSSQL_DEFAULTS }, 4],
  );
});

test('bad values name the setting and where it came from, never a secret', () => {
  const conf = file(
    'bad.conf',
    [
      `GP_GATEWAY_URL = https://gw.example.com`,
      `GP_AGENT_TOKEN = lb_agent_short`,
      'GP_SQLITE_DIR = demo',
      'GP_AGENT_HEARTBEAT_INTERVAL_MS = soon',
      'GP_AGENT_HEARTBEAT_TIMEOUT_MS = 100',
    ].join('\n'),
  );
  assert.deepEqual(
    issuesOf(() => loadAgentConfig({ config: conf }, { GP_AGENT_BACKOFF_MAX_MS: '-5' })),
    [
      'GP_AGENT_TOKEN (from bad.conf line 2): the agent token must look like lb_agent_ followed by 32 letters and digits (as `gp-gateway connection create` printed it)',
      'GP_AGENT_HEARTBEAT_INTERVAL_MS (from bad.conf line 4): must be a whole number of milliseconds from 50 to 600000; got "soon"',
      'GP_AGENT_BACKOFF_MAX_MS (from environment): must be a whole number of milliseconds from 10 to 3600000; got "-5"',
      'GP_AGENT_HEARTBEAT_TIMEOUT_MS (from bad.conf line 5): must be longer than GP_AGENT_HEARTBEAT_INTERVAL_MS (10000), or a single late pong drops the connection; got "100"',
    ],
  );
  assert.deepEqual(
    issuesOf(() => loadAgentConfig({ config: file('typo.conf', 'GP_GATEWAY = https://gw\nnonsense\n') }, {})),
    [
      'typo.conf line 1: GP_GATEWAY is not a setting of the agent; the settings are GP_GATEWAY_URL, GP_AGENT_TOKEN, GP_AGENT_TOKEN_FILE, GP_MSSQL_CONNECTION, GP_MSSQL_ISOLATION, GP_MSSQL_LOCK_TIMEOUT_MS, GP_MSSQL_WRITE_TIMEOUT_MS, GP_SYSTEM_DATABASE, GP_SQLITE_DIR, LOG_LEVEL, GP_AGENT_LOG_FILE, GP_AGENT_HEARTBEAT_INTERVAL_MS, GP_AGENT_HEARTBEAT_TIMEOUT_MS, GP_AGENT_BACKOFF_MIN_MS, GP_AGENT_BACKOFF_MAX_MS, GP_AGENT_CONNECT_TIMEOUT_MS, GP_AGENT_DRAIN_GRACE_MS, GP_AGENT_STATUS_INTERVAL_MS, GP_SQLITE_WORKERS, GP_AGENT_ALLOW_WRITES, GP_AGENT_CHANGES_INTERVAL_MS, GP_AGENT_CHANGES_BUDGET_MS, GP_AGENT_CHANGES_OVERLAP_MS, GP_AGENT_CHANGES_HISTORY_EVERY, GP_AGENT_STATE_DIR',
      'typo.conf line 2: expected NAME = value, e.g. GP_GATEWAY_URL = https://gateway.example.com',
    ],
  );
  const missing = path.join(dir, 'nowhere.conf');
  assert.match(
    issuesOf(() => loadAgentConfig({ config: missing }, {}))[0]!,
    /the configuration file .*nowhere\.conf cannot be read \(ENOENT\)/,
  );
  const secret = 'Server=gp01;Password=hunter2';
  const both = issuesOf(() => loadAgentConfig({ mssql: secret, sqliteDir: 'd' }, {}, 'database'));
  assert.deepEqual(both, [
    'both GP_MSSQL_CONNECTION (from --mssql) and GP_SQLITE_DIR (from --sqlite-dir) are set: give one database, not both',
  ]);
});

test('the support commands need only the database settings', () => {
  const config = loadAgentConfig({ sqliteDir: 'demo' }, {}, 'database');
  assert.deepEqual(config.database, { kind: 'sqlite', dir: 'demo' });
});

test('the test-only delay comes from the environment only', () => {
  const conf = file('delay.conf', 'GP_AGENT_TEST_DELAY_MS = 100\n');
  assert.match(issuesOf(() => loadAgentConfig({ config: conf }, {}))[0]!, /GP_AGENT_TEST_DELAY_MS is not a setting of the agent/);
  assert.equal(loadAgentConfig({ sqliteDir: 'd' }, { GP_AGENT_TEST_DELAY_MS: '250' }, 'database').testDelayMs, 250);
});

test("writes are off unless the customer's IT turns them on, by flag, environment or file", () => {
  const base = { gateway: 'https://gw.example.com', token, sqliteDir: 'd' };
  assert.equal(loadAgentConfig(base, {}).allowWrites, false);
  // Commander gives a switch as `true`.
  assert.equal(loadAgentConfig({ ...base, allowWrites: true as unknown as string }, {}).allowWrites, true);
  assert.equal(loadAgentConfig(base, { GP_AGENT_ALLOW_WRITES: 'yes' }).allowWrites, true);
  assert.equal(loadAgentConfig({ ...base, config: file('writes.conf', 'GP_AGENT_ALLOW_WRITES = false\n') }, {}).allowWrites, false);
  assert.deepEqual(
    issuesOf(() => loadAgentConfig(base, { GP_AGENT_ALLOW_WRITES: 'sometimes' })),
    ['GP_AGENT_ALLOW_WRITES (from environment): must be true or false; got "sometimes"'],
  );
});

test('the test-only write fault comes from the environment only, and a wrong one is named', () => {
  const conf = file('fault.conf', 'GP_AGENT_FAULT = exit-after-commit\n');
  assert.match(issuesOf(() => loadAgentConfig({ config: conf }, {}))[0]!, /GP_AGENT_FAULT is not a setting of the agent/);
  assert.equal(loadAgentConfig({ sqliteDir: 'd' }, {}, 'database').fault, null);
  assert.equal(loadAgentConfig({ sqliteDir: 'd' }, { GP_AGENT_FAULT: 'exit-after-commit' }, 'database').fault, 'exit-after-commit');
  assert.match(
    issuesOf(() => loadAgentConfig({ sqliteDir: 'd' }, { GP_AGENT_FAULT: 'exit' }, 'database'))[0]!,
    /GP_AGENT_FAULT .*must be one of exit-after-commit/,
  );
});

test('the SQL Server isolation level defaults to read committed and names its choices when wrong', () => {
  const base = { GP_GATEWAY_URL: 'https://gw', GP_AGENT_TOKEN: `lb_agent_${'a'.repeat(32)}`, GP_MSSQL_CONNECTION: 'Server=gp01' };
  assert.deepEqual(loadAgentConfig({}, base).database, {
    kind: 'mssql',
    connection: 'Server=gp01',
    isolation: 'read-committed',
    ...MSSQL_DEFAULTS,
  });
  assert.deepEqual(loadAgentConfig({}, { ...base, GP_MSSQL_ISOLATION: 'snapshot' }).database, {
    kind: 'mssql',
    connection: 'Server=gp01',
    isolation: 'snapshot',
    ...MSSQL_DEFAULTS,
  });
  assert.throws(
    () => loadAgentConfig({}, { ...base, GP_MSSQL_ISOLATION: 'serializable' }),
    /GP_MSSQL_ISOLATION.*read-committed, snapshot, read-uncommitted/,
  );
});

test('the isolation level is checked wherever it is set, also beside a SQLite database (zod checks each setting on its own)', () => {
  assert.deepEqual(
    issuesOf(() => loadAgentConfig({ sqliteDir: 'demo' }, { GP_MSSQL_ISOLATION: 'serializable' }, 'database')),
    ['GP_MSSQL_ISOLATION (from environment): must be one of read-committed, snapshot, read-uncommitted; got "serializable"'],
  );
  assert.deepEqual(
    issuesOf(() => loadAgentConfig({}, { GP_MSSQL_ISOLATION: 'serializable' }, 'database')),
    [
      'GP_MSSQL_ISOLATION (from environment): must be one of read-committed, snapshot, read-uncommitted; got "serializable"',
      'no database configured: pass --mssql <connection string> (env GP_MSSQL_CONNECTION) or --sqlite-dir <folder> (env GP_SQLITE_DIR), not both',
    ],
  );
});

test('an empty value in the file is given, not missing: the gateway and token say how to give them, numbers say what they got', () => {
  const conf = file(
    'empty.conf',
    ['GP_GATEWAY_URL =', 'GP_AGENT_TOKEN = ""', 'GP_SQLITE_DIR = demo', 'GP_AGENT_CONNECT_TIMEOUT_MS ='].join('\n'),
  );
  assert.deepEqual(
    issuesOf(() => loadAgentConfig({ config: conf }, {})),
    [
      'the gateway URL is missing: pass --gateway https://… or set GP_GATEWAY_URL',
      'the agent token is missing: set GP_AGENT_TOKEN (in the configuration file or the environment) or pass --token-file <file>',
      'GP_AGENT_CONNECT_TIMEOUT_MS (from empty.conf line 4): must be a whole number of milliseconds from 100 to 600000; got ""',
    ],
  );
});

test('a connection string is never repeated, whatever is wrong beside it', () => {
  const secret = 'Server=gp01;User Id=api_read;Password=hunter2';
  const issues = issuesOf(() =>
    loadAgentConfig({ mssql: secret, token: 'lb_agent_short' }, { GP_MSSQL_ISOLATION: 'x', GP_SQLITE_DIR: 'd' }),
  );
  assert.ok(issues.length >= 3, issues.join('\n'));
  assert.ok(
    issues.every((issue) => !issue.includes('hunter2') && !issue.includes('lb_agent_short')),
    issues.join('\n'),
  );
});

test('the token can come from a file named by --token-file or GP_AGENT_TOKEN_FILE, relative to the configuration file', () => {
  const tokenFile = file('agent.token', `${token}\n`);
  const byFlag = loadAgentConfig({ gateway: 'https://gw', tokenFile, sqliteDir: 'd' }, {});
  assert.equal(byFlag.token, token);
  assert.deepEqual(byFlag.warnings, []);
  const conf = file(
    'with-token-file.conf',
    ['GP_GATEWAY_URL = https://gw', 'GP_AGENT_TOKEN_FILE = agent.token', 'GP_SQLITE_DIR = d'].join('\n'),
  );
  assert.equal(loadAgentConfig({ config: conf }, {}).token, token);
  assert.deepEqual(
    issuesOf(() => loadAgentConfig({ gateway: 'https://gw', tokenFile: path.join(dir, 'absent'), sqliteDir: 'd' }, {})),
    [`GP_AGENT_TOKEN_FILE (from --token-file): ${path.join(dir, 'absent')} cannot be read (ENOENT)`],
  );
  assert.deepEqual(
    issuesOf(() => loadAgentConfig({ gateway: 'https://gw', tokenFile }, { GP_AGENT_TOKEN: token, GP_SQLITE_DIR: 'd' })),
    ['both GP_AGENT_TOKEN (from environment) and GP_AGENT_TOKEN_FILE (from --token-file) are set: give one'],
  );
});

test('--token still works, with a warning that it shows in the process list; the environment and the file do not warn', () => {
  const byFlag = loadAgentConfig({ gateway: 'https://gw', token, sqliteDir: 'd' }, {});
  assert.equal(byFlag.token, token);
  assert.equal(byFlag.warnings.length, 1);
  assert.match(byFlag.warnings[0]!, /--token shows the agent token .* process list.*GP_AGENT_TOKEN.*--token-file/);
  assert.deepEqual(loadAgentConfig({ gateway: 'https://gw', sqliteDir: 'd' }, { GP_AGENT_TOKEN: token }).warnings, []);
});

test("a write's request timeout defaults to 2 minutes (mssql's own 15 s cancelled long documents), from 1 s to 1 h", () => {
  const base = { GP_MSSQL_CONNECTION: 'Server=gp01' };
  const database = (env: Record<string, string>) => loadAgentConfig({}, { ...base, ...env }, 'database').database;
  assert.equal((database({}) as { writeTimeoutMs: number }).writeTimeoutMs, 120_000);
  assert.equal((database({ GP_MSSQL_WRITE_TIMEOUT_MS: '300000' }) as { writeTimeoutMs: number }).writeTimeoutMs, 300_000);
  for (const bad of ['0', '-1', '2m', '3600001'])
    assert.deepEqual(
      issuesOf(() => database({ GP_MSSQL_WRITE_TIMEOUT_MS: bad })),
      [`GP_MSSQL_WRITE_TIMEOUT_MS (from environment): must be a whole number of milliseconds from 1000 to 3600000; got "${bad}"`],
    );
});

test('the lock timeout defaults to 5 s; 0 (never wait) is allowed, waiting for ever is not', () => {
  const base = { GP_MSSQL_CONNECTION: 'Server=gp01' };
  const database = (env: Record<string, string>) => loadAgentConfig({}, { ...base, ...env }, 'database').database;
  assert.equal((database({}) as { lockTimeoutMs: number }).lockTimeoutMs, 5000);
  assert.equal((database({ GP_MSSQL_LOCK_TIMEOUT_MS: '1500' }) as { lockTimeoutMs: number }).lockTimeoutMs, 1500);
  assert.equal((database({ GP_MSSQL_LOCK_TIMEOUT_MS: '0' }) as { lockTimeoutMs: number }).lockTimeoutMs, 0);
  for (const bad of ['-1', '5s', '600001'])
    assert.deepEqual(
      issuesOf(() => database({ GP_MSSQL_LOCK_TIMEOUT_MS: bad })),
      [`GP_MSSQL_LOCK_TIMEOUT_MS (from environment): must be a whole number of milliseconds from 0 to 600000; got "${bad}"`],
    );
});

test('the system database is DYNAMICS unless named, and only a SQL Server identifier is accepted', () => {
  const conf = file('named.conf', 'GP_MSSQL_CONNECTION = Server=gp01\nGP_SYSTEM_DATABASE = GPSYS\n');
  assert.equal((loadAgentConfig({ config: conf }, {}, 'database').database as { systemDatabase: string }).systemDatabase, 'GPSYS');
  for (const bad of ['GP]; DROP DATABASE TWO; --', '1GP', 'GP SYS', "GP'", '#tmp', 'x'.repeat(129)])
    assert.match(
      issuesOf(() => loadAgentConfig({ config: conf }, { GP_SYSTEM_DATABASE: bad }, 'database'))[0]!,
      /^GP_SYSTEM_DATABASE \(from environment\): must be the name of GP's system database as SQL Server has it/,
    );
  // The demo folder's system database is always DYNAMICS.sqlite: another name there is a mistake.
  assert.deepEqual(
    issuesOf(() => loadAgentConfig({ sqliteDir: 'demo' }, { GP_SYSTEM_DATABASE: 'GPSYS' }, 'database')),
    ['GP_SYSTEM_DATABASE (from environment): names the system database on SQL Server; a SQLite folder always holds DYNAMICS.sqlite'],
  );
  assert.deepEqual(loadAgentConfig({ sqliteDir: 'demo' }, { GP_SYSTEM_DATABASE: 'DYNAMICS' }, 'database').database, {
    kind: 'sqlite',
    dir: 'demo',
  });
});

test("the file follows Node's env-file rules (util.parseEnv): quotes, export, and a # that would cut a value is refused", () => {
  const conf = file(
    'quoted.conf',
    [
      'export GP_GATEWAY_URL="https://gw.example.com"',
      `GP_AGENT_TOKEN = '${token}' # the token of gp01`,
      "GP_MSSQL_CONNECTION = 'Server=gp01;Password=ab#c'",
    ].join('\n'),
  );
  const config = loadAgentConfig({ config: conf }, {});
  assert.equal(config.gatewayUrl, 'https://gw.example.com');
  assert.equal(config.token, token);
  assert.equal((config.database as { connection: string }).connection, 'Server=gp01;Password=ab#c');
  const unquoted = file('hash.conf', 'GP_MSSQL_CONNECTION = Server=gp01;Password=ab#c\n');
  assert.deepEqual(
    issuesOf(() => loadAgentConfig({ config: unquoted }, {}, 'database')),
    [
      'hash.conf line 1: GP_MSSQL_CONNECTION\'s value holds a #, which starts a comment unless the value is in quotes: write GP_MSSQL_CONNECTION = "…"',
    ],
  );
});

test('the gateway must be https:// (the token is sent on connect), except on this machine', () => {
  const base = { token, sqliteDir: 'd' };
  assert.deepEqual(
    issuesOf(() => loadAgentConfig({ ...base, gateway: 'http://gw.example.com' }, {})),
    [
      'GP_GATEWAY_URL (from --gateway): must start with https:// (or wss://): over http:// the agent token would cross the network in clear text; http:// is accepted only for a gateway on this machine (localhost, 127.0.0.1, [::1]); got "http://gw.example.com"',
    ],
  );
  for (const gateway of [
    'https://gw.example.com',
    'wss://gw.example.com',
    'http://127.0.0.1:8080',
    'http://localhost:8080',
    'http://[::1]:8080',
  ])
    assert.equal(loadAgentConfig({ ...base, gateway }, {}).gatewayUrl, gateway);
});

test('change detection polls every 15 s within a 2 s budget, looking 15 minutes back, history every 8th poll, unless set; 0 turns it off', () => {
  const base = { GP_GATEWAY_URL: 'https://gw.example.com', GP_AGENT_TOKEN: `lb_agent_${'a'.repeat(32)}`, GP_SQLITE_DIR: '/tmp/demo' };
  assert.deepEqual(loadAgentConfig({}, base).changes, { intervalMs: 15_000, budgetMs: 2_000, overlapMs: 900_000, historyEvery: 8 });
  assert.deepEqual(
    loadAgentConfig(
      {},
      {
        ...base,
        GP_AGENT_CHANGES_INTERVAL_MS: '0',
        GP_AGENT_CHANGES_BUDGET_MS: '500',
        GP_AGENT_CHANGES_OVERLAP_MS: '60000',
        GP_AGENT_CHANGES_HISTORY_EVERY: '3',
      },
    ).changes,
    { intervalMs: 0, budgetMs: 500, overlapMs: 60_000, historyEvery: 3 },
  );
  assert.throws(
    () => loadAgentConfig({}, { ...base, GP_AGENT_CHANGES_OVERLAP_MS: 'an hour' }),
    /GP_AGENT_CHANGES_OVERLAP_MS.*whole number/,
  );
});

test('the state folder: as given, else systemd’s StateDirectory, else `state` beside the configuration file, else none', () => {
  const base = { GP_GATEWAY_URL: 'https://gw.example.com', GP_AGENT_TOKEN: `lb_agent_${'a'.repeat(32)}`, GP_SQLITE_DIR: '/tmp/demo' };
  assert.equal(loadAgentConfig({}, base).stateDir, null);
  assert.equal(loadAgentConfig({}, { ...base, STATE_DIRECTORY: '/var/lib/gp-agent' }).stateDir, '/var/lib/gp-agent');
  assert.equal(loadAgentConfig({ stateDir: '/srv/state' }, { ...base, STATE_DIRECTORY: '/var/lib/gp-agent' }).stateDir, '/srv/state');
  assert.equal(loadAgentConfig({}, { ...base, GP_AGENT_STATE_DIR: '/srv/other' }).stateDir, '/srv/other');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'state-dir-'));
  try {
    const file = path.join(dir, 'gp-agent.conf');
    fs.writeFileSync(file, 'GP_SQLITE_DIR = demo\n');
    const { GP_SQLITE_DIR: _, ...env } = base;
    assert.equal(loadAgentConfig({ config: file }, env).stateDir, path.join(dir, 'state'));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
