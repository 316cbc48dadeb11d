import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { startGateway } from '../../gateway.ts';
import type { RunningGateway } from '../../gatewayOptions.ts';
import { openSqliteStore } from '../../infrastructure/store/openStore.ts';
import type { Store } from '../../infrastructure/store/store.ts';
import { memoryLog } from '@gp-gateway/testing';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * When an instance stops, its thousands of agents dial the others at once. Connections the kernel
 * completes while the gateway is busy wait in the listening socket's accept queue; once it is full,
 * the kernel drops the rest without a word, and each dropped agent waits on TCP retransmissions (1 s,
 * then doubling, up to minutes). Node's default queue is 511; bench:cluster lost 2 % of 10,000 agents
 * that way (docs/performance.md, "Cluster").
 */
let dir: string;
let store: Store;
let gateway: RunningGateway;

before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gw-accept-'));
  store = await openSqliteStore(path.join(dir, 'gateway.sqlite'));
  gateway = await startGateway({
    store,
    log: memoryLog().log,
    cursorSecret: randomBytes(32),
    port: 0,
    host: '127.0.0.1',
    requestTimeoutMs: 5_000,
  });
});

after(async () => {
  await gateway.close();
  store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

// The kernel caps every queue at somaxconn: the burst is as large as this machine allows, 2,000 at most.
const somaxconn = Number(fs.readFileSync('/proc/sys/net/core/somaxconn', 'utf8'));
const burst = Math.min(2_000, somaxconn);
const skip = somaxconn <= 511 ? `net.core.somaxconn is ${somaxconn} here: no queue can be longer than Node's default` : false;

test(
  `a burst of ${burst} connections arriving while the gateway cannot accept them is let in at once, none left to retransmissions`,
  { skip },
  async () => {
    const sockets: net.Socket[] = [];
    let connected = 0;
    // All dialled before this process (the gateway) turns its event loop: it accepts none meanwhile.
    for (let i = 0; i < burst; i++) {
      const socket = net.connect(gateway.port, '127.0.0.1');
      socket.on('connect', () => (connected += 1));
      socket.on('error', () => {});
      sockets.push(socket);
    }
    // A connection dropped from a full queue is retried by the kernel after 1 s at the earliest.
    const deadline = Date.now() + 800;
    while (connected < burst && Date.now() < deadline) await sleep(20);
    for (const socket of sockets) socket.destroy();
    assert.equal(connected, burst, `${burst - connected} of ${burst} connections were dropped by a full accept queue`);
  },
);
