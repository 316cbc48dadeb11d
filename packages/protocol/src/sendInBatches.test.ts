import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { sendInBatches } from './sendInBatches.ts';

/** A connected loopback TCP pair, and a wait for what the far end receives. */
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
    /** Resolves once the far end has received exactly `text` (a test failing here times out). */
    receivedAll(text: string): Promise<void> {
      return new Promise((resolve) => {
        const check = () => {
          if (received !== text) return;
          peer.off('data', check);
          resolve();
        };
        peer.on('data', check);
        check();
      });
    },
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
  await pair.receivedAll('abcd');
  await pair.close();
});

test('a frame sent alone still leaves in its own turn', async () => {
  const pair = await socketPair();
  const send = sendInBatches(pair.client, (text: string) => pair.client.write(text));
  send('only');
  assert.equal(pair.client.writableCorked, 1);
  await turn();
  assert.equal(pair.client.writableCorked, 0, 'uncorked once the turn ends');
  await pair.receivedAll('only');
  await pair.close();
});
