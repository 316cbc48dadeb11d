import { TEN99_TYPES, VENDOR_STATUSES } from '@gp-gateway/protocol';
import type { ResourceDef } from '../types.ts';

/** PM00200. GP has no INACTIVE column for vendors: VENDSTTS carries active/inactive/temporary. */
export const vendors: ResourceDef = {
  object: 'vendors',
  database: 'company',
  sources: [{ table: 'PM00200' }],
  fields: {
    id: { column: 'VENDORID', codec: 'string' },
    name: { column: 'VENDNAME', codec: 'string' },
    checkName: { column: 'VNDCHKNM', codec: 'string' },
    shortName: { column: 'VENDSHNM', codec: 'string' },
    classId: { column: 'VNDCLSID', codec: 'string' },
    primaryAddressCode: { column: 'VADDCDPR', codec: 'string' },
    paymentTermsId: { column: 'PYMTRMID', codec: 'string' },
    currencyId: { column: 'CURNCYID', codec: 'string' },
    taxId: { column: 'TXIDNMBR', codec: 'string' },
    ten99Type: { column: 'TEN99TYPE', codec: { enum: TEN99_TYPES } },
    phone: { column: 'PHNUMBR1', codec: 'string' },
    status: { column: 'VENDSTTS', codec: { enum: VENDOR_STATUSES } },
    createdAt: { column: 'CREATDDT', codec: 'date' },
    modifiedAt: { column: 'DEX_ROW_TS', codec: 'timestamp' },
    hold: { column: 'HOLD', codec: 'flag' },
  },
  filters: {
    q: { kind: 'contains', column: 'VENDNAME' },
    id: { kind: 'in', column: 'VENDORID' },
    classId: { kind: 'eq', column: 'VNDCLSID' },
    status: { kind: 'eq', column: 'VENDSTTS', enum: VENDOR_STATUSES },
    ten99Type: { kind: 'eq', column: 'TEN99TYPE', enum: TEN99_TYPES },
    hold: { kind: 'flag', column: 'HOLD' },
    paymentTermsId: { kind: 'eq', column: 'PYMTRMID' },
    currencyId: { kind: 'eq', column: 'CURNCYID' },
    updatedSince: { kind: 'atOrAfter', column: 'DEX_ROW_TS' },
  },
  keys: {
    default: { name: 'vendor', indexes: { PM00200: 'PKPM00200' } },
    byFilter: [{ name: 'class', filters: ['classId'], indexes: { PM00200: 'AK3PM00200' } }],
  },
  idParts: [{ column: 'VENDORID' }],
};
