import fs from 'node:fs';
import WebSocket from 'ws';
import { testAgentHello } from '@gp-gateway/testing';

/** What a rogue agent saw: the gateway's frames as parsed headers, and how its socket ended. */
export interface RogueAgent {
  ws: WebSocket;
  /** Frame headers received, in order (requests included: what a stolen token would be handed). */
  frames: { type: string; [field: string]: unknown }[];
  /** Resolves with the welcome's connection id, or rejects if the socket ends first. */
  welcomed: Promise<string>;
  /** Resolves when the socket ends, with the close code and reason (1006 and '' when cut off). */
  closed: Promise<{ code: number; reason: string; at: number }>;
  /** Resolves with the HTTP status when the gateway refuses the upgrade itself. */
  refused: Promise<number>;
}

/**
 * A small hand-written agent: dials `/agent` with a token as the real agent does and, unless told
 * otherwise, says hello as an agent with one company. It answers nothing; the tests look at what
 * the gateway sends it and how the gateway ends it.
 */
export interface RogueOptions {
  /** Say hello on open (default true). */
  hello?: boolean;
  /** Called with each request frame's header: the rogue may answer it however it likes. */
  onRequest?: (frame: { id: string; op: { kind: string } }, ws: WebSocket) => void;
}

export function rogueAgent(gatewayUrl: string, token: string, options: RogueOptions = {}): RogueAgent {
  const url = `${gatewayUrl.replace(/^http/, 'ws')}/agent`;
  const ws = new WebSocket(url, { headers: { authorization: `Bearer ${token}` } });
  const frames: RogueAgent['frames'] = [];
  let refusedWith: (status: number) => void = () => {};
  const refused = new Promise<number>((resolve) => (refusedWith = resolve));
  ws.on('unexpected-response', (_req, res) => {
    refusedWith(res.statusCode ?? 0);
    ws.terminate();
  });
  ws.on('error', () => {});
  const closed = new Promise<{ code: number; reason: string; at: number }>((resolve) =>
    ws.on('close', (code, reason) => resolve({ code, reason: reason.toString(), at: Date.now() })),
  );
  const welcomed = new Promise<string>((resolve, reject) => {
    ws.on('message', (data) => {
      const text = data.toString();
      const newline = text.indexOf('\n');
      const frame = JSON.parse(newline === -1 ? text : text.slice(0, newline)) as RogueAgent['frames'][number];
      frames.push(frame);
      if (frame.type === 'welcome') resolve(String(frame.connectionId));
      if (frame.type === 'request') options.onRequest?.(frame as never, ws);
    });
    void closed.then(({ code, reason }) => reject(new Error(`closed before a welcome: ${code} ${reason}`)));
  });
  welcomed.catch(() => {});
  ws.on('open', () => {
    if (options.hello === false) return;
    ws.send(testAgentHello({ version: 'rogue', host: 'rogue', companyName: 'Rogue' }));
  });
  return { ws, frames, welcomed, closed, refused };
}

/**
 * Starts a binary frame that claims `declared` payload bytes and sends only `sent` of them, then
 * stalls: what a rogue agent does to make the gateway buffer a frame that never ends. Written on
 * the socket under the WebSocket (a client frame, masked with a zero key).
 */
export function startUnfinishedFrame(ws: WebSocket, declared: number, sent: number): void {
  const header = Buffer.alloc(14);
  header[0] = 0x82;
  header[1] = 0x80 | 127;
  header.writeBigUInt64BE(BigInt(declared), 2);
  const socket = (ws as unknown as { _socket: import('node:net').Socket })._socket;
  socket.write(Buffer.concat([header, Buffer.alloc(sent, 0x20)]));
}

/**
 * Whether the gateway has read every byte sent on this socket: nothing left in Node's write buffer,
 * nor in the kernel's queues at either end of the loopback connection (Linux's /proc/net/tcp*:
 * tx_queue of the agent's end, rx_queue of the gateway's). What a test waits for before it says
 * the gateway let those bytes through, rather than a guess of how long reading them takes.
 */
export function gatewayReadAll(ws: WebSocket): boolean {
  const socket = (ws as unknown as { _socket: import('node:net').Socket })._socket;
  if (socket.writableLength > 0) return false;
  const hexPort = (port: number) => port.toString(16).toUpperCase().padStart(4, '0');
  const [agentPort, gatewayPort] = [hexPort(socket.localPort!), hexPort(socket.remotePort!)];
  const rows = ['/proc/net/tcp', '/proc/net/tcp6']
    .flatMap((file) => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').slice(1) : []))
    .map((line) => line.trim().split(/\s+/));
  const ends = rows.filter(([, local, remote]) => {
    const [localPort, remotePort] = [local?.split(':')[1], remote?.split(':')[1]];
    return (localPort === agentPort && remotePort === gatewayPort) || (localPort === gatewayPort && remotePort === agentPort);
  });
  return ends.length === 2 && ends.every((columns) => columns[4] === '00000000:00000000');
}
