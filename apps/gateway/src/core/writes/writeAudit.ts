import { objectSpec } from '@gp-gateway/protocol';

/** The audit log's action for a record an API write created (REST POST /v1/{object}, MCP create_record). */
export const RECORD_CREATED = 'record.created';

/** Who wrote, as the audit log names an API caller: its key's id (the name is in the details, and may repeat). */
export const apiKeyActor = (keyId: string): string => `API key ${keyId}`;

/** What the audit log keeps of a created record, beside the organisation and the time. */
export interface WriteAuditDetails {
  keyId: string;
  keyName: string;
  object: string;
  /** The id `GET /v1/{object}/{id}` takes (a composite id joined with `:`); a journal entry's number; null when the record has none. */
  recordId: string | null;
  connectionId: string;
  company: string;
  requestId: string;
}

/**
 * The id of a record an agent answered a write with (its JSON bytes): the `id` of a plain object,
 * the two parts of a composite one joined as the REST path takes them, a journal entry's number
 * (an array of lines); null when the bytes hold none.
 */
export function createdRecordId(object: string, record: Buffer): string | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(record.toString('utf8'));
  } catch {
    return null;
  }
  const first = Array.isArray(parsed) ? parsed[0] : parsed;
  if (typeof first !== 'object' || first === null) return null;
  const fields = first as Record<string, unknown>;
  const text = (value: unknown) => (typeof value === 'string' || typeof value === 'number' ? String(value) : null);
  if (Array.isArray(parsed)) return text(fields.journalEntryNumber);
  const idForm = objectSpec(object)?.idForm;
  if (idForm?.kind === 'composite') {
    const [a, b] = idForm.parts.map((part) => text(fields[part]));
    return a !== null && b !== null ? `${a}:${b}` : null;
  }
  return text(fields.id);
}
