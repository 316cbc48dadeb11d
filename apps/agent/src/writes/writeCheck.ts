import { randomUUID } from 'node:crypto';
import {
  MAX_WRITE_CHECK_COMPANIES,
  WRITABLE_OBJECT_NAMES,
  type WritableObjectName,
  type WriteCheck,
  type WriteCheckCompany,
  type WriteCheckObject,
  type WriteOperation,
} from '@gp-gateway/protocol';
import { payloadText, type OperationHandler } from '../service/readService.ts';
import { AgentError } from '../service/agentError.ts';

/**
 * The write check (docs/operations.md#the-write-check): a validate-only write of every writable
 * object through the agent's own write path (on SQL Server GP's eConnect procedures, in a
 * transaction the driver rolls back, taking no number), with references taken from the company
 * itself, so that what GP would refuse, and every grant the login lacks, shows before a client's
 * first write does. Nothing is written: validate-only rolls back, and the ids it names do not exist.
 */

/** What the check's bodies reference, read from the company; null where the company has none. */
export interface CheckReferences {
  customerId: string | null;
  vendorId: string | null;
  itemId: string | null;
  siteId: string | null;
  /** Two posting accounts, for a balanced journal entry (and the first for nothing else). */
  accounts: string[];
  /** A document type id of sales orders (one an existing order uses; GP's default STDORD otherwise). */
  salesDocTypeId: string;
}

/** The id, address code, batch and document number the check's records carry; upper-case, as GP keeps ids. */
const CHECK_ID = 'GPAGENT-CHECK';
const DEFAULT_ORDER_DOC_TYPE_ID = 'STDORD';

/** The first record of a list, as the API answers it; null when the company has none. */
async function first(reads: OperationHandler, company: string, object: string, filters: Record<string, unknown>, limit = 1) {
  const page = await reads.handle({ kind: 'list', object, company, filters, limit, after: null } as never);
  return JSON.parse(payloadText(page.payload)) as Record<string, unknown>[];
}

/** The company's own references for the check: active ones where GP would refuse an inactive one. */
async function readCheckReferences(reads: OperationHandler, company: string): Promise<CheckReferences> {
  const [customers, vendors, items, sites, accounts, orders] = await Promise.all([
    first(reads, company, 'customers', { inactive: false, hold: false }),
    first(reads, company, 'vendors', { status: 'active', hold: false }),
    first(reads, company, 'items', { inactive: false, type: 'salesInventory' }),
    first(reads, company, 'sites', {}),
    first(reads, company, 'accounts', { active: true, type: 'posting' }, 2),
    first(reads, company, 'sales-orders', { type: 'order' }),
  ]);
  const id = (rows: Record<string, unknown>[], field = 'id') => (rows[0]?.[field] == null ? null : String(rows[0][field]));
  return {
    customerId: id(customers),
    vendorId: id(vendors),
    itemId: id(items),
    siteId: id(sites),
    accounts: accounts.map((a) => String(a.id)),
    salesDocTypeId: id(orders, 'docTypeId') ?? DEFAULT_ORDER_DOC_TYPE_ID,
  };
}

/** Each object's body, or why the company cannot have one (it lacks what the body references). */
function checkBodies(refs: CheckReferences, date: string): Record<WritableObjectName, Record<string, unknown> | string> {
  const { customerId, vendorId, itemId, siteId, accounts } = refs;
  const batchId = CHECK_ID;
  return {
    customers: { id: CHECK_ID, name: 'gp-agent write check' },
    'customer-addresses': customerId
      ? { customerId, code: CHECK_ID, line1: '1 Check Way', city: 'Fargo', postalCode: '58102' }
      : 'the company has no active customer',
    vendors: { id: CHECK_ID, name: 'gp-agent write check' },
    'vendor-addresses': vendorId
      ? { vendorId, code: CHECK_ID, line1: '1 Check Way', city: 'Fargo', postalCode: '58102' }
      : 'the company has no active vendor',
    'sales-orders':
      customerId && itemId && siteId
        ? {
            docTypeId: refs.salesDocTypeId,
            customerId,
            date,
            batchId,
            siteId,
            lines: [{ itemId, quantity: '1', unitPrice: '1.00' }],
          }
        : `the company has no ${[!customerId && 'active customer', !itemId && 'sales inventory item', !siteId && 'site'].filter(Boolean).join(', no ')}`,
    'ar-invoices': customerId ? { customerId, date, salesAmount: '1.00', batchId } : 'the company has no active customer',
    'ap-invoices': vendorId
      ? { vendorId, vendorDocumentNumber: CHECK_ID, date, purchasesAmount: '1.00', batchId }
      : 'the company has no active vendor',
    'gl-entries':
      accounts.length >= 2
        ? {
            reference: 'gp-agent write check',
            date,
            batchId,
            lines: [
              { accountNumber: accounts[0], debit: '1.00' },
              { accountNumber: accounts[1], credit: '1.00' },
            ],
          }
        : 'the company has fewer than two active posting accounts',
  };
}

/** One object's result, from what the write path answered. */
function resultOf(object: WritableObjectName, error: unknown): WriteCheckObject {
  if (!(error instanceof AgentError)) return { object, status: 'failed', message: String((error as Error).message).slice(0, 500) };
  const details = error.details as { gp?: { code: number; message: string }[]; issues?: { path: string; message: string }[] } | undefined;
  if (error.code === 'FORBIDDEN') return { object, status: 'forbidden', message: error.message.slice(0, 500) };
  if (details?.gp)
    return {
      object,
      status: 'refused',
      message: error.message.slice(0, 500),
      gp: details.gp.slice(0, 10).map((g) => ({ code: g.code, message: g.message.slice(0, 300) })),
    };
  if (details?.issues)
    return {
      object,
      status: 'refused',
      message: details.issues
        .map((i) => `${i.path}: ${i.message}`)
        .join('; ')
        .slice(0, 500),
    };
  if (error.code === 'VALIDATION_ERROR' || error.code === 'ALREADY_EXISTS')
    return { object, status: 'refused', message: error.message.slice(0, 500) };
  return { object, status: 'failed', message: error.message.slice(0, 500) };
}

/** What the check writes through: the agent's write service (writeService.ts), which checks each body as a client's. */
interface Writes {
  write(op: WriteOperation): Promise<unknown>;
}

/** Runs the check in one company: every object, one after another, each validate-only. */
export async function runWriteCheck(
  writes: Writes,
  company: string,
  refs: CheckReferences,
  date = new Date().toISOString().slice(0, 10),
): Promise<WriteCheckCompany> {
  const bodies = checkBodies(refs, date);
  const objects: WriteCheckObject[] = [];
  for (const object of WRITABLE_OBJECT_NAMES) {
    const body = bodies[object];
    if (typeof body === 'string') {
      objects.push({ object, status: 'skipped', message: body });
      continue;
    }
    try {
      const operationId = `write-check-${randomUUID()}`;
      await writes.write({ kind: 'write', object, company, operationId, body, validateOnly: true });
      objects.push({ object, status: 'works' });
    } catch (error) {
      objects.push(resultOf(object, error));
    }
  }
  return { company, objects };
}

/**
 * The check in each of `companies` (at most MAX_WRITE_CHECK_COMPANIES, the first ones), references
 * read from each; a company whose references cannot be read has every object `failed`, saying why.
 */
export async function runWriteChecks(writes: Writes, reads: OperationHandler, companies: readonly string[]): Promise<WriteCheck> {
  const checkedAt = new Date().toISOString();
  const results: WriteCheckCompany[] = [];
  for (const company of companies.slice(0, MAX_WRITE_CHECK_COMPANIES)) {
    try {
      results.push(await runWriteCheck(writes, company, await readCheckReferences(reads, company)));
    } catch (error) {
      const message = `the company's references could not be read: ${(error as Error).message}`.slice(0, 500);
      results.push({ company, objects: WRITABLE_OBJECT_NAMES.map((object) => ({ object, status: 'failed', message })) });
    }
  }
  return { checkedAt, companies: results };
}
