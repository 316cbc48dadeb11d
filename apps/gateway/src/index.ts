// What other workspace packages (the e2e tests, the bench) use of the gateway. Test harnesses are not
// here: those that need the gateway's insides are its `./testing` entry, the rest @gp-gateway/testing.
export { AdminError, AdminService, type CreatedConnection, type IssuedApiKey } from './core/admin/adminService.ts';
export { openLocalAdmin, type LocalAdmin } from './core/admin/localAdmin.ts';
export { newAgentToken, newApiKeySecret, sha256Hex } from './core/auth/secrets.ts';
export { startGateway } from './gateway.ts';
export type { RunningGateway } from './gatewayOptions.ts';
export { createLogger } from './logger.ts';
export { loadConfig } from './config.ts';
export { openStore } from './infrastructure/store/openStore.ts';
export { SCOPES, type Scope } from './infrastructure/store/store.ts';
