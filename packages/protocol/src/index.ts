// Public surface of the protocol package: schemas and constants shared by gateway, agent and tests.

// Errors (docs/api.md#errors)
export { ERROR_CODES, ERROR_STATUS, ErrorBodySchema, ErrorCodeSchema, ValidationIssueSchema } from './errors.ts';
export type { ErrorBody, ErrorCode, ValidationIssue } from './errors.ts';

// Value formats (docs/api.md#value-formats)
export { DateOnlySchema, DecimalStringSchema, ModifiedAtSchema, UtcTimestampSchema } from './values.ts';

// Resources (docs/api.md#objects): resources.ts holds only the public resource schemas and their types, so all of it is exported.
export * from './resources.ts';

// Key rotation (docs/api.md#key-rotation)
export { PublicApiKeySchema, RotateKeyBodySchema, RotatedKeySchema } from './keys.ts';

// Enumerations (docs/api.md#enumerations): enums.ts holds only the public code tables and their two lookups, so all of it is exported.
export * from './enums.ts';

// Envelopes (docs/api.md#lists-and-paging, docs/api.md#get-by-id)
export { getEnvelopeSchema, listEnvelopeSchema } from './envelopes.ts';

// Objects, filters and query parsing (docs/api.md#objects, docs/api.md#filters, docs/api.md#size-limits, docs/api.md#composite-ids, docs/api.md#filters)
export { MAX_IDS, MAX_SEARCH_LENGTH, filterToolSchema, queryParamName } from './filters.ts';
export type { FilterSpec, FilterSpecs, FilterValues } from './filters.ts';
export { OBJECT_NAMES, OBJECTS, ObjectNameSchema, objectSpec } from './objects.ts';
export type { ObjectName, ObjectSpec } from './objects.ts';
export {
  DEFAULT_LIMIT,
  MAX_CURSOR_LENGTH,
  MAX_LIMIT,
  filterWireSchemaOf,
  issuesOf,
  parseListQuery,
  parseToolFilters,
  splitCompositeId,
} from './queryParsing.ts';
export type { ListQuery, Parsed } from './queryParsing.ts';

// Gateway ⇄ agent frames (docs/decisions.md#gateway-and-agent-protocol)
export {
  AgentHealthSchema,
  AgentInfoSchema,
  AgentToGatewayFrameSchema,
  CancelFrameSchema,
  ChangesAckFrameSchema,
  ChangesFrameSchema,
  CLOSE_AGENT_STOPPING,
  CLOSE_PROTOCOL_ERROR,
  CLOSE_SERVICE_RESTART,
  CLOSE_TOKEN_REJECTED,
  CLOSE_TOO_MANY_AGENTS,
  CLOSE_TRY_AGAIN_LATER,
  CLOSE_VERSION_UNSUPPORTED,
  DrainingFrameSchema,
  ErrorFrameSchema,
  GATEWAY_FEATURES,
  GatewayToAgentFrameSchema,
  HelloFrameSchema,
  MAX_FRAME_BYTES,
  MAX_HELLO_BYTES,
  MAX_RECORD_ID_LENGTH,
  OperationIdSchema,
  OperationSchema,
  OutcomeOperationSchema,
  ReadOperationSchema,
  PingFrameSchema,
  PongFrameSchema,
  PROTOCOL_VERSION,
  PositionSchema,
  RequestFrameSchema,
  ResponseFrameSchema,
  StatusFrameSchema,
  WriteOperationSchema,
  WriteOutcomeSchema,
  decodeFrame,
  encodeFrame,
  operationObject,
  reconnectHint,
  withReconnectHint,
} from './frames.ts';
export { sendInBatches } from './sendInBatches.ts';
export { MAX_WRITE_CHECK_COMPANIES, WRITE_CHECK_STATUSES, WRITE_CHECK_WORDS, WriteCheckSchema } from './writeCheck.ts';
export type { WriteCheck, WriteCheckCompany, WriteCheckObject } from './writeCheck.ts';
export type { Corkable } from './sendInBatches.ts';
export type {
  AgentHealth,
  AgentInfo,
  AgentToGatewayFrame,
  CancelFrame,
  ChangesAckFrame,
  ChangesFrame,
  DrainingFrame,
  ErrorFrame,
  GatewayToAgentFrame,
  GetOperation,
  HelloFrame,
  ListOperation,
  Operation,
  OutcomeOperation,
  Position,
  ReadOperation,
  ReconnectHint,
  RequestFrame,
  ResponseFrame,
  StatusFrame,
  WriteOperation,
  WriteOutcome,
} from './frames.ts';

// The change feed (docs/api.md#events): changes.ts is public whole
export * from './changes.ts';
export { parseEventsQuery } from './eventQuery.ts';
export type { EventsQuery } from './eventQuery.ts';

// Webhook deliveries (docs/api.md#webhooks)
export { WEBHOOK_DELIVERY_STATUSES, WebhookDeliverySchema, parseWebhookDeliveriesQuery } from './webhookDeliveries.ts';
export type { WebhookDeliveriesQuery, WebhookDeliveryResource } from './webhookDeliveries.ts';

// Text a client or person names something with: one rule for write bodies, filters and names
export {
  codePointName,
  DESCRIPTION_MAX_LENGTH,
  EMAIL_MAX_LENGTH,
  escapeHidden,
  idProblem,
  lengthProblem,
  multilineTextProblem,
  NAME_MAX_LENGTH,
  nameProblem,
  textProblem,
} from './text.ts';

// Write bodies (docs/api.md#writes)
export {
  MAX_WRITE_AMOUNT,
  WRITABLE_OBJECT_NAMES,
  WRITES,
  WritableObjectNameSchema,
  WriteDecimalSchema,
  fitsNumeric,
  writeSpec,
} from './writes.ts';
export type { WritableObjectName, WriteField, WriteSpec } from './writes.ts';
export { checkWriteBody, writeBodySchema } from './writeBody.ts';
export type { WriteBody, WriteBodyCheck } from './writeBody.ts';

// Agent versions named in the welcome (docs/decisions.md#agent-updates)
export { agentVersionAdvice, isOlderVersion } from './agentVersions.ts';

// The agent's release folder (docs/decisions.md#agent-updates): releaseManifest.ts is public whole
export * from './releaseManifest.ts';
export type { AgentVersions } from './agentVersions.ts';
