import { fileURLToPath } from 'node:url';

/** Absolute path of the sandbox worker's entry module, for `new Worker(...)`. */
export const SANDBOX_WORKER_PATH = fileURLToPath(new URL('./sandboxWorkerBootstrap.mjs', import.meta.url));
