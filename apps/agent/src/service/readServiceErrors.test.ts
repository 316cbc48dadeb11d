import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DatabaseConfigurationError, DatabaseUnavailableError, type Executor } from '../db/executor.ts';
import { mssqlDialect } from '../sql/mssqlDialect.ts';
import { AgentError } from './agentError.ts';
import { ReadService } from './readService.ts';

/** An executor whose every statement fails with `error`, as SQL Server's driver failures arrive translated. */
function failingWith(error: Error): Executor {
  const fail = async () => {
    throw error;
  };
  return {
    dialect: mssqlDialect,
    systemDatabase: 'DYNAMICS',
    query: fail,
    forEachRow: fail,
    gpVersion: fail,
    checkReadable: fail,
    close: async () => {},
  };
}

const get = { kind: 'get', object: 'customers', company: 'TWO', id: 'AARONFIT0001' } as const;

test('a read the login may not make is FORBIDDEN naming the grant, not the retryable ERP_UNAVAILABLE', async () => {
  const service = new ReadService(
    failingWith(
      new DatabaseConfigurationError(
        "SQL Server error 229: The SELECT permission was denied on the object 'RM00101', database 'TWO', schema 'dbo'.",
        'SELECT on TWO..RM00101',
      ),
    ),
  );
  await assert.rejects(service.handle(get), (error: unknown) => {
    assert.ok(error instanceof AgentError);
    assert.equal(error.code, 'FORBIDDEN');
    assert.match(error.message, /lacks SELECT on TWO\.\.RM00101: run the script `gp-agent mssql grant-read` prints/);
    return true;
  });
});

test('a database that does not answer stays ERP_UNAVAILABLE', async () => {
  const service = new ReadService(
    failingWith(new DatabaseUnavailableError('SQL Server error 1222: Lock request time out period exceeded.')),
  );
  await assert.rejects(service.handle(get), (error: unknown) => error instanceof AgentError && error.code === 'ERP_UNAVAILABLE');
});
