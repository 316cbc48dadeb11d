import { test } from 'node:test';
import assert from 'node:assert/strict';
import { metricsAddress } from './metricsAddress.ts';

test('--metrics: loopback 9464 by default, off, a port, host:port, or a clear error', () => {
  assert.deepEqual(metricsAddress(undefined), { host: '127.0.0.1', port: 9464, explicit: false });
  assert.equal(metricsAddress('off'), null);
  assert.deepEqual(metricsAddress('9100'), { host: '127.0.0.1', port: 9100, explicit: true });
  assert.deepEqual(metricsAddress('0.0.0.0:9464'), { host: '0.0.0.0', port: 9464, explicit: true });
  assert.deepEqual(metricsAddress('[::1]:9464'), { host: '::1', port: 9464, explicit: true });
  for (const bad of ['yes please', 'host:', '70000', 'a:b:c']) assert.throws(() => metricsAddress(bad), /must be off, a port or host:port/);
});
