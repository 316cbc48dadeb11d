import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { startInProcessGateway, type InProcessGateway } from '../../testing/inProcessGateway.ts';

/** The byte budget over real HTTP, made tiny so that a few customers fill a page. */
const BUDGET = 3_000;
let t: InProcessGateway;
let key = '';
let client: Client;

before(async () => {
  t = await startInProcessGateway({ mcpResultBudgetBytes: BUDGET });
  const org = await t.admin.createOrganisation('Budget');
  await t.admin.setLimits(org.id, { requestsPerWindow: 1_000_000 });
  key = (await t.makeKey(org.id, 'test', ['read', 'mcp'])).secret;
  client = new Client({ name: 'budget', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${t.gateway.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }),
  );
});

after(async () => {
  await client.close();
  await t.close();
});

async function restWalk(object: string, query = ''): Promise<unknown[]> {
  const rows: unknown[] = [];
  let cursor: string | null = null;
  do {
    const res = await t.get(`/v1/${object}?limit=1000${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, {
      authorization: `Bearer ${key}`,
    });
    rows.push(...res.body.data);
    cursor = res.body.nextCursor;
  } while (cursor);
  return rows;
}

test('pages over the budget hold fewer records, and their cursors skip and repeat nothing', async () => {
  const rows: unknown[] = [];
  const sizes: number[] = [];
  let cursor: string | null = null;
  do {
    const result = (await client.callTool({
      name: 'list_records',
      arguments: { object: 'customers', limit: 100, ...(cursor ? { cursor } : {}) },
    })) as CallToolResult;
    assert.equal(result.isError, undefined);
    const text = (result.content[0] as { text: string }).text;
    const page = JSON.parse(text) as { data: unknown[]; nextCursor: string | null };
    assert.ok(Buffer.byteLength(text) <= BUDGET, `a page of ${Buffer.byteLength(text)} bytes`);
    assert.ok(page.data.length >= 1);
    sizes.push(page.data.length);
    rows.push(...page.data);
    cursor = page.nextCursor;
  } while (cursor);
  assert.deepEqual(rows, await restWalk('customers'));
  assert.ok(Math.max(...sizes) < 10, `pages of ${Math.max(...sizes)} customers`);
});

test('a page within the budget is the page asked for', async () => {
  const result = (await client.callTool({ name: 'list_records', arguments: { object: 'companies', limit: 1 } })) as CallToolResult;
  assert.deepEqual(
    JSON.parse((result.content[0] as { text: string }).text),
    (await t.get('/v1/companies?limit=1', { authorization: `Bearer ${key}` })).body,
  );
});
