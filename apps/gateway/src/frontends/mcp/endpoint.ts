import type { Request, Response } from 'express';
import type { Logger } from 'pino';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { routeHeadersOf } from '../../core/routing/routeHeaders.ts';
import type { EventFeed } from '../../core/events/eventFeed.ts';
import type { RecordReader } from '../../core/reads/recordReader.ts';
import type { RecordWriter } from '../../core/writes/recordWriter.ts';
import { createMcpServer } from './server.ts';
import { MAX_MCP_REQUEST_BYTES } from './transportHttp.ts';

export interface McpEndpointOptions {
  reader: RecordReader;
  writer: RecordWriter;
  events: EventFeed;
  log: Logger;
  /** Largest text of a tool result, in bytes (budget.ts). */
  resultBudgetBytes: number;
}

/**
 * `POST /mcp`, mounted after the body, origin, authentication, limits and the mcp scope: MCP Streamable HTTP, stateless
 * (no session id), answering with JSON rather than an event stream. Each request gets its own server
 * and transport, as the SDK requires of a stateless transport; the key and the X-Connection-Id and
 * X-Company headers of this request are what its tools read with.
 */
export function mcpEndpoint({ reader, writer, events, log, resultBudgetBytes }: McpEndpointOptions) {
  const toolLog = log.child({ component: 'mcp' });
  return async (req: Request, res: Response): Promise<void> => {
    const server = createMcpServer({
      reader,
      writer,
      events,
      target: { ...res.locals.auth!, headers: routeHeadersOf(req), maxInFlight: res.locals.limits!.maxInFlightPerConnection },
      requestId: res.locals.requestId!,
      noteCreated: (recordId) => {
        if (recordId !== null) res.locals.recordId = recordId;
      },
      boundConnectionId: res.locals.auth!.grant?.connectionId ?? null,
      budgetBytes: resultBudgetBytes,
      log: toolLog,
    });
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
      maxRequestBodySize: MAX_MCP_REQUEST_BYTES,
    });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    // The body was read before authentication (transportHttp.ts); undefined when it was not JSON.
    await transport.handleRequest(req, res, req.body);
  };
}

/**
 * GET (a server-to-client stream) and DELETE (end a session) mean nothing to a stateless server:
 * 405 with Allow, as the transport spec says, in JSON-RPC form as MCP clients expect.
 */
export function mcpMethodNotAllowed(_req: Request, res: Response): void {
  res.setHeader('Allow', 'POST');
  res
    .status(405)
    .json({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this MCP endpoint is stateless; use POST.' }, id: null });
}
