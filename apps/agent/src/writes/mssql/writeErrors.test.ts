import { test } from 'node:test';
import assert from 'node:assert/strict';
import sql from 'mssql';
import { AgentError } from '../../service/agentError.ts';
import { writeFailure } from './writeErrors.ts';

/** A driver error as mssql rejects a request with it: SQL Server's number, or the driver's code. */
const driverError = (fields: { number?: number; code?: string }, message = 'x') => Object.assign(new Error(message), fields);

test('a grant the login lacks, or an object it cannot see, is FORBIDDEN naming it, never a retryable ERP_UNAVAILABLE', () => {
  const denied = writeFailure(
    driverError(
      { number: 229 },
      "The EXECUTE permission was denied on the object 'tasmGetNextNoteIndex', database 'DYNAMICS', schema 'dbo'.",
    ),
  );
  assert.ok(denied instanceof AgentError);
  assert.equal(denied.code, 'FORBIDDEN');
  assert.match(denied.message, /lacks EXECUTE on DYNAMICS\.\.tasmGetNextNoteIndex: run the script `gp-agent mssql grant-write` prints/);
  const column = writeFailure(
    driverError(
      { number: 230 },
      "The SELECT permission was denied on the column 'EXPRINST' of the object 'SY05501', database 'GPSYS', schema 'dbo'.",
    ),
  ) as AgentError;
  assert.equal(column.code, 'FORBIDDEN');
  assert.match(column.message, /lacks SELECT on GPSYS\.\.SY05501/);
  const missing = writeFailure(driverError({ number: 208 }, "Invalid object name 'TWO.dbo.GPGW_WRITE_JOURNAL'.")) as AgentError;
  assert.equal(missing.code, 'FORBIDDEN');
  assert.match(missing.message, /the object TWO\.dbo\.GPGW_WRITE_JOURNAL \(it does not exist, or the login may not see it\)/);
  // SQL Server's words stay in the log (detail), not in the client's message.
  assert.match(missing.detail!, /^SQL Server error 208: Invalid object name/);
});

test('deadlocks, lock timeouts, the write timeout and a lost or refused connection are ERP_UNAVAILABLE, never INTERNAL_ERROR', () => {
  for (const fields of [
    { number: 1205 },
    { number: 1222 },
    { code: 'ETIMEOUT' },
    { code: 'ESOCKET' },
    { code: 'ECLOSE' },
    { code: 'ECONNRESET' },
  ]) {
    const failure = writeFailure(driverError(fields));
    assert.ok(failure instanceof AgentError, JSON.stringify(fields));
    assert.equal(failure.code, 'ERP_UNAVAILABLE', JSON.stringify(fields));
  }
  const refused = writeFailure(new sql.ConnectionError('Failed to connect to gp01:1433', 'ESOCKET')) as AgentError;
  assert.equal(refused.code, 'ERP_UNAVAILABLE');
});

test("the agent's own errors pass as they are, and a bug of ours stays itself", () => {
  const refusal = new AgentError('VALIDATION_ERROR', 'GP refused the record', null, { gp: [{ code: 4647, message: 'x' }] });
  assert.equal(writeFailure(refusal), refusal);
  const bug = driverError({ number: 102 }, 'Incorrect syntax near');
  assert.equal(writeFailure(bug), bug);
});
