import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { loadConfig } from '@gp-gateway/gateway';
import { findProgram, skipWithout } from '@gp-gateway/testing';
import { ROOT } from './support/processes.ts';

/**
 * deploy/cluster/ checked as far as this machine allows (no container runtime here): the compose
 * file's gateways are configured alike and validly (their environment passes the gateway's own
 * configuration check), each has its own name and data, docker waits longer than the drain, and the
 * balancer sends traffic only to gateways whose /ready answers, and to all of them. nats-server
 * checks its file; haproxy checks its own where installed.
 */
const DIR = path.join(ROOT, 'deploy/cluster');
const compose = parse(fs.readFileSync(path.join(DIR, 'compose.yaml'), 'utf8'), { merge: true }) as {
  services: Record<string, { environment?: Record<string, string>; stop_grace_period?: string; volumes?: string[]; image?: string }>;
};
const gateways = Object.entries(compose.services).filter(([name]) => name.startsWith('gateway-'));
const haproxy = fs.readFileSync(path.join(DIR, 'haproxy.cfg'), 'utf8');

/** Compose's interpolation as `docker compose` would do it with CURSOR_SECRET exported and nothing else. */
function interpolate(value: string): string {
  return value.replace(/\$\{(\w+)(?::?([-?])([^}]*))?\}/g, (_, name: string, kind: string, rest: string) =>
    name === 'CURSOR_SECRET' ? 'ab'.repeat(32) : kind === '-' ? rest : '',
  );
}

test('the cluster has PostgreSQL, Redis, NATS, two gateways, a balancer, Prometheus and Grafana', () => {
  assert.deepEqual(Object.keys(compose.services).sort(), [
    'gateway-a',
    'gateway-b',
    'grafana',
    'lb',
    'nats',
    'postgres',
    'prometheus',
    'redis',
  ]);
});

test('every gateway shares the store, Redis, NATS and cursor key, under its own name and data folder', () => {
  const shared = ['DATABASE_URL', 'REDIS_URL', 'NATS_URL', 'CURSOR_SECRET'];
  const envs = gateways.map(([, service]) => service.environment!);
  for (const name of shared) assert.equal(new Set(envs.map((e) => e[name])).size, 1, `${name} differs between gateways`);
  assert.equal(new Set(envs.map((e) => e.INSTANCE_ID)).size, gateways.length, 'two gateways with one INSTANCE_ID');
  assert.equal(new Set(gateways.map(([, s]) => s.volumes!.find((v) => v.endsWith(':/data')))).size, gateways.length);
  for (const env of envs) {
    const config = loadConfig(Object.fromEntries(Object.entries(env).map(([k, v]) => [k, interpolate(String(v))])));
    assert.equal(config.redisUrl, 'redis://redis:6379');
    assert.equal(config.natsUrl, 'nats://nats:4222');
    assert.ok(config.cursorSecret);
    assert.equal(config.host, '0.0.0.0', 'reachable from the balancer: GATEWAY_URL is set');
    assert.equal(config.gatewayUrl, 'http://localhost:3000');
  }
  // CURSOR_SECRET has no default: compose refuses to start without it rather than sign with a known key.
  assert.match(String(envs[0]!.CURSOR_SECRET), /^\$\{CURSOR_SECRET:\?/);
});

test('docker waits longer than the drain before it kills a gateway', () => {
  for (const [name, service] of gateways) {
    const graceSeconds = Number(/^(\d+)s$/.exec(service.stop_grace_period ?? '')?.[1]);
    assert.ok(graceSeconds * 1000 > Number(service.environment!.SHUTDOWN_GRACE_MS), `${name}: stop_grace_period too short`);
  }
});

test('the balancer checks /ready, knows every gateway, and keeps WebSockets open', () => {
  assert.match(haproxy, /^\s*option httpchk GET \/ready$/m);
  assert.match(haproxy, /^\s*http-check expect status 200$/m);
  assert.match(haproxy, /^\s*timeout tunnel \d+h$/m);
  const servers = [...haproxy.matchAll(/^\s*server (\S+) (\S+):(\d+)/gm)].map((m) => `${m[2]}:${m[3]}`).sort();
  assert.deepEqual(servers, gateways.map(([name, s]) => `${name}:${s.environment!.PORT}`).sort());
});

test('the image starts the gateway with the same Node flags as pnpm start', () => {
  const start = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts.start as string;
  const cmd = /^CMD (\[.*\])$/m.exec(fs.readFileSync(path.join(DIR, 'Dockerfile'), 'utf8'))![1]!;
  assert.equal((JSON.parse(cmd) as string[]).join(' '), start);
});

test('nats-server accepts its configuration file', { skip: skipWithout('nats-server', 'checking deploy/cluster/nats.conf') }, () => {
  const check = spawnSync(findProgram('nats-server')!, ['-t', '-c', path.join(DIR, 'nats.conf')], { encoding: 'utf8' });
  assert.equal(check.status, 0, check.stderr);
});

test('haproxy accepts its configuration file', { skip: skipWithout('haproxy', 'checking deploy/cluster/haproxy.cfg with haproxy') }, () => {
  // The gateways' names resolve only inside compose: haproxy checks the file with them made local.
  const local = haproxy.replace(/ gateway-[ab]:3000/g, ' 127.0.0.1:3000');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'haproxy-'));
  try {
    fs.writeFileSync(path.join(dir, 'haproxy.cfg'), local);
    const check = spawnSync(findProgram('haproxy')!, ['-c', '-f', path.join(dir, 'haproxy.cfg')], { encoding: 'utf8' });
    assert.equal(check.status, 0, check.stdout + check.stderr);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
