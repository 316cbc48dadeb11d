import { ITEM_TRACKING, ITEM_TYPES } from '@gp-gateway/protocol';
import type { ResourceDef } from '../types.ts';

/** IV00101. Its DEX_ROW_TS is also bumped by changes to the item's quantities (IV00102). */
export const items: ResourceDef = {
  object: 'items',
  database: 'company',
  sources: [{ table: 'IV00101' }],
  fields: {
    id: { column: 'ITEMNMBR', codec: 'string' },
    description: { column: 'ITEMDESC', codec: 'string' },
    shortName: { column: 'ITMSHNAM', codec: 'string' },
    classId: { column: 'ITMCLSCD', codec: 'string' },
    type: { column: 'ITEMTYPE', codec: { enum: ITEM_TYPES } },
    tracking: { column: 'ITMTRKOP', codec: { enum: ITEM_TRACKING } },
    uomScheduleId: { column: 'UOMSCHDL', codec: 'string' },
    standardCost: { column: 'STNDCOST', codec: 'money' },
    currentCost: { column: 'CURRCOST', codec: 'money' },
    genericDescription: { column: 'ITMGEDSC', codec: 'string' },
    modifiedAt: { column: 'DEX_ROW_TS', codec: 'timestamp' },
    inactive: { column: 'INACTIVE', codec: 'flag' },
  },
  filters: {
    q: { kind: 'contains', column: 'ITEMDESC' },
    id: { kind: 'in', column: 'ITEMNMBR' },
    classId: { kind: 'eq', column: 'ITMCLSCD' },
    type: { kind: 'eq', column: 'ITEMTYPE', enum: ITEM_TYPES },
    tracking: { kind: 'eq', column: 'ITMTRKOP', enum: ITEM_TRACKING },
    uomScheduleId: { kind: 'eq', column: 'UOMSCHDL' },
    inactive: { kind: 'flag', column: 'INACTIVE' },
    updatedSince: { kind: 'atOrAfter', column: 'DEX_ROW_TS' },
  },
  keys: {
    default: { name: 'item', indexes: { IV00101: 'PKIV00101' } },
    byFilter: [
      { name: 'class', filters: ['classId'], indexes: { IV00101: 'AK3IV00101' } },
      { name: 'uomSchedule', filters: ['uomScheduleId'], indexes: { IV00101: 'AK6IV00101' } },
    ],
  },
  idParts: [{ column: 'ITEMNMBR' }],
};
