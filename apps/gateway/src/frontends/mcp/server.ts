import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { callTool, toolsFor, type ToolContext } from './tools.ts';

const SERVER_INFO = { name: 'gp-gateway', title: 'GP gateway', version: '1.0.0' };

/**
 * A server validates only what it asks clients for (elicitation, which these tools never use), but
 * builds an Ajv instance per server unless given one: one for every request would cost more than the
 * rest of a tool call.
 */
const SCHEMA_VALIDATOR = new AjvJsonSchemaValidator();

const READ_INSTRUCTIONS =
  'Read access to the Microsoft Dynamics GP data of one connection: customers, vendors, items, GL accounts and entries, ' +
  'receivables, payables, sales and purchase orders and more. Call list_objects first: it lists every object with its fields, ' +
  'the filters list_records takes for it and the form of its id. Lists are paged: pass nextCursor back as cursor, with the same ' +
  'object, filters and company, until it is null. Money and quantities are decimal strings. list_events says what changed in GP ' +
  'since a cursor it gave before.';

const WRITE_INSTRUCTIONS =
  ' With this key, create_record creates customers, vendors, their addresses, sales orders, receivables and payables invoices and ' +
  'journal entries, where the connection allows it: try the fields with validateOnly first, and give each new record its own ' +
  'idempotencyKey (the same one when retrying it).';

/**
 * The MCP server of one HTTP request (stateless: nothing outlives the request). Tools are served
 * through McpServer's underlying Server, as its docs advise for custom request handlers, rather than
 * with registerTool: registerTool validates arguments itself and answers a failure as plain text,
 * and our failures must carry the API's error codes and REST's validation messages.
 */
export function createMcpServer(context: ToolContext): McpServer {
  const scopes = context.target.key.scopes;
  const instructions = READ_INSTRUCTIONS + (scopes.includes('write') ? WRITE_INSTRUCTIONS : '');
  const mcp = new McpServer(SERVER_INFO, { instructions, jsonSchemaValidator: SCHEMA_VALIDATOR });
  mcp.server.registerCapabilities({ tools: {} });
  mcp.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: toolsFor(scopes) }));
  mcp.server.setRequestHandler(CallToolRequestSchema, (request) => callTool(context, request.params.name, request.params.arguments));
  return mcp;
}
