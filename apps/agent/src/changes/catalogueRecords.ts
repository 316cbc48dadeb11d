import { MAX_IDS, objectSpec, type Position } from '@gp-gateway/protocol';
import { AgentError } from '../service/agentError.ts';
import { payloadText, type OperationHandler } from '../service/readService.ts';
import type { RecordReader } from './detected.ts';

/**
 * Records of changed rows read as the API serves them, through the read service itself, so an
 * event's record is byte for byte what `GET /v1/{object}/{id}` answers: by lists with the `id`
 * filter where the object has one, else one get per id (documents, whose gets look in the work,
 * open and history tables); lines as their document's lines list them.
 */
export function catalogueRecords(service: OperationHandler): RecordReader {
  return async (company, object, ids) => {
    const records = new Map<string, Record<string, unknown>>();
    if (objectSpec(object)?.parent) return linesOf(service, company, object, ids);
    if (!objectSpec(object)?.filters.id) {
      for (const id of ids) {
        try {
          const result = await service.handle({ kind: 'get', object: object as never, company, id });
          records.set(id, JSON.parse(payloadText(result.payload)) as Record<string, unknown>);
        } catch (error) {
          // Gone since it was seen: the range that holds it finds it deleted.
          if (!(error instanceof AgentError && error.code === 'NOT_FOUND')) throw error;
        }
      }
      return records;
    }
    for (let i = 0; i < ids.length; i += MAX_IDS) {
      const chunk = ids.slice(i, i + MAX_IDS);
      const result = await service.handle({
        kind: 'list',
        object: object as never,
        company,
        filters: { id: chunk },
        limit: MAX_IDS,
        after: null,
      });
      for (const record of JSON.parse(payloadText(result.payload)) as Record<string, unknown>[]) records.set(String(record.id), record);
    }
    return records;
  };
}

/**
 * Lines, which have no get of their own: each document's lines listed as `GET /v1/{parent}/{id}/lines`
 * lists them, and picked by line number (a line's id is `<document id>:<line number>`).
 */
async function linesOf(
  service: OperationHandler,
  company: string,
  object: string,
  ids: readonly string[],
): Promise<Map<string, Record<string, unknown>>> {
  const records = new Map<string, Record<string, unknown>>();
  const wanted = new Set(ids);
  const documents = new Set(ids.map((id) => id.slice(0, id.lastIndexOf(':'))));
  for (const documentId of documents) {
    let after: Position | null = null;
    do {
      let result;
      try {
        result = await service.handle({ kind: 'list', object: object as never, company, filters: { documentId }, limit: MAX_IDS, after });
      } catch (error) {
        // The document is gone, and its lines with it: the ranges find them deleted.
        if (error instanceof AgentError && error.code === 'NOT_FOUND') break;
        throw error;
      }
      for (const record of JSON.parse(payloadText(result.payload)) as Record<string, unknown>[]) {
        const id = `${documentId}:${String(record.lineNumber)}`;
        if (wanted.has(id)) records.set(id, record);
      }
      after = result.next;
    } while (after !== null);
  }
  return records;
}
