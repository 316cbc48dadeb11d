import path from 'node:path';

/**
 * Layout of DATA_DIR: the gateway's store, its cursor signing key, the key sealing webhook secrets,
 * the demo databases with what the sandbox's change detection knows of them (in the demo folder, so
 * that a regenerated demo is learnt afresh), and the agent's release folder unless RELEASE_DIR names another.
 */
export function dataPaths(dataDir: string) {
  return {
    store: path.join(dataDir, 'gateway.sqlite'),
    cursorKey: path.join(dataDir, 'cursor.key'),
    webhookSecretsKey: path.join(dataDir, 'webhook-secrets.key'),
    demo: path.join(dataDir, 'demo'),
    demoChangeState: path.join(dataDir, 'demo', 'change-detection.sqlite'),
    releases: path.join(dataDir, 'releases'),
  };
}
