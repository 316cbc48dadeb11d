/** The demo's GP companies: INTERID is also the company database (file) name. */

export interface DemoCompany {
  /** INTERID, char(5). */
  id: string;
  /** CMPANYID. */
  number: number;
  name: string;
}

export const DEMO_COMPANIES: DemoCompany[] = [
  { id: 'TWO', number: 1, name: 'Fabrikam, Inc.' },
  { id: 'NWIND', number: 2, name: 'Northwind Traders' },
];

/** The system database's name in GP (DYNAMICS by default). */
export const SYSTEM_DATABASE_NAME = 'DYNAMICS';
