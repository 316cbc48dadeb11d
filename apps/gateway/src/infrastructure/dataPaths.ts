import path from 'node:path';

/** Layout of DATA_DIR: the gateway's store, its cursor signing key, the demo databases, and the agent's release folder unless RELEASE_DIR names another. */
export function dataPaths(dataDir: string) {
  return {
    store: path.join(dataDir, 'gateway.sqlite'),
    cursorKey: path.join(dataDir, 'cursor.key'),
    demo: path.join(dataDir, 'demo'),
    releases: path.join(dataDir, 'releases'),
  };
}
