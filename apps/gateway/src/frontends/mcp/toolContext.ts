import { z } from 'zod';
import type { ObjectSpec } from '@gp-gateway/protocol';
import type { Logger } from 'pino';
import { ApiError } from '../../errors/apiError.ts';
import type { EventFeed } from '../../core/events/eventFeed.ts';
import type { ReadTarget, RecordReader } from '../../core/reads/recordReader.ts';
import type { RecordWriter } from '../../core/writes/recordWriter.ts';

/** What a tool call may use: one per HTTP request, so the key and headers are the request's. */
export interface ToolContext {
  reader: RecordReader;
  writer: RecordWriter;
  events: EventFeed;
  target: ReadTarget;
  /** An OAuth token's connection, the only one its calls may reach (list_events included); null for an API key. */
  boundConnectionId: string | null;
  requestId: string;
  /** Keeps the id of a record a tool created for the request's usage row, as a REST write's is (rest/accessLog.ts). */
  noteCreated(recordId: string | null): void;
  /** Largest text of a result, in bytes (budget.ts). */
  budgetBytes: number;
  log: Logger;
}

/** The `company` argument of every tool that reads or writes a company database. */
export const CompanyArgument = z.string('must be a string').min(1, 'must not be empty').describe('e.g. TWO; default: the connection’s');

/**
 * The target of one call. The `company` argument stands in for X-Company. A client's X-Company header
 * is not applied to objects outside the company databases (`companies`), where REST refuses it:
 * an MCP client sends the same headers with every call and must still be able to list companies.
 */
export function targetFor(context: ToolContext, spec: ObjectSpec, company: string | undefined): ReadTarget {
  const headerCompany = spec.companyScoped ? context.target.headers.company : undefined;
  return { ...context.target, headers: { ...context.target.headers, company: company ?? headerCompany } };
}

/** A company problem names the `company` argument when that is where the company came from. */
export async function namingCompanyArgument<T>(company: string | undefined, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    const issues = error instanceof ApiError ? (error.details?.issues as { path: string; message: string }[] | undefined) : undefined;
    if (company === undefined || !issues?.some((i) => i.path === 'X-Company')) throw error;
    throw ApiError.validation(issues.map((i) => (i.path === 'X-Company' ? { ...i, path: 'company' } : i)));
  }
}

/**
 * Records as MCP returns them: with an `id` where the REST object has none (its composite id, e.g.
 * `AARONACA0001:PRIMARY`), first, so that a model never builds an id by hand. Null when the object's
 * records are returned as REST returns them.
 */
export function recordIds(spec: ObjectSpec): ((record: Record<string, unknown>) => Record<string, unknown>) | null {
  if (spec.idForm?.kind !== 'composite') return null;
  const [first, second] = spec.idForm.parts;
  return (record) => ({ id: `${String(record[first])}:${String(record[second])}`, ...record });
}
