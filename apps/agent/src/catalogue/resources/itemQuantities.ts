import { subtractQuantities } from '../codecs.ts';
import type { ResourceDef } from '../types.ts';

/** Record type 2 rows of IV00102 are per site; type 1 is the all-sites total, which the API leaves out (docs/api.md#which-rows-each-list-holds). */
const SITE_ROWS = 2;

export const itemQuantities: ResourceDef = {
  object: 'item-quantities',
  database: 'company',
  sources: [{ table: 'IV00102', where: [{ column: 'RCRDTYPE', op: 'eq', value: SITE_ROWS }] }],
  fields: {
    itemId: { column: 'ITEMNMBR', codec: 'string' },
    siteId: { column: 'LOCNCODE', codec: 'string' },
    qtyOnHand: { column: 'QTYONHND', codec: 'quantity' },
    // GP spells allocated ATYALLOC.
    qtyAllocated: { column: 'ATYALLOC', codec: 'quantity' },
    qtyOnOrder: { column: 'QTYONORD', codec: 'quantity' },
    qtyBackordered: { column: 'QTYBKORD', codec: 'quantity' },
    // As GP's own ItemQuantities view computes "QTY Available".
    qtyAvailable: {
      columns: [
        { column: 'QTYONHND', codec: 'quantity' },
        { column: 'ATYALLOC', codec: 'quantity' },
      ],
      compute: ([onHand, allocated]) => subtractQuantities(onHand as string, allocated as string),
    },
  },
  filters: {
    itemId: { kind: 'eq', column: 'ITEMNMBR' },
    siteId: { kind: 'eq', column: 'LOCNCODE' },
  },
  // itemId pins the key's first column, the rows' own condition its second.
  keys: {
    default: { name: 'itemSite', indexes: { IV00102: 'PKIV00102' } },
    byFilter: [
      { name: 'item', filters: ['itemId'], indexes: { IV00102: 'PKIV00102' } },
      { name: 'site', filters: ['siteId'], indexes: { IV00102: 'AK2IV00102' } },
    ],
  },
  idParts: [{ column: 'ITEMNMBR' }, { column: 'LOCNCODE' }],
};
