import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { findProgram, skipWithout } from '@gp-gateway/testing';
import { ROOT, startGatewayProcess, waitFor, type Started } from './support/processes.ts';

/**
 * deploy/cluster's monitoring (docs/operations.md#alerts): promtool accepts the Prometheus
 * configuration and the alert rules, and the rules' own unit tests (alerts.test.yml) show each alert
 * firing when it should and not before; every metric the rules and the Grafana dashboard use is one
 * a running gateway serves; Prometheus scrapes the port the gateways serve on; each alert is explained.
 */
const DIR = path.join(ROOT, 'deploy/cluster');
const PROM = path.join(DIR, 'prometheus');
const rules = fs.readFileSync(path.join(PROM, 'alerts.yml'), 'utf8');
const dashboard = JSON.parse(fs.readFileSync(path.join(DIR, 'grafana/gp-gateway.json'), 'utf8')) as {
  panels: Array<{ targets: Array<{ expr: string }> }>;
};
const promtool = (args: string[]) => spawnSync(findProgram('promtool')!, args, { cwd: PROM, encoding: 'utf8' });
const noPromtool = skipWithout('promtool', 'checking the alert rules and the Prometheus configuration with promtool');

test('promtool check rules accepts the shipped alert rules', { skip: noPromtool }, () => {
  const check = promtool(['check', 'rules', 'alerts.yml']);
  assert.equal(check.status, 0, check.stdout + check.stderr);
});

test('the alert rules pass their unit tests (promtool test rules): each fires on its condition, not before', { skip: noPromtool }, () => {
  const run = promtool(['test', 'rules', 'alerts.test.yml']);
  assert.equal(run.status, 0, run.stdout + run.stderr);
});

test(
  'promtool check config accepts the Prometheus configuration, which scrapes every gateway on its METRICS_PORT',
  { skip: noPromtool },
  () => {
    const check = promtool(['check', 'config', 'prometheus.yml']);
    assert.equal(check.status, 0, check.stdout + check.stderr);
    const config = parse(fs.readFileSync(path.join(PROM, 'prometheus.yml'), 'utf8')) as {
      scrape_configs: Array<{ job_name: string; static_configs: Array<{ targets: string[] }> }>;
    };
    const compose = parse(fs.readFileSync(path.join(DIR, 'compose.yaml'), 'utf8'), { merge: true }) as {
      services: Record<string, { environment?: Record<string, string> }>;
    };
    const gateways = Object.entries(compose.services).filter(([name]) => name.startsWith('gateway-'));
    const targets = config.scrape_configs.find((j) => j.job_name === 'gp-gateway')!.static_configs.flatMap((c) => c.targets);
    assert.deepEqual(targets.sort(), gateways.map(([name, s]) => `${name}:${s.environment!.METRICS_PORT}`).sort());
    for (const [, s] of gateways) assert.equal(s.environment!.METRICS_HOST, '0.0.0.0', 'reachable by Prometheus on the compose network');
  },
);

test('docs/operations.md explains every alert', () => {
  const docs = fs.readFileSync(path.join(ROOT, 'docs/operations.md'), 'utf8');
  const alerts = [...rules.matchAll(/^\s*- alert: (\w+)$/gm)].map((m) => m[1]!);
  assert.ok(alerts.length >= 5);
  for (const alert of alerts) assert.match(docs, new RegExp(`^\\| \`${alert}\` \\|`, 'm'), `${alert} is not in docs/operations.md#alerts`);
});

let tmp: string;
let gateway: Started & { url: string };
before(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-monitoring-'));
  gateway = await startGatewayProcess(tmp, { METRICS_PORT: '0' });
});
after(async () => {
  await gateway.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

test('every metric the alert rules and the dashboard use is one a running gateway serves', async () => {
  const url = await waitFor(
    'the metrics URL',
    () => /Prometheus metrics: (http:\/\/127\.0\.0\.1:\d+\/metrics)/.exec(gateway.output())?.[1],
  );
  const served = new Set(
    [...(await (await fetch(url)).text()).matchAll(/^# TYPE (\S+) (\w+)$/gm)].flatMap(([, name, type]) =>
      type === 'histogram' ? [`${name}_bucket`, `${name}_count`, `${name}_sum`] : [name!],
    ),
  );
  const used = new Set(
    [rules, ...dashboard.panels.flatMap((p) => p.targets.map((t) => t.expr))]
      .flatMap((text) => [...text.matchAll(/\b((?:gateway|nodejs|process)_[a-z0-9_]+)\b/g)])
      .map((m) => m[1]!),
  );
  assert.ok(used.size >= 10);
  for (const name of used) assert.ok(served.has(name), `${name} is used but the gateway serves no such metric`);
});
