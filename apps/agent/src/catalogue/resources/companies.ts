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
  idParts: [{ column: 'INTERID' }],
};
