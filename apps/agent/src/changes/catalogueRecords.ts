import { MAX_IDS } from '@gp-gateway/protocol';
import { payloadText, type OperationHandler } from '../service/readService.ts';
import type { RecordReader } from './changeDetector.ts';

/**
 * Records of changed rows read as the API serves them: through the read service's own lists with
 * the `id` filter, so an event's record is byte for byte what `GET /v1/{object}/{id}` answers.
 */
export function catalogueRecords(service: OperationHandler): RecordReader {
  return async (company, object, ids) => {
    const records = new Map<string, Record<string, unknown>>();
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
