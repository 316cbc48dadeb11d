import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadRunConfig } from './runConfig.ts';

const token = `lb_agent_${'a'.repeat(32)}`;

test('flags win over environment variables', () => {
  const config = loadRunConfig({ gateway: 'https://gw.example.com', sqliteDir: './demo' }, { GP_AGENT_TOKEN: token, GP_GATEWAY_URL: 'https://other' });
  assert.deepEqual(config, { gatewayUrl: 'https://gw.example.com', token, database: { kind: 'sqlite', dir: './demo' }, logLevel: 'info' });
});

test('a SQL Server connection comes from --mssql or GP_MSSQL_CONNECTION', () => {
  const config = loadRunConfig({}, { GP_GATEWAY_URL: 'https://gw', GP_AGENT_TOKEN: token, GP_MSSQL_CONNECTION: 'Server=gp01;Database=DYNAMICS' });
  assert.deepEqual(config.database, { kind: 'mssql', connection: 'Server=gp01;Database=DYNAMICS' });
});

test('each missing or malformed setting is named with how to give it', () => {
  assert.throws(() => loadRunConfig({}, {}), (error: Error) => {
    assert.match(error.message, /gateway URL is missing.*--gateway.*GP_GATEWAY_URL/);
    assert.match(error.message, /agent token is missing.*--token.*GP_AGENT_TOKEN/);
    assert.match(error.message, /no database configured/);
    return true;
  });
  assert.throws(() => loadRunConfig({ gateway: 'https://gw', token: 'lb_live_x', sqliteDir: 'd' }, {}), /must look like lb_agent_/);
  assert.throws(() => loadRunConfig({ gateway: 'https://gw', token, sqliteDir: 'd', mssql: 'Server=x' }, {}), /not both/);
});
