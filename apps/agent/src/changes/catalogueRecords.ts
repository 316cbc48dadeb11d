import { MAX_IDS, objectSpec } from '@gp-gateway/protocol';
import { AgentError } from '../service/agentError.ts';
import { payloadText, type OperationHandler } from '../service/readService.ts';
import type { RecordReader } from './detected.ts';

/**
 * Records of changed rows read as the API serves them, through the read service itself, so an
 * event's record is byte for byte what `GET /v1/{object}/{id}` answers: by lists with the `id`
 * filter where the object has one, else one get per id (documents, whose gets look in the work,
 * open and history tables).
 */
export function catalogueRecords(service: OperationHandler): RecordReader {
  return async (company, object, ids) => {
    const records = new Map<string, Record<string, unknown>>();
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
