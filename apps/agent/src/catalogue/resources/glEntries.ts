import type { ResourceDef } from '../types.ts';
import { dateRange } from './dateRange.ts';

const OPEN = 0;
const HISTORY = 1;

/**
 * Posted GL lines: open years in GL20000, history years in GL30000 (docs/api.md#which-rows-each-list-holds). Year-end closing
 * writes balance-brought-forward and P/L rows; they are not transactions and are left out. GP posts
 * them into period 0 of the new (open) year, so the open table is filtered as well as history.
 */
const NOT_CLOSING_ROWS = [{ column: 'SOURCDOC', op: 'notIn', values: ['BBF', 'P/L'] }] as const;
/**
 * The base ledger only (GP 2013 and later; docs/decisions.md#gl-entries): a reporting ledger's rows
 * (IFRS, tax) adjust the base ledger's, and summed with them would count every amount twice.
 */
const BASE_LEDGER = [{ column: 'Ledger_ID', op: 'eq', value: 1 }] as const;
export const glEntries: ResourceDef = {
  object: 'gl-entries',
  database: 'company',
  sources: [
    { table: 'GL20000', where: [...NOT_CLOSING_ROWS, ...BASE_LEDGER] },
    { table: 'GL30000', where: [...NOT_CLOSING_ROWS, ...BASE_LEDGER] },
  ],
  joins: [{ alias: 'a', table: 'GL00105', foreignColumn: 'ACTINDX', localColumn: 'ACTINDX' }],
  fields: {
    journalEntryNumber: { column: 'JRNENTRY', codec: 'int' },
    series: { column: 'SERIES', codec: 'int' },
    sourceDocument: { column: 'SOURCDOC', codec: 'string' },
    reference: { column: 'REFRENCE', codec: 'string' },
    lineDescription: { column: 'DSCRIPTN', codec: 'string' },
    date: { column: 'TRXDATE', codec: 'date' },
    accountNumber: { join: 'a', column: 'ACTNUMST', codec: 'string' },
    debit: { column: 'DEBITAMT', codec: 'money' },
    credit: { column: 'CRDTAMNT', codec: 'money' },
    originatingSource: { column: 'ORGNTSRC', codec: 'string' },
    originatingMasterId: { column: 'ORMSTRID', codec: 'string' },
    originatingDocument: { column: 'ORDOCNUM', codec: 'string' },
  },
  filters: {
    year: { kind: 'sources', sources: { open: [OPEN], history: [HISTORY] } },
    accountNumber: { kind: 'eqLookup', column: 'ACTINDX', lookup: { table: 'GL00105', column: 'ACTNUMST', key: 'ACTINDX' } },
    journalEntryNumber: { kind: 'eq', column: 'JRNENTRY' },
    series: { kind: 'eq', column: 'SERIES' },
    originatingMasterId: { kind: 'eq', column: 'ORMSTRID' },
    ...dateRange('TRXDATE'),
  },
  keys: {
    default: { name: 'line', indexes: { GL20000: 'PKGL20000', GL30000: 'PKGL30000' } },
    byFilter: [
      { name: 'account', filters: ['accountNumber'], indexes: { GL20000: 'AK2GL20000', GL30000: 'AK3GL30000' } },
      { name: 'journalEntry', filters: ['journalEntryNumber'], indexes: { GL20000: 'AK8GL20000', GL30000: 'AK4GL30000' } },
    ],
  },
};
