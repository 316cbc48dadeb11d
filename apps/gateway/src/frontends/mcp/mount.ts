import type { Express, RequestHandler } from 'express';
import type { Logger } from 'pino';
import type { EventFeed } from '../../core/events/eventFeed.ts';
import type { RecordReader } from '../../core/reads/recordReader.ts';
import type { RecordWriter } from '../../core/writes/recordWriter.ts';
import { requireScope } from '../../core/auth/authenticate.ts';
import { RESULT_BUDGET_BYTES } from './budget.ts';
import { mcpEndpoint, mcpMethodNotAllowed } from './endpoint.ts';
import { acceptAnyMcpClient, checkHost, checkOrigin, mcpErrors, oneJsonRpcMessage, readMcpBody } from './transportHttp.ts';

export interface McpMountOptions {
  /** Authentication and limits, as every API request passes them. */
  authenticated: RequestHandler[];
  reader: RecordReader;
  writer: RecordWriter;
  /** The change feed, for list_events. */
  events: EventFeed;
  log: Logger;
  /** Largest text of a tool result in bytes; RESULT_BUDGET_BYTES unless given (tests make it tiny). */
  resultBudgetBytes?: number;
  /** Browser origins besides the gateway's own that may call /mcp (`*`: any); requests without Origin always may. */
  allowedOrigins?: readonly string[];
  /** Host header values (names, or name:port) that may call /mcp; empty or absent: any. */
  allowedHosts?: readonly string[];
  /** RFC 9728 metadata of /mcp, named in every 401's WWW-Authenticate so that OAuth clients find the authorization server. */
  resourceMetadataUrl?: () => string;
}

/**
 * `POST /mcp` (docs/api.md#mcp): the same keys, limits and routing as `/v1`, with the `mcp` scope;
 * refusals before a tool runs are JSON-RPC errors.
 */
export function mountMcp(app: Express, options: McpMountOptions): void {
  app.post(
    '/mcp',
    checkHost(options.allowedHosts ?? []),
    readMcpBody,
    checkOrigin(options.allowedOrigins ?? []),
    ...options.authenticated,
    requireScope('mcp'),
    // After the key's budget is spent: a refused batch costs a request like any other.
    oneJsonRpcMessage,
    acceptAnyMcpClient,
    mcpEndpoint({
      reader: options.reader,
      writer: options.writer,
      events: options.events,
      log: options.log,
      resultBudgetBytes: options.resultBudgetBytes ?? RESULT_BUDGET_BYTES,
    }),
  );
  app.all('/mcp', mcpMethodNotAllowed);
  app.use('/mcp', mcpErrors(options.log, options.resourceMetadataUrl));
}
