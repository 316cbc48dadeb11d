import type { ResourceDef } from '../types.ts';

/** Companies are the rows of DYNAMICS..SY01500; INTERID is also the company database's name. */
export const companies: ResourceDef = {
  object: 'companies',
  database: 'system',
  sources: [{ table: 'SY01500' }],
  fields: {
    id: { column: 'INTERID', codec: 'string' },
    name: { column: 'CMPNYNAM', codec: 'string' },
    number: { column: 'CMPANYID', codec: 'int' },
  },
  filters: { id: { kind: 'in', column: 'INTERID' } },
  keys: {
    default: { name: 'company', indexes: { SY01500: 'PKSY01500' } },
    byFilter: [{ name: 'interid', filters: ['id'], indexes: { SY01500: 'AK3SY01500' } }],
  },
  idParts: [{ column: 'INTERID' }],
};
