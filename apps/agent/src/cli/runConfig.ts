import { z } from 'zod';

/**
 * Settings of `gp-agent run`, from flags first and environment variables second. Messages name the
 * setting and how to give it, because the reader is whoever installs the agent.
 */
const RunConfigSchema = z.object({
  gatewayUrl: z.url({ message: 'the gateway URL is missing or not a URL: pass --gateway https://… or set GP_GATEWAY_URL' }),
  token: z
    .string({ message: 'the agent token is missing: pass --token lb_agent_… or set GP_AGENT_TOKEN' })
    .regex(/^lb_agent_[0-9A-Za-z]{32}$/, 'the agent token must look like lb_agent_ followed by 32 letters and digits'),
  database: z.union(
    [
      z.object({ kind: z.literal('sqlite'), dir: z.string().min(1) }),
      z.object({ kind: z.literal('mssql'), connection: z.string().min(1) }),
    ],
    { message: 'no database configured: pass --mssql <connection string> (env GP_MSSQL_CONNECTION) or --sqlite-dir <folder> (env GP_SQLITE_DIR), not both' },
  ),
  logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace']).default('info'),
});
export type RunConfig = z.infer<typeof RunConfigSchema>;

export class ConfigError extends Error {}

export function loadRunConfig(flags: Record<string, string | undefined>, env: NodeJS.ProcessEnv): RunConfig {
  const parsed = RunConfigSchema.safeParse({
    gatewayUrl: flags.gateway ?? env.GP_GATEWAY_URL,
    token: flags.token ?? env.GP_AGENT_TOKEN,
    database: databaseOf(flags.mssql ?? env.GP_MSSQL_CONNECTION, flags.sqliteDir ?? env.GP_SQLITE_DIR),
    logLevel: flags.logLevel ?? env.LOG_LEVEL,
  });
  if (!parsed.success) throw new ConfigError(parsed.error.issues.map((i) => i.message).join('\n'));
  return parsed.data;
}

function databaseOf(mssql: string | undefined, sqliteDir: string | undefined) {
  if (mssql && sqliteDir) return undefined;
  if (mssql) return { kind: 'mssql', connection: mssql };
  if (sqliteDir) return { kind: 'sqlite', dir: sqliteDir };
  return undefined;
}
