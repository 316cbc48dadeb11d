import { DatabaseConfigurationError, DatabaseUnavailableError, QueryCancelledError } from '../../db/executor.ts';
import { translate } from '../../db/mssqlExecutor.ts';
import { AgentError } from '../../service/agentError.ts';

/** What mends a write the login may not make: the write role's script, and diagnose to list the rest. */
const GRANT_WRITE_FIX =
  'run the script `gp-agent mssql grant-write` prints, as a SQL Server administrator; `gp-agent diagnose` lists every missing grant';

const ERP_UNAVAILABLE_MESSAGE = 'The GP database is not answering the agent; the agent log says why.';

/**
 * A failure on the write path as the API documents it (docs/api.md#error-codes), never a 500 for
 * what SQL Server or the network did:
 * - permission denied (229, 230) or an object missing (208): `FORBIDDEN`, naming the grant or object
 *   (an administrator's fix, not worth retrying);
 * - deadlock victim (1205), lock timeout (1222), the write's request timeout (ETIMEOUT), a connection
 *   lost under the request (ESOCKET, ECLOSE, ECONNRESET) or refused: `ERP_UNAVAILABLE`, retryable;
 * - the agent's own errors (AgentError) as they are; anything else (a bug of ours) as itself.
 * Whether a write whose failure came after its COMMIT was sent committed is not decided here: the
 * writer asks its journal (mssqlWriter.ts).
 */
export function writeFailure(error: unknown): Error {
  if (error instanceof AgentError) return error;
  const translated = translate(error, undefined);
  if (translated instanceof DatabaseConfigurationError)
    return new AgentError('FORBIDDEN', `the agent's SQL login lacks ${translated.missing}: ${GRANT_WRITE_FIX}`, translated.message);
  if (translated instanceof DatabaseUnavailableError || translated instanceof QueryCancelledError)
    return new AgentError('ERP_UNAVAILABLE', ERP_UNAVAILABLE_MESSAGE, translated.message);
  return translated;
}
