import { inSpan, SpanKind } from '@gp-gateway/telemetry';
import type { CompiledQuery } from '../sql/model.ts';
import type { Executor } from './executor.ts';

const SYSTEMS = { mssql: 'microsoft.sql_server', sqlite: 'sqlite' } as const;

/**
 * The executor with a span per statement (docs/operations.md#traces): the last link of a trace from
 * the API request, named by the database, with the statement's text (parameters are bound, so the
 * text holds no values). No-op spans while tracing is off; none on worker threads, which register
 * no tracer.
 */
export function tracedExecutor(executor: Executor): Executor {
  const attributes = (company: string | null, query: CompiledQuery) => ({
    'db.system.name': SYSTEMS[executor.dialect.name],
    'db.namespace': company ?? executor.systemDatabase,
    'db.query.text': query.sql,
  });
  const traced: Executor = Object.create(executor) as Executor;
  traced.query = (company, query, signal) =>
    inSpan('sql SELECT', SpanKind.CLIENT, attributes(company, query), () => executor.query(company, query, signal));
  traced.forEachRow = (company, query, onRow, signal) =>
    inSpan('sql SELECT', SpanKind.CLIENT, attributes(company, query), () => executor.forEachRow(company, query, onRow, signal));
  return traced;
}
