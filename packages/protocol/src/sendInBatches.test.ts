import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { sendInBatches } from './sendInBatches.ts';
import { setTimeout as sleep } from 'node:timers/promises';

/** A connected loopback TCP pair, and what the far end has received so far. */
async function socketPair() {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const accepted = new Promise<net.Socket>((resolve) => server.once('connection', resolve));
  const client = net.connect((server.address() as AddressInfo).port, '127.0.0.1');
  await new Promise<void>((resolve) => client.once('connect', resolve));
  const peer = await accepted;
  let received = '';
  peer.on('data', (chunk) => (received += chunk));
  return {
    client,
    received: () => received,
    async close() {
      client.destroy();
      peer.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

test('frames sent in one turn of the event loop are written together, in order, when the turn ends', async () => {
  const pair = await socketPair();
  // How many chunks each write system call carried: Node hands a corked socket's buffered chunks to
  // _writev in one call.
  const writes: number[] = [];
  const writev = pair.client._writev!.bind(pair.client);
  pair.client._writev = (chunks, callback) => {
    writes.push(chunks.length);
    writev(chunks, callback);
  };
  const send = sendInBatches(pair.client, (text: string) => pair.client.write(text));
  send('a');
  send('b');
  send('c');
  assert.deepEqual(writes, [], 'nothing is written before the turn ends');
  await turn();
  assert.deepEqual(writes, [3], 'one writev carries all three');
  send('d');
  await turn();
  for (let i = 0; i < 20 && pair.received() !== 'abcd'; i++) await sleep(5);
  assert.equal(pair.received(), 'abcd');
  await pair.close();
});

test('a frame sent alone still leaves in its own turn', async () => {
  const pair = await socketPair();
  const send = sendInBatches(pair.client, (text: string) => pair.client.write(text));
  send('only');
  assert.equal(pair.client.writableCorked, 1);
  await turn();
  assert.equal(pair.client.writableCorked, 0, 'uncorked once the turn ends');
  for (let i = 0; i < 20 && pair.received() !== 'only'; i++) await sleep(5);
  assert.equal(pair.received(), 'only');
  await pair.close();
});
