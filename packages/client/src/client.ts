import createFetchClient, { type Middleware } from 'openapi-fetch';
import type { paths } from './schema.ts';
import { retryingFetch, type RetryOptions } from './retry.ts';

/**
 * A small typed client of the gateway's API, on openapi-fetch and the types generated from
 * docs/openapi.json: the key and routing headers on every request, lists as async iterators over
 * their pages, 429 and 503 retried per Retry-After, and an Idempotency-Key on every POST.
 */

type Json = Record<string, unknown>;
type Get<P extends keyof paths> = paths[P] extends { get: infer O } ? O : never;
type Ok<O> = O extends { responses: { 200: { content: { 'application/json': infer B } } } } ? B : never;
type QueryOf<O> = O extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

/** Objects with a list route `/v1/{object}` (lines are listed with `lines`, the change feed with `events`; webhook deliveries are the gateway's, not GP's). */
export type ListObject = {
  [P in keyof paths]: P extends `/v1/${infer O}`
    ? O extends `${string}/${string}` | 'openapi.json' | 'events' | 'webhook-deliveries'
      ? never
      : O
    : never;
}[keyof paths];
/** Objects with a get-by-id route `/v1/{object}/{id}`. */
export type GetObject = {
  [P in keyof paths]: P extends `/v1/${infer O}/{id}` ? (O extends `${string}/${string}` | 'events' ? never : O) : never;
}[keyof paths];
/** One event of the change feed (docs/api.md#events). */
export type Event = Ok<Get<'/v1/events/{id}'>> extends { data: infer E } ? E : never;
/** The change feed's filters; `type` takes event types and patterns such as `customer.*`. */
export type EventFilters = Omit<QueryOf<Get<'/v1/events'>>, 'limit' | 'cursor'>;

export interface FollowOptions {
  /** Where to start: a nextCursor kept from before; the oldest event kept when absent. */
  cursor?: string;
  limit?: number;
  /** Keep reading after the present: wait `intervalMs` after an empty page and ask again, until `signal` aborts. */
  follow?: boolean;
  /** How long to wait after an empty page when following; 2 s unless given. */
  intervalMs?: number;
  signal?: AbortSignal;
  /** Told the cursor after each page, to keep: reading again from it misses nothing and repeats nothing. */
  onCursor?: (cursor: string) => void;
}
/** Documents whose lines are listed at `/v1/{object}/{id}/lines`. */
export type LinesObject = { [P in keyof paths]: P extends `/v1/${infer O}/{id}/lines` ? O : never }[keyof paths];

type ListBody<P extends keyof paths> = Ok<Get<P>> extends { data: (infer R)[] } ? R : never;
/** One record of a list. */
export type Record_<O extends ListObject> = ListBody<`/v1/${O}`>;
/** One line of a document. */
export type LineOf<O extends LinesObject> = ListBody<`/v1/${O}/{id}/lines`>;
/** One record as get-by-id answers it. */
export type GetRecord<O extends GetObject> = Ok<Get<`/v1/${O}/{id}`>> extends { data: infer R } ? R : never;

type Post<P extends keyof paths> = paths[P] extends { post: infer O } ? O : never;
type DataOf<O, S extends number> = O extends { responses: { [K in S]: { content: { 'application/json': { data: infer R } } } } }
  ? R
  : never;
/** Objects `POST /v1/{object}` creates. */
export type WritableObject = {
  [P in keyof paths]: P extends `/v1/${infer O}`
    ? [Post<P>] extends [never]
      ? never
      : O extends `${string}/${string}`
        ? never
        : O
    : never;
}[keyof paths];
/** The body that creates one record of an object. */
export type WriteBody<O extends WritableObject> =
  Post<`/v1/${O}`> extends { requestBody: { content: { 'application/json': infer B } } } ? B : never;
/** The created record as GP holds it (gl-entries: the entry's lines). */
export type Created<O extends WritableObject> = DataOf<Post<`/v1/${O}`>, 201>;
/** What validate-only answers: the record as GP would hold it, or the sandbox's preview (docs/api.md#writes). */
export type Validated<O extends WritableObject> = DataOf<Post<`/v1/${O}`>, 200>;

/** A list's filters as the query string has them, with `id[]` written `id`. */
export type Filters<O extends ListObject> = {
  [K in keyof QueryOf<Get<`/v1/${O}`>> as K extends 'limit' | 'cursor' ? never : K extends `${infer N}[]` ? N : K]: QueryOf<
    Get<`/v1/${O}`>
  >[K];
};

export interface GatewayClientOptions extends RetryOptions {
  /** The gateway's base URL, e.g. `http://localhost:3000`. */
  baseUrl: string;
  /** An API key, `lb_live_…` or `lb_test_…`. */
  apiKey: string;
  /** X-Connection-Id: required with a live key. */
  connectionId?: string;
  /** X-Company: the connection's default company when absent. */
  company?: string;
  /** The fetch to send with (the global one unless given). */
  fetch?: typeof fetch;
}

/** An error answer of the API (docs/api.md#errors). */
export class GatewayError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly requestId: string | undefined,
    readonly details: Json | null,
  ) {
    super(`${status} ${code}: ${message}`);
    this.name = 'GatewayError';
  }
}

/** Sends a new Idempotency-Key with every POST that has none, so that a retried write is never done twice. */
const idempotencyKeys: Middleware = {
  onRequest({ request }) {
    if (request.method === 'POST' && !request.headers.has('Idempotency-Key')) request.headers.set('Idempotency-Key', crypto.randomUUID());
    return request;
  },
};

/**
 * The routes that take no X-Company (a company is not chosen for the list of companies, nor for the
 * key's own routes, nor webhook deliveries; the change feed filters by its `company` parameter); the client's company stays off them. The client
 * test checks the list against the OpenAPI document.
 */
export const ROUTES_WITHOUT_COMPANY = [
  /^\/v1\/companies(\/[^/]+)?$/,
  /^\/v1\/events(\/[^/]+)?$/,
  /^\/v1\/webhook-deliveries$/,
  /^\/v1\/api-keys\//,
  /^\/v1\/openapi\.json$/,
];

const companyOnlyWhereTaken: Middleware = {
  onRequest({ request }) {
    if (request.headers.has('X-Company') && ROUTES_WITHOUT_COMPANY.some((route) => route.test(new URL(request.url).pathname))) {
      request.headers.delete('X-Company');
    }
    return request;
  },
};

function toError(status: number, body: unknown): GatewayError {
  const error = (body as { error?: { code?: string; message?: string; requestId?: string; details?: Json | null } } | undefined)?.error;
  return new GatewayError(
    status,
    error?.code ?? 'UNKNOWN',
    error?.message ?? 'the gateway answered an error',
    error?.requestId,
    error?.details ?? null,
  );
}

/** `{ id: ['A'] }` as the query string has it: `{ 'id[]': ['A'] }`. */
function queryOf(filters: Json): Json {
  return Object.fromEntries(
    Object.entries(filters).map(([name, value]) => [Array.isArray(value) && !name.endsWith('[]') ? `${name}[]` : name, value]),
  );
}

/** Resolves after `ms`, or at once when `signal` aborts. */
function waitOrAbort(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

export class GatewayClient {
  private readonly http;

  constructor(options: GatewayClientOptions) {
    const headers: Record<string, string> = { Authorization: `Bearer ${options.apiKey}` };
    if (options.connectionId) headers['X-Connection-Id'] = options.connectionId;
    if (options.company) headers['X-Company'] = options.company;
    this.http = createFetchClient<paths>({
      baseUrl: options.baseUrl.replace(/\/$/, ''),
      headers,
      fetch: retryingFetch(options.fetch ?? globalThis.fetch, options),
    });
    this.http.use(idempotencyKeys, companyOnlyWhereTaken);
  }

  /** Raw typed access to every documented operation (openapi-fetch's GET, POST, …). */
  get raw() {
    return this.http;
  }

  private async send<T>(call: Promise<{ data?: unknown; error?: unknown; response: Response }>): Promise<T> {
    const { data, error, response } = await call;
    if (!response.ok) throw toError(response.status, error);
    return data as T;
  }

  /** One page of a list: `{ data, nextCursor }`. */
  async page<O extends ListObject>(
    object: O,
    filters: Filters<O> = {} as Filters<O>,
    paging: { limit?: number; cursor?: string } = {},
  ): Promise<{ data: Record_<O>[]; nextCursor: string | null }> {
    const query = { ...queryOf(filters as Json), ...paging };
    return this.send(this.http.GET(`/v1/${object}` as '/v1/customers', { params: { query: query as never } }));
  }

  /** Every record of a list, page after page: `for await (const c of client.list('customers', { inactive: false }))`. */
  async *list<O extends ListObject>(
    object: O,
    filters: Filters<O> = {} as Filters<O>,
    { limit }: { limit?: number } = {},
  ): AsyncGenerator<Record_<O>> {
    let cursor: string | undefined;
    do {
      const page = await this.page(object, filters, { ...(limit ? { limit } : {}), ...(cursor ? { cursor } : {}) });
      yield* page.data;
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
  }

  /** Every line of one document, page after page. */
  async *lines<O extends LinesObject>(object: O, id: string, { limit }: { limit?: number } = {}): AsyncGenerator<LineOf<O>> {
    let cursor: string | undefined;
    do {
      const query = { ...(limit ? { limit } : {}), ...(cursor ? { cursor } : {}) };
      const page: { data: LineOf<O>[]; nextCursor: string | null } = await this.send(
        this.http.GET(`/v1/${object}/{id}/lines` as '/v1/sales-orders/{id}/lines', { params: { path: { id }, query } }),
      );
      yield* page.data;
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
  }

  /** One record by id (composite ids as `type:number`; the client URL-encodes it). */
  async get<O extends GetObject>(object: O, id: string): Promise<GetRecord<O>> {
    const body: { data: GetRecord<O> } = await this.send(
      this.http.GET(`/v1/${object}/{id}` as '/v1/customers/{id}', { params: { path: { id } } }),
    );
    return body.data;
  }

  /**
   * Creates one record (scope `write`): `client.create('customers', { id, name })`. Sends an
   * Idempotency-Key (a new one unless given), so that the retries of a 503 never write twice; give
   * your own to make your retries safe across restarts. With `validateOnly: true` nothing changes and
   * the answer is what would be created (all a test key may do).
   */
  create<O extends WritableObject>(
    object: O,
    body: WriteBody<O>,
    options?: { validateOnly?: false; idempotencyKey?: string },
  ): Promise<Created<O>>;
  create<O extends WritableObject>(object: O, body: WriteBody<O>, options: { validateOnly: true }): Promise<Validated<O>>;
  async create<O extends WritableObject>(
    object: O,
    body: WriteBody<O>,
    { validateOnly = false, idempotencyKey }: { validateOnly?: boolean; idempotencyKey?: string } = {},
  ): Promise<Created<O> | Validated<O>> {
    const answer: { data: Created<O> | Validated<O> } = await this.send(
      this.http.POST(`/v1/${object}` as '/v1/customers', {
        body: body as never,
        params: { query: validateOnly ? { validateOnly: true } : {} },
        ...(idempotencyKey ? { headers: { 'Idempotency-Key': idempotencyKey } } : {}),
      }),
    );
    return answer.data;
  }

  /**
   * The change feed, oldest first: `for await (const e of client.events({ type: ['customer.*'] }, { follow: true, signal }))`.
   * Without `follow` it ends at the present. Keep the cursor `onCursor` reports to resume where you left off.
   */
  async *events(filters: EventFilters = {}, options: FollowOptions = {}): AsyncGenerator<Event> {
    let cursor = options.cursor;
    for (;;) {
      if (options.signal?.aborted) return;
      const query = { ...filters, ...(options.limit ? { limit: options.limit } : {}), ...(cursor ? { cursor } : {}) };
      const page: { data: Event[]; nextCursor: string } = await this.send(this.http.GET('/v1/events', { params: { query } }));
      yield* page.data;
      cursor = page.nextCursor;
      options.onCursor?.(cursor);
      if (page.data.length > 0) continue;
      if (!options.follow) return;
      await waitOrAbort(options.intervalMs ?? 2_000, options.signal);
    }
  }

  /** One event by id. */
  async event(id: string): Promise<Event> {
    const body: { data: Event } = await this.send(this.http.GET('/v1/events/{id}', { params: { path: { id } } }));
    return body.data;
  }

  /**
   * Replaces a key's secret (scope `write`); the new secret is in this answer only. The old secret
   * fails at once unless `overlap` keeps it working that long; the answer then says until when.
   */
  async rotateKey(id: string, options: { overlap?: 'now' | '1h' | '24h' | '7d' } = {}) {
    const body = options.overlap === undefined ? {} : { body: { overlap: options.overlap } };
    return this.send<{ key: Json; secret: string; oldSecretWorksUntil?: string | null }>(
      this.http.POST('/v1/api-keys/{id}/rotate', { params: { path: { id } }, ...body }),
    );
  }
}
