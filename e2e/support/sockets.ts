import fs from 'node:fs';

/**
 * Which of these processes holds the TCP connection from local port `localPort` to remote port
 * `remotePort` (both on this machine): the connection's socket inode is found in /proc/net/tcp and
 * tcp6, then among the processes' open files. Linux only; null when none holds it.
 *
 * The cluster suite uses it to tell which gateway instance is sending the delivery a receiver holds,
 * when either could have claimed it.
 */
export function processHoldingConnection(pids: readonly number[], localPort: number, remotePort: number): number | null {
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    if (!fs.existsSync(table)) continue;
    for (const line of fs.readFileSync(table, 'utf8').split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields.length < 10) continue;
      const portOf = (address: string) => parseInt(address.slice(address.lastIndexOf(':') + 1), 16);
      if (portOf(fields[1]!) === localPort && portOf(fields[2]!) === remotePort) inodes.add(fields[9]!);
    }
  }
  for (const pid of pids) {
    const dir = `/proc/${pid}/fd`;
    let fds: string[];
    try {
      fds = fs.readdirSync(dir);
    } catch {
      continue; // exited meanwhile
    }
    for (const fd of fds) {
      let link = '';
      try {
        link = fs.readlinkSync(`${dir}/${fd}`);
      } catch {
        continue;
      }
      const inode = /^socket:\[(\d+)\]$/.exec(link)?.[1];
      if (inode && inodes.has(inode)) return pid;
    }
  }
  return null;
}
