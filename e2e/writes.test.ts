import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { OBJECTS, WRITABLE_OBJECT_NAMES, type WritableObjectName } from '@gp-gateway/protocol';
import { generateDemo } from '@gp-gateway/gp-demo';
import { provisionOrganisation } from '@gp-gateway/gateway/testing';
import { OpenApiContract } from '@gp-gateway/testing';
import { runGatewayCli, startAgentProcess, startGatewayProcess, waitFor, type Started } from './support/processes.ts';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Writes end to end with real processes (issue 19's "tests that must exist"): the gateway and the
 * real agent over a real socket, on the embedded GP database. Every writable object written and read
 * back; validate-only changing nothing; the agent killed after its commit and before its answer
 * (GP_AGENT_FAULT=exit-after-commit); 500 writes with the agent killed and restarted at random, ending
 * with exactly one document per acknowledged write and no other.
 */
const REQUEST_TIMEOUT_MS = 4000;
const GATEWAY_ENV = {
  REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
  AGENT_HEARTBEAT_INTERVAL_MS: '200',
  AGENT_HEARTBEAT_TIMEOUT_MS: '1000',
  LOG_LEVEL: 'warn',
};
const AGENT_ENV = {
  GP_AGENT_HEARTBEAT_INTERVAL_MS: '200',
  GP_AGENT_HEARTBEAT_TIMEOUT_MS: '1000',
  GP_AGENT_BACKOFF_MIN_MS: '50',
  GP_AGENT_BACKOFF_MAX_MS: '200',
  GP_SQLITE_WORKERS: '1',
  LOG_LEVEL: 'warn',
};
const CHAOS_WRITES = Number(process.env.E2E_CHAOS_WRITES ?? 500);

let root: string;
let site: string;
let gateway: Started & { url: string; testKey: string };
let liveKey: string;
let connection: { id: string; token: string };
let agent: Started | null = null;

function startAgent(env: NodeJS.ProcessEnv = {}): Started {
  agent = startAgentProcess(gateway.url, connection.token, site, { ...AGENT_ENV, ...env }, ['--allow-writes']);
  return agent;
}

async function agentConnected(): Promise<void> {
  await waitFor('the agent to connect', async () => ((await get('/v1/companies')).status === 200 ? true : null), 30_000);
}

before(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-writes-'));
  site = path.join(root, 'site');
  generateDemo({ dir: site, scale: 1, seed: 19 });
  const dataDir = path.join(root, 'gateway');
  const customer = await provisionOrganisation(dataDir, {
    organisation: 'Writers',
    limits: { requestsPerWindow: 1_000_000, windowSeconds: 1, maxInFlightPerConnection: 32 },
    connections: ['HQ'],
    scopes: ['read', 'write'],
  });
  liveKey = customer.liveKey;
  connection = customer.connections.HQ!;
  const whitelist = await runGatewayCli(['connection', 'set-write-whitelist', 'HQ', WRITABLE_OBJECT_NAMES.join(','), '--org', 'Writers'], {
    DATA_DIR: dataDir,
  });
  assert.equal(whitelist.code, 0, whitelist.stderr);
  gateway = await startGatewayProcess(dataDir, GATEWAY_ENV);
  startAgent();
  await agentConnected();
});

after(async () => {
  await agent?.stop('SIGKILL');
  await gateway?.stop();
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

const headers = (extra: Record<string, string> = {}) => ({
  authorization: `Bearer ${liveKey}`,
  'x-connection-id': connection.id,
  ...extra,
});

/** Every answer below is held to the OpenAPI document the gateway serves, so the document cannot drift from the writes. */
let served: Promise<OpenApiContract> | undefined;
async function checkDocumented(method: string, pathAndQuery: string, res: Response, body: unknown): Promise<void> {
  served ??= fetch(`${gateway.url}/v1/openapi.json`).then(async (r) => new OpenApiContract((await r.json()) as Record<string, any>));
  (await served).check(method, pathAndQuery, { status: res.status, headers: res.headers, body });
}

async function get(pathAndQuery: string): Promise<{ status: number; json: any }> {
  const res = await fetch(`${gateway.url}${pathAndQuery}`, { headers: headers(), signal: AbortSignal.timeout(20_000) });
  const json = await res.json();
  await checkDocumented('get', pathAndQuery, res, json);
  return { status: res.status, json };
}

async function post(object: string, body: unknown, key?: string, query = ''): Promise<{ status: number; text: string; json: any }> {
  const res = await fetch(`${gateway.url}/v1/${object}${query}`, {
    method: 'POST',
    headers: headers({ 'content-type': 'application/json', ...(key ? { 'idempotency-key': key } : {}) }),
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(20_000),
  });
  const text = await res.text();
  const json = JSON.parse(text);
  await checkDocumented('post', `/v1/${object}${query}`, res, json);
  return { status: res.status, text, json };
}

/** Existing records to refer to, read through the API as an integrator would. */
async function references() {
  const first = async (object: string, query = '') => (await get(`/v1/${object}?limit=2${query}`)).json.data as any[];
  const [customer] = await first('customers', '&inactive=false');
  const [vendor] = await first('vendors');
  const [item] = await first('items');
  // Journal lines take active posting accounts only (the agent refuses unit and allocation accounts).
  const accounts = await first('accounts', '&active=true&type=posting');
  return { customer, vendor, item, accounts };
}

const today = new Date().toISOString().slice(0, 10);

function bodies(refs: Awaited<ReturnType<typeof references>>, tag: string): Record<WritableObjectName, Record<string, unknown>> {
  return {
    customers: { id: `E2E${tag}`, name: `E2E customer ${tag}` },
    'customer-addresses': { customerId: refs.customer.id, code: `E2E${tag}`, city: 'Oslo' },
    vendors: { id: `E2EV${tag}`, name: `E2E vendor ${tag}` },
    'vendor-addresses': { vendorId: refs.vendor.id, code: `E2E${tag}`, city: 'Bergen' },
    'sales-orders': {
      docTypeId: 'STDORD',
      customerId: refs.customer.id,
      date: today,
      // One batch id per kind of document, so each kind's documents are counted in a batch of their own.
      batchId: `E2ESO${tag}`,
      lines: [{ itemId: refs.item.id, quantity: '2', unitPrice: '10.00' }],
    },
    'ar-invoices': { customerId: refs.customer.id, date: today, salesAmount: '100.00', batchId: `E2EAR${tag}` },
    'ap-invoices': {
      vendorDocumentNumber: `E2E-${tag}`,
      vendorId: refs.vendor.id,
      date: today,
      purchasesAmount: '50.00',
      batchId: `E2EAP${tag}`,
    },
    'gl-entries': journalEntry(refs, `E2E ${tag}`),
  };
}

function journalEntry(refs: Awaited<ReturnType<typeof references>>, reference: string) {
  return {
    reference,
    date: today,
    batchId: 'E2EGL',
    lines: [
      // An account's id is its number as GP shows it (ACTNUMST), which is what a line takes.
      { accountNumber: refs.accounts[0].id, debit: '10.00' },
      { accountNumber: refs.accounts[1].id, credit: '10.00' },
    ],
  };
}

/** The id of a record as GET takes it (docs/api.md#composite-ids). */
function idOf(object: WritableObjectName, record: Record<string, unknown>): string | null {
  const form = OBJECTS[object].idForm;
  if (!form) return null;
  return form.kind === 'plain' ? String(record.id) : `${String(record[form.parts[0]])}:${String(record[form.parts[1]])}`;
}

/** The unposted lines of journal entries with this reference. */
async function unpostedLines(reference: string): Promise<any[]> {
  const lines: any[] = [];
  let cursor: string | null = null;
  do {
    const page = await get(`/v1/gl-entries?year=unposted&limit=1000${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    assert.equal(page.status, 200, JSON.stringify(page.json));
    lines.push(...page.json.data);
    cursor = page.json.nextCursor;
  } while (cursor);
  return lines.filter((l) => l.reference === reference);
}

test("start's test key validates the documented example of every writable object on the sandbox, and may not write", async () => {
  const document = (await (await fetch(`${gateway.url}/v1/openapi.json`)).json()) as any;
  const sandbox = (object: string, body: unknown, query: string) =>
    fetch(`${gateway.url}/v1/${object}${query}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gateway.testKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(20_000),
    });
  for (const object of WRITABLE_OBJECT_NAMES) {
    const example = document.paths[`/v1/${object}`].post.requestBody.content['application/json'].example;
    const tried = await sandbox(object, example, '?validateOnly=true');
    const text = await tried.text();
    assert.equal(tried.status, 200, `${object} on the sandbox's worker: ${text}`);
    assert.equal(typeof JSON.parse(text).data, 'object', object);
  }
  const written = await sandbox('customers', { id: 'TRY0001', name: 'Try Ltd' }, '');
  assert.equal(written.status, 403);
  assert.equal(((await written.json()) as any).error.code, 'FORBIDDEN');
});

test('every writable object is created and reads back as the 201 said; validate-only changes nothing', async () => {
  const refs = await references();
  for (const [object, body] of Object.entries(bodies(refs, '1')) as [WritableObjectName, Record<string, unknown>][]) {
    const tried = await post(
      object,
      { ...body, ...(object === 'gl-entries' ? { reference: 'E2E validate' } : {}) },
      undefined,
      '?validateOnly=true',
    );
    assert.equal(tried.status, 200, `${object} validate-only: ${tried.text}`);
    const triedId = idOf(object, tried.json.data);
    if (triedId && object !== 'sales-orders' && object !== 'ar-invoices' && object !== 'ap-invoices') {
      assert.equal((await get(`/v1/${object}/${encodeURIComponent(triedId)}`)).status, 404, `${object}: validate-only wrote nothing`);
    }

    const created = await post(object, body, `e2e-${object}-1`);
    assert.equal(created.status, 201, `${object}: ${created.text}`);
    const id = idOf(object, created.json.data);
    if (id) {
      const read = await get(`/v1/${object}/${encodeURIComponent(id)}`);
      assert.equal(read.status, 200, `${object} ${id}`);
      assert.deepEqual(read.json.data, created.json.data, `${object} reads back as created`);
    } else {
      assert.deepEqual(await unpostedLines('E2E 1'), created.json.data, 'the journal entry’s lines read back as created');
    }
    const record = (Array.isArray(created.json.data) ? created.json.data[0] : created.json.data) as Record<string, unknown>;
    for (const [field, value] of Object.entries(body)) {
      if (field === 'lines' || field === 'batchId' || field === 'docTypeId' || !(field in record)) continue;
      assert.equal(String(record[field]).toUpperCase(), String(value).toUpperCase(), `${object}.${field}`);
    }
    const again = await post(object, body, `e2e-${object}-1`);
    assert.equal(again.text, created.text, `${object}: the retry replays the answer`);
  }
  assert.equal((await unpostedLines('E2E validate')).length, 0);
  const exists = await post('customers', bodies(refs, '1').customers);
  assert.equal(exists.status, 409);
  assert.equal(exists.json.error.code, 'ALREADY_EXISTS');
  const unbalanced = await post('gl-entries', {
    ...journalEntry(refs, 'E2E unbalanced'),
    lines: [journalEntry(refs, '').lines[0], journalEntry(refs, '').lines[0]],
  });
  assert.equal(unbalanced.status, 400);
});

test("a document's own distribution lines and a sales line's unit and price level read back through the API's lines routes", async () => {
  const refs = await references();
  const [debitAccount, creditAccount] = [refs.accounts[0].id, refs.accounts[1].id];
  const invoice = await post('ar-invoices', {
    customerId: refs.customer.id,
    date: today,
    salesAmount: '40.00',
    batchId: 'E2EDIST',
    lines: [
      { type: 'receivables', accountNumber: debitAccount, debit: '40.00', reference: 'E2E due' },
      { type: 'sales', accountNumber: creditAccount, credit: '40.00' },
    ],
  });
  assert.equal(invoice.status, 201, invoice.text);
  const distributions = await get(`/v1/ar-invoices/${encodeURIComponent(idOf('ar-invoices', invoice.json.data)!)}/lines`);
  assert.equal(distributions.status, 200);
  assert.deepEqual(distributions.json.data, [
    { type: 'receivables', accountNumber: debitAccount, debit: '40.00', credit: '0.00', reference: 'E2E due' },
    { type: 'sales', accountNumber: creditAccount, debit: '0.00', credit: '40.00', reference: null },
  ]);
  const unbalanced = await post('ap-invoices', {
    vendorDocumentNumber: 'E2E-DIST',
    vendorId: refs.vendor.id,
    date: today,
    purchasesAmount: '50.00',
    batchId: 'E2EDIST',
    lines: [
      { type: 'purchases', accountNumber: debitAccount, debit: '50.00' },
      { type: 'payables', accountNumber: creditAccount, credit: '49.99' },
    ],
  });
  assert.equal(unbalanced.status, 400, unbalanced.text);
  assert.deepEqual(
    unbalanced.json.error.details.issues.map((i: { path: string }) => i.path),
    ['lines'],
  );

  const order = await post('sales-orders', {
    docTypeId: 'STDORD',
    customerId: refs.customer.id,
    date: today,
    batchId: 'E2EUOFM',
    lines: [{ itemId: refs.item.id, quantity: '1', unitPrice: '10.00', priceLevel: 'RETAIL' }],
  });
  assert.equal(order.status, 201, order.text);
  const lines = await get(`/v1/sales-orders/${encodeURIComponent(idOf('sales-orders', order.json.data)!)}/lines`);
  assert.equal(lines.json.data[0].priceLevel, 'RETAIL');
  assert.equal(typeof lines.json.data[0].unitOfMeasure, 'string', "the item's selling unit, as GP defaults it");
});

test('the agent killed after its commit, before its answer: the retry with the same key gets the original answer, one document', async () => {
  const refs = await references();
  await agent!.stop('SIGKILL');
  startAgent({ GP_AGENT_FAULT: 'exit-after-commit' });
  await agentConnected();
  const body = journalEntry(refs, 'E2E killed');
  const pending = post('gl-entries', body, 'e2e-killed');
  await waitFor(
    'the faulty agent to exit after its commit',
    () => (agent!.child.exitCode !== null || agent!.child.signalCode !== null ? true : null),
    20_000,
  );
  startAgent();
  const first = await pending;
  assert.ok([201, 504].includes(first.status), first.text);
  await agentConnected();
  const retry = await post('gl-entries', body, 'e2e-killed');
  assert.equal(retry.status, 201, retry.text);
  if (first.status === 201) assert.equal(retry.text, first.text);
  assert.equal((await unpostedLines('E2E killed')).length, 2, 'exactly one journal entry (two lines)');
});

test(`${CHAOS_WRITES} writes with the agent killed and restarted at random: one document per acknowledged write, no other`, async () => {
  const refs = await references();
  let stopping = false;
  let kills = 0;
  const chaos = (async () => {
    // Ten kills are plenty to land in every phase of a write; more only slow a loaded machine, where
    // each restart takes seconds, until the writes cannot finish.
    while (!stopping && kills < 10) {
      // Each kill lands on a connected agent: on a loaded machine an agent takes seconds to start,
      // and killing it before it is up would test nothing and leave the writes no agent at all.
      await agentConnected();
      await sleep(100 + Math.random() * 500);
      if (stopping) break;
      await agent!.stop('SIGKILL');
      kills++;
      startAgent();
    }
  })();
  const acknowledged = new Set<string>();
  const statuses = new Map<string, number>();
  let next = 0;
  const worker = async () => {
    for (let n = next++; n < CHAOS_WRITES; n = next++) {
      const reference = `E2E chaos ${n}`;
      // A client retries until it is answered; what is bounded is the time, not the number of tries
      // (an agent restarting on a loaded machine answers 503 CONNECTION_OFFLINE for seconds).
      for (const giveUp = Date.now() + 180_000; Date.now() < giveUp;) {
        const r = await post('gl-entries', journalEntry(refs, reference), `e2e-chaos-${n}`).catch(() => null);
        const seen = r ? `${r.status} ${r.json?.error?.code ?? ''}` : 'no answer';
        statuses.set(seen, (statuses.get(seen) ?? 0) + 1);
        if (r?.status === 201) {
          acknowledged.add(reference);
          break;
        }
        assert.ok(r === null || [503, 504, 409].includes(r.status), r?.text);
        await sleep(100);
      }
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  stopping = true;
  await chaos;
  await agentConnected();
  const lines: any[] = [];
  for (let cursor: string | null = null, first = true; first || cursor; first = false) {
    const page = await get(`/v1/gl-entries?year=unposted&limit=1000${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    lines.push(...page.json.data);
    cursor = page.json.nextCursor;
  }
  const entries = new Map<string, number>();
  for (const line of lines.filter((l) => String(l.reference).startsWith('E2E chaos '))) {
    entries.set(line.reference, (entries.get(line.reference) ?? 0) + 1);
  }
  // How many kills fit depends on the machine's speed (an idle one writes the 500 in seconds); at least one must.
  assert.ok(kills >= 1, `the agent was killed while writing (${kills} times)`);
  assert.equal(acknowledged.size, CHAOS_WRITES, `every write was acknowledged in the end (answers: ${JSON.stringify([...statuses])})`);
  for (const reference of acknowledged) assert.equal(entries.get(reference), 2, `${reference}: one entry of two lines`);
  assert.deepEqual(
    [...entries.keys()].filter((r) => !acknowledged.has(r)),
    [],
    'no unexplained document',
  );
});
