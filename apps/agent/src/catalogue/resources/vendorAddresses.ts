import type { ResourceDef } from '../types.ts';

/** PM00300. Vendor tables name the postal code ZIPCODE and the phone PHNUMBR1 (customer tables differ). */
export const vendorAddresses: ResourceDef = {
  object: 'vendor-addresses',
  database: 'company',
  sources: [{ table: 'PM00300' }],
  fields: {
    vendorId: { column: 'VENDORID', codec: 'string' },
    code: { column: 'ADRSCODE', codec: 'string' },
    contactPerson: { column: 'VNDCNTCT', codec: 'string' },
    line1: { column: 'ADDRESS1', codec: 'string' },
    line2: { column: 'ADDRESS2', codec: 'string' },
    line3: { column: 'ADDRESS3', codec: 'string' },
    city: { column: 'CITY', codec: 'string' },
    state: { column: 'STATE', codec: 'string' },
    postalCode: { column: 'ZIPCODE', codec: 'string' },
    country: { column: 'COUNTRY', codec: 'string' },
    phone: { column: 'PHNUMBR1', codec: 'string' },
  },
  filters: { vendorId: { kind: 'eq', column: 'VENDORID' } },
  // vendorId pins the key's first column.
  keys: { default: { name: 'address', indexes: { PM00300: 'PKPM00300' } } },
  idParts: [{ column: 'VENDORID' }, { column: 'ADRSCODE' }],
};
