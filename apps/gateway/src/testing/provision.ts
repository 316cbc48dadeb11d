import type { Limits } from '../core/limits/limits.ts';
import { openLocalAdmin } from '../core/admin/localAdmin.ts';
import type { Scope } from '../infrastructure/store/store.ts';

export interface ProvisionRequest {
  organisation: string;
  /** Test harnesses poll and benchmarks flood: they set limits that stay out of their way. */
  limits: Partial<Limits>;
  /** Names of the connections to create, each with default company TWO. */
  connections: string[];
  scopes?: Scope[];
  /** The gateway's PostgreSQL store, when it runs on one; otherwise the SQLite store of the data folder. */
  databaseUrl?: string;
}

export interface Provisioned {
  orgId: string;
  /** A live key of the organisation. */
  liveKey: string;
  /** Each connection's id and agent token, by name. */
  connections: Record<string, { id: string; token: string }>;
}

/**
 * A customer as e2e tests and the bench need one, in the store of a gateway's data folder, made
 * through the admin service as an operator would: an organisation, a live key and connections.
 */
export async function provisionOrganisation(dataDir: string, request: ProvisionRequest): Promise<Provisioned> {
  const { admin, close } = await openLocalAdmin(dataDir, { create: true, databaseUrl: request.databaseUrl ?? null });
  try {
    const org = await admin.createOrganisation(request.organisation);
    await admin.setLimits(org.id, request.limits);
    const { secret } = await admin.issueApiKey({ orgId: org.id, name: 'e2e', mode: 'live', scopes: request.scopes ?? ['read'] });
    const connections: Provisioned['connections'] = {};
    for (const name of request.connections) {
      const { connection, agentToken } = await admin.createConnection({ orgId: org.id, name, defaultCompany: 'TWO' });
      connections[name] = { id: connection.id, token: agentToken };
    }
    return { orgId: org.id, liveKey: secret, connections };
  } finally {
    await close();
  }
}
