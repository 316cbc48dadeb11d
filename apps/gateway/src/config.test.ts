import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { databaseUrlFrom, loadConfig, publicBaseUrl, publicBaseUrlFrom } from './config.ts';

test('CURSOR_SECRET takes 32+ bytes as hex or base64, is absent by default, and a short one names the variable', () => {
  const key = randomBytes(32);
  assert.deepEqual(loadConfig({ CURSOR_SECRET: key.toString('hex') }).cursorSecret, key);
  assert.deepEqual(loadConfig({ CURSOR_SECRET: key.toString('base64') }).cursorSecret, key);
  assert.equal(loadConfig({}).cursorSecret, null);
  assert.throws(
    () => loadConfig({ CURSOR_SECRET: randomBytes(16).toString('hex') }),
    /^Error: CURSOR_SECRET must be at least 32 random bytes/,
  );
});

test('DATABASE_URL: a PostgreSQL URL or unset (SQLite); anything else names the variable and never repeats the value', () => {
  assert.equal(loadConfig({}).databaseUrl, null);
  assert.equal(loadConfig({ DATABASE_URL: 'postgres://gw:pw@db:5432/gateway' }).databaseUrl, 'postgres://gw:pw@db:5432/gateway');
  assert.equal(databaseUrlFrom({ DATABASE_URL: 'postgresql://db/gateway' }), 'postgresql://db/gateway');
  assert.equal(databaseUrlFrom({}), null);
  for (const wrong of ['mysql://gw:secret-pw@db/gateway', 'db.example.com:5432', 'postgres://']) {
    assert.throws(
      () => loadConfig({ DATABASE_URL: wrong }),
      (error: Error) => error.message.startsWith('DATABASE_URL must be a PostgreSQL URL') && !error.message.includes('secret-pw'),
    );
    assert.throws(() => databaseUrlFrom({ DATABASE_URL: wrong }), /^Error: DATABASE_URL must be a PostgreSQL URL/);
  }
});

test('REDIS_URL and NATS_URL: URLs of their kind, absent by default, and a wrong one names the variable', () => {
  const secret = randomBytes(32).toString('hex');
  const config = loadConfig({ REDIS_URL: 'redis://:pw@redis:6379/0', NATS_URL: 'nats://n1:4222, nats://n2:4222', CURSOR_SECRET: secret });
  assert.equal(config.redisUrl, 'redis://:pw@redis:6379/0');
  assert.equal(config.natsUrl, 'nats://n1:4222,nats://n2:4222');
  assert.deepEqual([loadConfig({}).redisUrl, loadConfig({}).natsUrl], [null, null]);
  assert.throws(
    () => loadConfig({ REDIS_URL: 'localhost:6379', CURSOR_SECRET: secret }),
    /^Error: REDIS_URL must be a URL starting with redis:\/\/ or rediss:\/\//,
  );
  assert.throws(
    () => loadConfig({ NATS_URL: 'nats://ok:4222,http://bad', CURSOR_SECRET: secret }),
    /^Error: NATS_URL must be a URL starting with nats:\/\/ or tls:\/\//,
  );
  assert.throws(() => loadConfig({ NATS_URL: ' , ', CURSOR_SECRET: secret }), /^Error: NATS_URL must name at least one server/);
});

test('several instances need CURSOR_SECRET, so that a cursor from one is good on another', () => {
  assert.throws(() => loadConfig({ NATS_URL: 'nats://nats:4222' }), /^Error: CURSOR_SECRET must be set when REDIS_URL or NATS_URL is/);
  assert.throws(() => loadConfig({ REDIS_URL: 'redis://redis:6379' }), /^Error: CURSOR_SECRET must be set/);
});

test('AGENT_HANDSHAKES_PER_SECOND, SHUTDOWN_GRACE_MS and INSTANCE_ID have defaults and name themselves when wrong', () => {
  const config = loadConfig({});
  assert.deepEqual([config.agentHandshakesPerSecond, config.shutdownGraceMs, config.instanceId], [500, 30_000, null]);
  assert.equal(loadConfig({ AGENT_HANDSHAKES_PER_SECOND: '50', SHUTDOWN_GRACE_MS: '0', INSTANCE_ID: 'gw-1' }).instanceId, 'gw-1');
  assert.throws(
    () => loadConfig({ AGENT_HANDSHAKES_PER_SECOND: '0' }),
    /^Error: AGENT_HANDSHAKES_PER_SECOND must be a whole number from 1 to 100000/,
  );
  assert.throws(() => loadConfig({ AGENT_HANDSHAKES_PER_SECOND: 'lots' }), /^Error: AGENT_HANDSHAKES_PER_SECOND must be/);
  assert.throws(() => loadConfig({ SHUTDOWN_GRACE_MS: '-1' }), /^Error: SHUTDOWN_GRACE_MS must be 0 or more/);
  assert.throws(() => loadConfig({ INSTANCE_ID: 'gw.1' }), /^Error: INSTANCE_ID must be 1 to 64 letters/);
});

test('METRICS_PORT, METRICS_HOST and METRICS_TOKEN: off unless set, loopback by default, and named when wrong', () => {
  const config = loadConfig({});
  assert.deepEqual([config.metricsPort, config.metricsHost, config.metricsToken], [null, '127.0.0.1', null]);
  const set = loadConfig({ METRICS_PORT: '9300', METRICS_HOST: '0.0.0.0', METRICS_TOKEN: 'a'.repeat(32) });
  assert.deepEqual([set.metricsPort, set.metricsHost, set.metricsToken], [9300, '0.0.0.0', 'a'.repeat(32)]);
  assert.throws(() => loadConfig({ METRICS_PORT: '70000' }), /^Error: METRICS_PORT must be a port number/);
  assert.throws(() => loadConfig({ METRICS_PORT: 'nine' }), /^Error: METRICS_PORT must be a port number/);
  assert.throws(() => loadConfig({ METRICS_TOKEN: 'short' }), /^Error: METRICS_TOKEN must be at least 16 characters/);
});

test('EVENTS_RETENTION_DAYS keeps events 30 days unless set, and names itself when wrong', () => {
  assert.equal(loadConfig({}).eventsRetentionDays, 30);
  assert.equal(loadConfig({ EVENTS_RETENTION_DAYS: '7' }).eventsRetentionDays, 7);
  assert.throws(() => loadConfig({ EVENTS_RETENTION_DAYS: '0' }), /EVENTS_RETENTION_DAYS must be a whole number of days from 1 to 3650/);
  assert.throws(() => loadConfig({ EVENTS_RETENTION_DAYS: 'a month' }), /EVENTS_RETENTION_DAYS must be a whole number of days/);
});

test('WEBHOOKS_LEASE_SECONDS leases a delivery 60 s unless set, and names itself when wrong', () => {
  assert.equal(loadConfig({}).webhooksLeaseSeconds, 60);
  assert.equal(loadConfig({ WEBHOOKS_LEASE_SECONDS: '5' }).webhooksLeaseSeconds, 5);
  for (const wrong of ['1', '3601', '2.5', 'a minute'])
    assert.throws(
      () => loadConfig({ WEBHOOKS_LEASE_SECONDS: wrong }),
      /WEBHOOKS_LEASE_SECONDS must be a whole number of seconds from 2 to 3600/,
      wrong,
    );
});

test('GATEWAY_URL: the public base URL, required when HOST is not this machine; without it the gateway listens on loopback only', () => {
  const local = loadConfig({ PORT: '8443' });
  assert.deepEqual([local.host, local.gatewayUrl, publicBaseUrl(local)], ['127.0.0.1', null, 'http://localhost:8443']);
  assert.equal(publicBaseUrl(loadConfig({ PORT: '0' }), 41234), 'http://localhost:41234', 'PORT 0: the port it listens on');
  const public_ = loadConfig({ GATEWAY_URL: 'https://GW.example.com/' });
  assert.deepEqual(
    [public_.host, public_.gatewayUrl, publicBaseUrl(public_)],
    ['0.0.0.0', 'https://gw.example.com', 'https://gw.example.com'],
  );
  assert.equal(
    loadConfig({ GATEWAY_URL: 'https://example.com/gp/', HOST: '10.0.0.5' }).gatewayUrl,
    'https://example.com/gp',
    'a proxy prefix',
  );
  assert.equal(loadConfig({ GATEWAY_URL: 'http://localhost:3000' }).gatewayUrl, 'http://localhost:3000', 'http for this machine');
  assert.equal(loadConfig({ GATEWAY_URL: 'http://127.0.0.1:8080', HOST: '::1' }).host, '::1');
  assert.throws(
    () => loadConfig({ HOST: '0.0.0.0' }),
    /^Error: GATEWAY_URL must be set when HOST \(0\.0\.0\.0\) is not this machine: the address people and agents reach the gateway at, e\.g\. https:\/\/gateway\.example\.com/,
  );
  const refused: [string, RegExp][] = [
    ['gateway.example.com', /must be an absolute URL, e\.g\. https:\/\/gateway\.example\.com, not "gateway\.example\.com"/],
    ['/dashboard', /must be an absolute URL/],
    ['ftp://gw.example.com', /must start with https:\/\//],
    ['http://gw.example.com', /must start with https:\/\/ unless it names this machine.*clear text/],
    ['https://gw.example.com/?x=1', /must have no query/],
    ['https://gw.example.com/?', /must have no query/],
    ['https://gw.example.com/#top', /must have no fragment/],
    ['https://user:pw@gw.example.com', /must not hold a user name or password/],
  ];
  for (const [value, message] of refused) {
    assert.throws(
      () => loadConfig({ GATEWAY_URL: value }),
      (e: Error) => e.message.startsWith('GATEWAY_URL') && message.test(e.message),
      value,
    );
    assert.throws(() => publicBaseUrlFrom({ GATEWAY_URL: value }), message, value);
  }
  assert.equal(publicBaseUrlFrom({ PORT: '8080' }), 'http://localhost:8080', 'the operator CLI: this machine on PORT');
  assert.equal(publicBaseUrlFrom({ GATEWAY_URL: 'https://a.example' }, 'https://b.example/'), 'https://b.example', '--gateway-url wins');
});

test("RELEASE_DIR: the agent's release folder, DATA_DIR/releases unless set", () => {
  assert.equal(loadConfig({ DATA_DIR: '/srv/gw' }).releaseDir, '/srv/gw/releases');
  assert.equal(loadConfig({ DATA_DIR: '/srv/gw', RELEASE_DIR: '/srv/agent-releases' }).releaseDir, '/srv/agent-releases');
});
