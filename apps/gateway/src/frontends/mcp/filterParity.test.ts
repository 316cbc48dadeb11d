import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { filterToolSchema, OBJECTS, queryParamName, type FilterSpec, type ObjectSpec } from '@gp-gateway/protocol';
import { startInProcessGateway, type InProcessGateway } from '../../testing/inProcessGateway.ts';

/**
 * REST and the list_records tool accept and reject the same filters: every filter of every object,
 * with valid and invalid values, each sent once as a query string and once as tool arguments (as the
 * same string, and as a JSON boolean, number or array where the filter has that type). Accepted
 * inputs must give the same page (same records, same cursor); rejected ones the same issues.
 */
let t: InProcessGateway;
let key = '';
let client: Client;
/** Values for required filters, so that other filters of the object can be tried. */
const required: Record<string, Record<string, string>> = {};
/** The document whose lines each lines object lists. */
const documents: Record<string, string> = {};

before(async () => {
  t = await startInProcessGateway();
  const org = await t.admin.createOrganisation('Parity');
  await t.admin.setLimits(org.id, { requestsPerWindow: 1_000_000 });
  key = (await t.makeKey(org.id, 'test', ['read', 'mcp'])).secret;
  client = new Client({ name: 'parity', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${t.gateway.url}/mcp`), { requestInit: { headers: auth() } }));
  const first = async (object: string) => (await t.get(`/v1/${object}?limit=1`, auth())).body.data[0];
  required['customer-addresses'] = { customerId: (await first('customers')).id };
  required['vendor-addresses'] = { vendorId: (await first('vendors')).id };
  const order = await first('sales-orders');
  documents['sales-order-lines'] = `${order.type}:${order.number}`;
  documents['purchase-order-lines'] = (await first('purchase-orders')).id;
  const arInvoice = await first('ar-invoices');
  documents['ar-invoice-distributions'] = `${arInvoice.type}:${arInvoice.documentNumber}`;
  const apInvoice = await first('ap-invoices');
  documents['ap-invoice-distributions'] = `${apInvoice.type}:${apInvoice.voucherNumber}`;
});

after(async () => {
  await client.close();
  await t.close();
});

function auth() {
  return { authorization: `Bearer ${key}` };
}

/** One input in both forms; `typed` when the tool value has the JSON type the tool advertises. */
interface Sample {
  rest: string | string[];
  tool: unknown;
  typed: boolean;
}
const same = (value: string | string[]): Sample => ({ rest: value, tool: value, typed: true });
const untyped = (value: string): Sample => ({ rest: value, tool: value, typed: false });

function samplesOf(spec: FilterSpec): Sample[] {
  switch (spec.kind) {
    case 'string':
      return [same('X'), same(''), same('x'.repeat(spec.maxLength + 1)), same(['A', 'B']), { rest: '5', tool: 5, typed: false }];
    case 'search':
      return [same('a'), same(''), same('x'.repeat(65))];
    case 'boolean':
      return [
        { rest: 'true', tool: true, typed: true },
        { rest: 'false', tool: false, typed: true },
        untyped('false'),
        untyped('yes'),
        { rest: '1', tool: 1, typed: false },
      ];
    case 'integer':
      return [
        { rest: '5', tool: 5, typed: true },
        untyped('-3'),
        { rest: '1.5', tool: 1.5, typed: false },
        untyped('abc'),
        { rest: '2147483648', tool: 2147483648, typed: false },
      ];
    case 'enum':
      return [same(spec.values[0]), same(spec.values[spec.values.length - 1]!), same('nope')];
    case 'timestamp':
      return [same('2024-01-01T10:00:00+02:00'), same('2024-01-01'), same('yesterday'), same('2024-02-30')];
    case 'date':
      return [same('2024-01-01'), same('2024-01-31T23:30:00-05:00'), same('2024-13-01')];
    case 'ids':
      return [same(['A', 'B']), untyped('A'), same(['']), same(['x'.repeat(130)]), same(Array.from({ length: 51 }, (_, i) => `C${i}`))];
  }
}

function restPath(spec: ObjectSpec, query: [string, string][]): string {
  const search = new URLSearchParams([['limit', '5'], ...query]).toString();
  if (!spec.parent) return `/v1/${spec.name}?${search}`;
  return `/v1/${spec.parent}/${encodeURIComponent(documents[spec.name]!)}/lines?${search}`;
}

/** A REST page as MCP returns it: records of composite-id objects carry their id. */
function withIds(spec: ObjectSpec, page: { data: Record<string, unknown>[]; nextCursor: string | null }) {
  if (spec.idForm?.kind !== 'composite') return page;
  const [first, second] = spec.idForm.parts;
  return { ...page, data: page.data.map((r) => ({ id: `${String(r[first])}:${String(r[second])}`, ...r })) };
}

async function compare(
  spec: ObjectSpec,
  label: string,
  query: [string, string][],
  toolFilters: Record<string, unknown>,
  rename: (path: string) => string,
) {
  const rest = await t.get(restPath(spec, query), auth());
  const result = (await client.callTool({
    name: 'list_records',
    arguments: { object: spec.name, limit: 5, filters: toolFilters },
  })) as CallToolResult;
  const text = (result.content[0] as { text: string }).text;
  if (rest.status === 200) {
    assert.equal(result.isError, undefined, `${label}: REST accepts, the tool rejects: ${text}`);
    assert.deepEqual(JSON.parse(text), withIds(spec, rest.body), `${label}: another page`);
    return true;
  }
  assert.equal(result.isError, true, `${label}: REST answers ${rest.status}, the tool accepts`);
  const error = JSON.parse(text).error;
  assert.equal(error.code, rest.body.error.code, label);
  if (error.code === 'VALIDATION_ERROR') {
    const expected = rest.body.error.details.issues.map((i: { path: string; message: string }) => ({
      path: rename(i.path),
      message: i.message,
    }));
    assert.deepEqual(error.details.issues, expected, label);
  }
  return false;
}

test('every filter of every object: REST and list_records accept, reject and answer alike', async () => {
  let accepted = 0;
  let rejected = 0;
  for (const spec of Object.values(OBJECTS as Record<string, ObjectSpec>)) {
    const base = { ...required[spec.name] };
    const toolBase = spec.parent ? { ...base, documentId: documents[spec.name] } : base;
    for (const [name, filter] of Object.entries(spec.filters)) {
      if (filter.kind === 'string' && filter.fromPath) continue;
      const param = queryParamName(name, filter);
      const rename = (path: string) =>
        path === param || path.startsWith(`${param}.`) ? `filters.${name}${path.slice(param.length)}` : `filters.${path}`;
      for (const sample of samplesOf(filter)) {
        const values = Array.isArray(sample.rest) ? sample.rest : [sample.rest];
        const query: [string, string][] = [
          ...Object.entries(base).filter(([k]) => k !== name),
          ...values.map((v) => [param, v] as [string, string]),
        ];
        const toolFilters = { ...toolBase, [name]: sample.tool };
        const label = `${spec.name} ${name}=${JSON.stringify(sample.tool).slice(0, 40)}`;
        if (await compare(spec, label, query, toolFilters, rename)) {
          accepted += 1;
          if (sample.typed)
            assert.equal(filterToolSchema(spec.filters).safeParse(toolFilters).success, true, `${label}: the advertised schema refuses it`);
        } else {
          rejected += 1;
        }
      }
    }
    // A name the object does not have: REST says "unknown query parameter", the tool "unknown filter" and the object's filters.
    const rest = await t.get(restPath(spec, [...Object.entries(base), ['colour', 'red']]), auth());
    assert.deepEqual(rest.body.error.details.issues, [{ path: 'colour', message: 'unknown query parameter' }]);
    const result = (await client.callTool({
      name: 'list_records',
      arguments: { object: spec.name, filters: { ...toolBase, colour: 'red' } },
    })) as CallToolResult;
    const error = JSON.parse((result.content[0] as { text: string }).text).error;
    assert.deepEqual(
      error.details.issues,
      [{ path: 'filters.colour', message: `unknown filter; ${spec.name} filters are ${Object.keys(spec.filters).join(', ')}` }],
      spec.name,
    );
  }
  assert.ok(accepted > 150 && rejected > 150, `${accepted} accepted, ${rejected} rejected`);
});
