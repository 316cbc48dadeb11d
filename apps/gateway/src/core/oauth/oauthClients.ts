import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { OAuthRegisteredClientsStore } from '@modelcontextprotocol/sdk/server/auth/clients.js';
import { OAuthClientMetadataSchema, type OAuthClientInformationFull } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { Store } from '../../infrastructure/store/store.ts';
import { ClientDocumentError, fetchClientMetadataDocument, isClientIdUrl } from './clientMetadataDocument.ts';

/** How long a fetched metadata document is used before it is fetched again. */
const DOCUMENT_TTL_MS = 5 * 60_000;
const DOCUMENTS_KEPT = 1_000;

/** Fetches a client id URL's document (clientMetadataDocument.ts); tests give one that never leaves the process. */
export type DocumentFetcher = (clientId: string) => Promise<unknown>;

/**
 * The client a Client ID Metadata Document describes, or why it is refused: it must name itself by
 * the URL it was fetched from, list its redirect URIs, and be a public client (no secret: PKCE binds
 * its codes, docs/decisions.md#oauth-for-mcp).
 */
export function clientFromDocument(clientId: string, document: unknown): OAuthClientInformationFull {
  const parsed = OAuthClientMetadataSchema.safeParse(document);
  if (!parsed.success)
    throw new ClientDocumentError(`the client's metadata document is not valid client metadata: ${parsed.error.message}`);
  if ((document as { client_id?: unknown }).client_id !== clientId) {
    throw new ClientDocumentError("the client's metadata document names another client_id than its URL");
  }
  const method = parsed.data.token_endpoint_auth_method ?? 'none';
  if (method !== 'none') throw new ClientDocumentError(`token_endpoint_auth_method ${method} is not supported; public clients use none`);
  return { ...parsed.data, client_id: clientId, token_endpoint_auth_method: 'none' };
}

/**
 * The SDK's registered-clients store over ours: clients registered by RFC 7591 are kept in the
 * store, clients identified by an https URL are read from their metadata document (cached a few
 * minutes). Every client is public: registration drops any secret the SDK would make, because the
 * SDK compares a client's secret as plain text and only hashes of secrets are ever stored here.
 */
export class OAuthClients implements OAuthRegisteredClientsStore {
  private readonly documents = new Map<string, { client: OAuthClientInformationFull; until: number }>();

  constructor(
    private readonly store: Store,
    private readonly log: Logger,
    private readonly fetchDocument: DocumentFetcher = fetchClientMetadataDocument,
  ) {}

  async getClient(clientId: string): Promise<OAuthClientInformationFull | undefined> {
    if (isClientIdUrl(clientId)) return this.documentClient(clientId);
    const metadata = await this.store.findOAuthClient(clientId);
    return metadata ? ({ ...metadata, client_id: clientId } as OAuthClientInformationFull) : undefined;
  }

  async registerClient(client: Omit<OAuthClientInformationFull, 'client_id' | 'client_id_issued_at'>): Promise<OAuthClientInformationFull> {
    const { client_secret: _secret, client_secret_expires_at: _expiry, ...metadata } = client as OAuthClientInformationFull;
    const registered: OAuthClientInformationFull = {
      ...metadata,
      token_endpoint_auth_method: 'none',
      client_id: (client as OAuthClientInformationFull).client_id ?? randomUUID(),
      client_id_issued_at: Math.floor(Date.now() / 1000),
    };
    await this.store.saveOAuthClient(registered.client_id, { ...registered }, new Date());
    return registered;
  }

  private async documentClient(clientId: string): Promise<OAuthClientInformationFull | undefined> {
    const cached = this.documents.get(clientId);
    if (cached && cached.until > Date.now()) return cached.client;
    try {
      const client = clientFromDocument(clientId, await this.fetchDocument(clientId));
      if (this.documents.size >= DOCUMENTS_KEPT) this.documents.delete(this.documents.keys().next().value!);
      this.documents.set(clientId, { client, until: Date.now() + DOCUMENT_TTL_MS });
      return client;
    } catch (error) {
      // An unknown client to the caller (the SDK answers invalid_client); why, for the operator.
      this.log.info({ clientId, err: (error as Error).message }, 'oauth client metadata document refused');
      return undefined;
    }
  }
}
