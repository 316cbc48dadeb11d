/**
 * Reported to the gateway in the hello frame and by `--version`. The single-file build
 * (`pnpm build:agent`) writes its commit in place of GP_AGENT_BUILD_COMMIT; run from a checkout,
 * the agent says "source".
 */
export const AGENT_VERSION = '0.1.0';

declare const GP_AGENT_BUILD_COMMIT: string | undefined;
export const AGENT_COMMIT: string = typeof GP_AGENT_BUILD_COMMIT === 'string' ? GP_AGENT_BUILD_COMMIT : 'source';

/** What `gp-agent --version` prints: `0.1.0 (commit 1a2b3c4d5e6f)`. */
export const AGENT_VERSION_LINE = `${AGENT_VERSION} (commit ${AGENT_COMMIT})`;
