import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startInProcessGateway, type InProcessGateway } from '../../../testing/inProcessGateway.ts';
import { OpenApiContract } from '@gp-gateway/testing';
import { buildOpenApiDocument } from './document.ts';
import { SANDBOX_EVENTS_ORG } from '../../../infrastructure/store/store.ts';

/**
 * The document against the app itself: every express route is documented, and every documented
 * operation is served, answering its examples with a documented success whose body and headers
 * match the document.
 */

/** Pages for people, not API routes: the reference itself and the dashboard. */
// The OAuth endpoints are described by their own metadata (RFC 8414, docs/api.md#oauth), as OAuth clients read them.
// Pages, OAuth's endpoints (described by their RFC 8414 metadata) and the agent's release files
// (/downloads, docs/operations.md#updating-agents): served beside the API, not part of it.
const NOT_API = ['/docs', '/dashboard', '/authorize', '/token', '/register', '/revoke', '/.well-known/', '/downloads/'];

type Json = Record<string, any>;
const document = buildOpenApiDocument() as Json;
const contract = new OpenApiContract(document);
let t: InProcessGateway;
let key = '';
let otherKeyId = '';
/** An event of the sandbox, which every organisation's test keys read, for `GET /v1/events/{id}`. */
let eventId = '';

before(async () => {
  t = await startInProcessGateway();
  const org = await t.admin.createOrganisation('OpenAPI');
  key = (await t.makeKey(org.id, 'test', ['read', 'write', 'mcp'])).secret;
  otherKeyId = (await t.makeKey(org.id, 'test', ['read'])).key.id;
  const [event] = await t.store.appendEvents(
    [
      {
        orgId: SANDBOX_EVENTS_ORG,
        connectionId: 'sandbox',
        company: 'TWO',
        type: 'customer.deleted',
        object: 'customers',
        recordId: 'GONE0001',
        version: 'deleted:2026-03-01T09:00:00.000Z',
        changedAt: '2026-03-01T09:00:00.000Z',
        data: { id: 'GONE0001' },
      },
    ],
    new Date(),
  );
  eventId = event!.id;
});

after(() => t.close());

/** Every route of an express app as [method or `all`, path pattern], walking mounted routers. */
function expressRoutes(stack: Json[], prefix = ''): [string, string][] {
  return stack.flatMap((layer): [string, string][] => {
    if (layer.route) {
      const methods = Object.keys(layer.route.methods);
      const path = prefix + layer.route.path;
      return methods.length > 20 ? [['all', path]] : methods.map((m) => [m, path]);
    }
    if (layer.name === 'router' && layer.handle.stack) return expressRoutes(layer.handle.stack, prefix + (layer.rawPath ?? ''));
    return [];
  });
}

/** The example request of an operation: path parameters and required query parameters from their examples. */
function exampleRequest(template: string, operation: Json): string {
  const params = (operation.parameters ?? []).map((p: Json) => (p.$ref ? document.components.parameters[p.$ref.split('/').pop()] : p));
  let path = template;
  const query = new URLSearchParams();
  for (const p of params) {
    if (p.in === 'path') {
      const id = template.includes('api-keys') ? otherKeyId : template.includes('events') ? eventId : p.example;
      path = path.replace(`{${p.name}}`, encodeURIComponent(p.name === 'id' ? id : p.example));
    }
    if (p.in === 'query' && p.required) query.set(p.name, p.example);
  }
  return query.size ? `${path}?${query}` : path;
}

test('every express route is in the document', () => {
  const documented = Object.entries(document.paths as Json).flatMap(([path, item]) => Object.keys(item).map((m) => [m, path]));
  const routes = expressRoutes((t.gateway.app as unknown as Json).router.stack).filter(
    ([, path]) => !NOT_API.some((p) => path.startsWith(p)),
  );
  assert.ok(routes.length >= 5, `found the app's routes (${routes.length})`);
  for (const [method, pattern] of routes) {
    const matcher = new RegExp(`^${pattern.replace(/[.]/g, '\\.').replace(/:[A-Za-z]+/g, '[^/]+')}$`);
    const sample = (path: string) => path.replace(/\{[^}]+\}/g, 'X');
    const covered = documented.some(([m, path]) => (method === 'all' || m === method) && matcher.test(sample(path!)));
    assert.ok(covered, `${method.toUpperCase()} ${pattern} is served but not documented`);
  }
});

test('every documented operation is served and answers its example as the document says', async () => {
  let operations = 0;
  for (const [template, item] of Object.entries(document.paths as Json)) {
    for (const [method, operation] of Object.entries(item as Json)) {
      operations++;
      let path = exampleRequest(template, operation);
      const init: RequestInit = { method: method.toUpperCase(), headers: { authorization: `Bearer ${key}` } };
      if (template === '/mcp') {
        init.headers = { ...init.headers, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
        init.body = JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'openapi-test', version: '1' } },
        });
      }
      const example = operation.requestBody?.content?.['application/json']?.example;
      if (operation.requestBody && template !== '/mcp') {
        // An operation is tried with its example body; a write also with validateOnly, which the read-only sandbox allows.
        assert.ok(example, `${method.toUpperCase()} ${template} has an example body`);
        init.headers = { ...init.headers, 'content-type': 'application/json' };
        init.body = JSON.stringify(example);
        const takesValidateOnly = (operation.parameters ?? []).some((p: Json) => p.name === 'validateOnly');
        if (takesValidateOnly) path = `${path}${path.includes('?') ? '&' : '?'}validateOnly=true`;
      }
      const res = await fetch(`${t.gateway.url}${path}`, init);
      const text = await res.text();
      const body = text ? JSON.parse(text) : undefined;
      assert.ok(res.status >= 200 && res.status < 300, `${method.toUpperCase()} ${path}: ${res.status} ${text.slice(0, 300)}`);
      contract.check(method, path, { status: res.status, headers: res.headers, body });
    }
  }
  assert.ok(operations > 30, `walked every operation (${operations})`);
});

test('the checker refuses what the document does not allow', async () => {
  const res = await fetch(`${t.gateway.url}/v1/customers?limit=1`, { headers: { authorization: `Bearer ${key}` } });
  const body = (await res.json()) as Json;
  assert.deepEqual(contract.problems('get', '/v1/customers?limit=1', { status: 200, headers: res.headers, body }), []);
  body.data[0].extra = 1;
  body.data[0].creditLimit = 12.5;
  const problems = contract.problems('get', '/v1/customers', { status: 200, headers: res.headers, body });
  assert.ok(problems.some((p) => p.includes('additional')) && problems.some((p) => p.includes('/creditLimit')), problems.join('\n'));
  assert.match(contract.problems('get', '/v1/customers', { status: 418, headers: res.headers, body })[0]!, /not documented/);
  assert.match(
    contract.problems('get', '/v1/nothing/here/at/all', { status: 200, headers: res.headers, body })[0]!,
    /not a documented path/,
  );
  const limited = new Headers({ 'x-request-id': 'req_x' });
  const rateLimited = { error: { code: 'RATE_LIMITED', message: 'Too many.', requestId: 'req_x', details: null } };
  assert.match(
    contract.problems('get', '/v1/customers', { status: 429, headers: limited, body: rateLimited }).join(),
    /Retry-After is missing/,
  );
});

test('GET /v1/openapi.json serves the document without a key', async () => {
  const res = await fetch(`${t.gateway.url}/v1/openapi.json`);
  assert.equal(res.status, 200);
  assert.deepEqual(await res.json(), document);
});
