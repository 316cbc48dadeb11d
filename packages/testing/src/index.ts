// Test harnesses shared by the gateway's tests, the e2e tests and the bench.
export * from './memoryLog.ts';
export * from './openApiContract.ts';
export * from './pollUntil.ts';
export * from './prometheus.ts';
export * from './scriptedAgent.ts';
export * from './servers/clusterServers.ts';
export * from './servers/nats.ts';
export * from './servers/postgres.ts';
export * from './servers/redis.ts';
export * from './servers/serverProcess.ts';
export * from './tcpBalancer.ts';
export * from './testAgentHello.ts';
export * from './throwawayCertificate.ts';
export * from './untilAnnounced.ts';
