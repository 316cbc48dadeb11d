/**
 * Isolation levels the agent may read GP at (setting GP_MSSQL_ISOLATION). READ COMMITTED, the
 * default, never shows a half-posted batch; SNAPSHOT reads without waiting on GP's locks where the
 * DBA has enabled ALLOW_SNAPSHOT_ISOLATION; READ UNCOMMITTED (NOLOCK) is offered because GP shops
 * ask for it, and is not advised: it can return rows of a posting that is later rolled back.
 */
export const MSSQL_ISOLATION_LEVELS = ['read-committed', 'snapshot', 'read-uncommitted'] as const;
export type MssqlIsolation = (typeof MSSQL_ISOLATION_LEVELS)[number];
