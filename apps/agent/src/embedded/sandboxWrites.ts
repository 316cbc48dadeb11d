import { SqliteWriter } from '../writes/sqliteWriter.ts';
import { WriteService } from '../writes/writeService.ts';

/**
 * The sandbox's writes: read-only, it writes nothing, but checks validate-only writes against its
 * data (docs/decisions.md#writes). One place, so that the sandbox worker and the in-process test
 * gateway answer writes alike.
 */
export function sandboxWrites(dir: string): WriteService {
  return new WriteService(new SqliteWriter({ dir, readonly: true }), { allowWrites: false, validateOnlyWhenOff: true });
}
