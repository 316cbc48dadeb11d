/** Reported to the gateway in the hello frame and by `--version`. */
export const AGENT_VERSION = '0.1.0';
