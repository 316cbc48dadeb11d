import type { Command } from 'commander';
import { objectSpec, OBJECT_NAMES, parseListQuery, type ObjectName, type ReadOperation, type Position } from '@gp-gateway/protocol';
import { payloadText, ReadService } from '../../service/readService.ts';
import { AgentError } from '../../service/agentError.ts';
import { openExecutor } from '../common.ts';
import { loadAgentConfig } from '../runConfig.ts';

interface QueryOptions {
  company?: string;
  id?: string;
  document?: string;
  after?: string;
}

interface QueryResult {
  /** One JSON object per line, as the API would return them in `data`. */
  rows: string[];
  /** What was run and where to continue, for standard error. */
  summary: string;
}

/**
 * Runs one catalogue operation on this server's database, exactly as a gateway request would reach
 * the agent (same validation, same SQL), and returns the rows. Filters use the REST names, e.g.
 * `q=elec inactive=false limit=5`; `--after` continues a list where the summary said.
 */
async function runQuery(
  object: string,
  filterArgs: string[],
  options: QueryOptions,
  flags: Record<string, string | undefined>,
  env: NodeJS.ProcessEnv,
): Promise<QueryResult> {
  const spec = objectSpec(object);
  if (!spec) throw new Error(`there is no object "${object}"; the objects are ${OBJECT_NAMES.join(', ')}`);
  const company = spec.companyScoped ? (options.company?.toUpperCase() ?? null) : null;
  if (spec.companyScoped && !company)
    throw new Error(`${object} is read from a company database: pass --company <id> (see gp-agent companies)`);
  if (!spec.companyScoped && options.company) throw new Error(`${object} is not read from a company; leave --company out`);

  let op: ReadOperation;
  if (options.id !== undefined) {
    if (!spec.idForm) throw new Error(`${object} has no get by id; list it with filters instead`);
    if (filterArgs.length) throw new Error('give either --id or filters, not both');
    op = { kind: 'get', object: spec.name as ObjectName, company, id: options.id };
  } else {
    const query: Record<string, string | string[]> = {};
    for (const arg of filterArgs) {
      const m = /^([^=]+)=(.*)$/.exec(arg);
      if (!m) throw new Error(`"${arg}" is not a filter: write name=value, e.g. q=elec or limit=5`);
      const [, name, value] = m as unknown as [string, string, string];
      const existing = query[name];
      query[name] = existing === undefined ? value : ([] as string[]).concat(existing, value);
    }
    if ('cursor' in query) throw new Error('cursors belong to the gateway; continue with --after as the summary says');
    const parsed = parseListQuery(spec, query);
    if (!parsed.ok) throw new Error(`invalid filters: ${parsed.issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`);
    const filters: Record<string, unknown> = { ...parsed.value.filters };
    if (spec.parent) {
      if (!options.document) throw new Error(`${object} are the lines of one ${spec.parent} document: pass --document <id>`);
      filters.documentId = options.document;
    }
    op = {
      kind: 'list',
      object: spec.name as ObjectName,
      company,
      filters,
      limit: parsed.value.limit,
      after: options.after ? positionOf(options.after) : null,
    };
  }

  const config = loadAgentConfig(flags, env, 'database');
  const executor = openExecutor(config.database);
  const started = performance.now();
  try {
    const result = await new ReadService(executor).handle(op);
    const ms = Math.round(performance.now() - started);
    const data = JSON.parse(payloadText(result.payload)) as unknown;
    const rows = (Array.isArray(data) ? data : [data]).map((row) => JSON.stringify(row));
    const where = company ? ` in ${company}` : '';
    const more = result.next ? `; more rows follow: add --after ${result.next.join(',')}` : '';
    return { rows, summary: `${rows.length} ${rows.length === 1 ? 'row' : 'rows'} of ${object}${where} in ${ms} ms${more}` };
  } catch (error) {
    if (error instanceof AgentError) throw new Error(`${error.code}: ${error.detail ?? error.message}`);
    throw error;
  } finally {
    await executor.close();
  }
}

function positionOf(text: string): Position {
  const parts = text.split(',').map((p) => p.trim());
  if (parts.length !== 2 || !parts.every((p) => /^\d+$/.test(p)))
    throw new Error('--after takes the two numbers the previous summary printed, e.g. --after 0,500');
  return parts.map(Number);
}

export function registerQueryCommand(program: Command): void {
  program
    .command('query')
    .argument('<object>', `an object of the API: ${OBJECT_NAMES.join(', ')}`)
    .argument('[filters...]', 'filters as the REST API names them, name=value, e.g. q=elec inactive=false limit=5')
    .description("Run one API read on this server's database, as the gateway would, and print the rows (one JSON object per line).")
    .option('--company <id>', 'company database (INTERID) for company objects, e.g. TWO')
    .option('--id <id>', 'get one object by id instead of listing')
    .option('--document <id>', 'for lines objects: the document whose lines to list')
    .option('--after <position>', 'continue a list after this position (printed at the end of the previous page)')
    .option('--config <file>', 'configuration file (env GP_AGENT_CONFIG)')
    .option('--mssql <connection>', 'SQL Server connection string (env GP_MSSQL_CONNECTION)')
    .option('--sqlite-dir <dir>', 'folder of GP-shaped SQLite databases (env GP_SQLITE_DIR)')
    .addHelpText(
      'after',
      '\nRows go to standard output, the summary (count, time, how to continue) to standard error.\n' +
        '\nExamples:\n' +
        '  gp-agent query companies --config /etc/gp-agent/gp-agent.conf\n' +
        '  gp-agent query customers q=elec limit=5 --company TWO --config gp-agent.conf\n' +
        '  gp-agent query customers --id AARONFIT0001 --company TWO --sqlite-dir ./data/demo\n' +
        '  gp-agent query gl-entries year=history dateFrom=2025-03-01 dateTo=2025-03-31 --company TWO --config gp-agent.conf\n' +
        '  gp-agent query sales-order-lines --document ORDER:ORDST2235 --company TWO --config gp-agent.conf\n',
    )
    .action(async (object: string, filters: string[], options: QueryOptions & Record<string, string | undefined>) => {
      const result = await runQuery(object, filters, options, options, process.env);
      for (const row of result.rows) process.stdout.write(`${row}\n`);
      process.stderr.write(`${result.summary}\n`);
    });
}
