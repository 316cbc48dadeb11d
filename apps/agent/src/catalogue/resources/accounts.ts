import { ACCOUNT_TYPES, POSTING_TYPES } from '@gp-gateway/protocol';
import type { ResourceDef } from '../types.ts';

/** GL00100, with the formatted account number (the id) from GL00105 on ACTINDX. */
export const accounts: ResourceDef = {
  object: 'accounts',
  database: 'company',
  sources: [{ table: 'GL00100' }],
  joins: [{ alias: 'a', table: 'GL00105', foreignColumn: 'ACTINDX', localColumn: 'ACTINDX' }],
  fields: {
    id: { join: 'a', column: 'ACTNUMST', codec: 'string' },
    index: { column: 'ACTINDX', codec: 'int' },
    description: { column: 'ACTDESCR', codec: 'string' },
    type: { column: 'ACCTTYPE', codec: { enum: ACCOUNT_TYPES } },
    postingType: { column: 'PSTNGTYP', codec: { enum: POSTING_TYPES } },
    active: { column: 'ACTIVE', codec: 'flag' },
    categoryId: { column: 'ACCATNUM', codec: 'int' },
    createdAt: { column: 'CREATDDT', codec: 'date' },
    modifiedAt: { column: 'DEX_ROW_TS', codec: 'timestamp' },
  },
  filters: {
    q: { kind: 'contains', column: 'ACTDESCR' },
    // Resolved to ACTINDX, so that the key's index serves it.
    id: { kind: 'inLookup', column: 'ACTINDX', lookup: { table: 'GL00105', column: 'ACTNUMST', key: 'ACTINDX' } },
    active: { kind: 'flag', column: 'ACTIVE' },
    type: { kind: 'eq', column: 'ACCTTYPE', enum: ACCOUNT_TYPES },
    postingType: { kind: 'eq', column: 'PSTNGTYP', enum: POSTING_TYPES },
    categoryId: { kind: 'eq', column: 'ACCATNUM' },
    updatedSince: { kind: 'atOrAfter', column: 'DEX_ROW_TS' },
  },
  keys: {
    default: { name: 'account', indexes: { GL00100: 'PKGL00100' } },
    byFilter: [
      { name: 'type', filters: ['type'], indexes: { GL00100: 'AK4GL00100' } },
      { name: 'category', filters: ['categoryId'], indexes: { GL00100: 'AK5GL00100' } },
    ],
  },
  idParts: [{ join: 'a', column: 'ACTNUMST' }],
};
