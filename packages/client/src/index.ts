// The gateway's typed client (README: "Typed client").
export { GatewayClient, GatewayError } from './client.ts';
export type {
  Created,
  Event,
  EventFilters,
  Filters,
  FollowOptions,
  GatewayClientOptions,
  GetObject,
  GetRecord,
  LineOf,
  LinesObject,
  ListObject,
  Record_ as ListRecord,
  Validated,
  WritableObject,
  WriteBody,
} from './client.ts';
export { retryAfterMs, retryingFetch, type RetryOptions } from './retry.ts';
export type { components, operations, paths } from './schema.ts';
