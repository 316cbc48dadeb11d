import type { ResourceDef } from '../types.ts';

/** RM00102. Customer tables name the postal code ZIP and the phone PHONE1 (vendor tables differ). */
export const customerAddresses: ResourceDef = {
  object: 'customer-addresses',
  database: 'company',
  sources: [{ table: 'RM00102' }],
  fields: {
    customerId: { column: 'CUSTNMBR', codec: 'string' },
    code: { column: 'ADRSCODE', codec: 'string' },
    contactPerson: { column: 'CNTCPRSN', codec: 'string' },
    line1: { column: 'ADDRESS1', codec: 'string' },
    line2: { column: 'ADDRESS2', codec: 'string' },
    line3: { column: 'ADDRESS3', codec: 'string' },
    city: { column: 'CITY', codec: 'string' },
    state: { column: 'STATE', codec: 'string' },
    postalCode: { column: 'ZIP', codec: 'string' },
    country: { column: 'COUNTRY', codec: 'string' },
    phone: { column: 'PHONE1', codec: 'string' },
    shippingMethodId: { column: 'SHIPMTHD', codec: 'string' },
    taxScheduleId: { column: 'TAXSCHID', codec: 'string' },
  },
  filters: {
    customerId: { kind: 'eq', column: 'CUSTNMBR' },
    shippingMethodId: { kind: 'eq', column: 'SHIPMTHD' },
    taxScheduleId: { kind: 'eq', column: 'TAXSCHID' },
  },
  // customerId pins the key's first column.
  keys: { default: { name: 'address', indexes: { RM00102: 'PKRM00102' } } },
  idParts: [{ column: 'CUSTNMBR' }, { column: 'ADRSCODE' }],
};
