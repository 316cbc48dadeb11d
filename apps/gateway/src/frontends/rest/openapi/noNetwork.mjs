// Preloaded (`node --import`) into a tool that must work offline: every attempt to open a socket or
// resolve a name is written to stderr as `NETWORK ATTEMPT …` and fails, so a test can assert none was made.
import dns from 'node:dns';
import net from 'node:net';

const refuse = (what) => {
  process.stderr.write(`NETWORK ATTEMPT ${what}\n`);
  throw new Error(`network access refused: ${what}`);
};
net.Socket.prototype.connect = function connect(...args) {
  const target = args[0];
  refuse(typeof target === 'object' && target ? `${target.host ?? target.path}:${target.port ?? ''}` : String(target));
};
dns.lookup = (host) => refuse(`dns ${host}`);
dns.promises.lookup = async (host) => refuse(`dns ${host}`);
globalThis.fetch = async (url) => refuse(`fetch ${url}`);
