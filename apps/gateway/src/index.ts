// What other workspace packages (the e2e tests, the bench) use of the gateway.
export { AdminError, AdminService, type CreatedConnection, type IssuedApiKey } from './admin/adminService.ts';
export { openLocalAdmin, type LocalAdmin } from './admin/localAdmin.ts';
export { newAgentToken, newApiKeySecret, sha256Hex } from './auth/secrets.ts';
export { startGateway, type RunningGateway } from './gateway.ts';
export { createLogger } from './logger.ts';
export { loadConfig } from './config.ts';
export { openStore } from './store/openStore.ts';
export { SCOPES, type Scope } from './store/store.ts';
export { OpenApiContract, type Answer } from './testing/openApiContract.ts';
export { provisionOrganisation, type Provisioned } from './testing/provision.ts';
export { findPostgresBinaries, startPostgresServer, type PostgresServer } from './testing/servers/postgres.ts';
export { startRedis, type RedisServer } from './testing/servers/redis.ts';
export { startNats, type NatsServer } from './testing/servers/nats.ts';
export { findProgram, skipWithout } from './testing/servers/serverProcess.ts';
export { startTcpBalancer, type TcpBalancer } from './testing/tcpBalancer.ts';
export { ScriptedAgent, ScriptedJournal } from './testing/scriptedAgent.ts';
