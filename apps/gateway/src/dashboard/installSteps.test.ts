import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { installSteps } from './installSteps.ts';

const DEPLOY = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../deploy');

test("the install steps the dashboard shows are the deploy files' own commands, with the token filled in", () => {
  const steps = installSteps('https://gw.example.com', 'lb_agent_TOKEN');
  const unit = fs.readFileSync(path.join(DEPLOY, 'systemd/gp-agent.service'), 'utf8');
  for (const line of steps.linux.split('\n').filter((l) => !l.startsWith('#')))
    assert.ok(unit.includes(`#   ${line}`), `the unit's header has: ${line}`);
  const example = fs.readFileSync(path.join(DEPLOY, 'gp-agent.conf.example'), 'utf8');
  for (const name of ['GP_GATEWAY_URL', 'GP_AGENT_TOKEN', 'GP_MSSQL_CONNECTION']) assert.match(example, new RegExp(`^${name} = `, 'm'));
  const script = fs.readFileSync(path.join(DEPLOY, 'windows/install.ps1'), 'utf8');
  for (const parameter of ['GatewayUrl', 'Token', 'MssqlConnection']) assert.match(script, new RegExp(`\\$${parameter}\\b`));
  assert.match(steps.windows, /-GatewayUrl https:\/\/gw\.example\.com -Token lb_agent_TOKEN/);
});
