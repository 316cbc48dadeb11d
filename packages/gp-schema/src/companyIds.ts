/**
 * A GP company id (INTERID, char(5)) is also the name of the company's database, so scripts that put
 * one into SQL check it first: capital letters, digits and underscores only.
 */
const COMPANY_ID = /^[A-Z0-9_]{1,5}$/;

export function isGpCompanyId(id: string): boolean {
  return COMPANY_ID.test(id);
}

/** The `--companies` option of the SQL Server script commands: 'two,NWIND' -> ['TWO', 'NWIND']. */
export function parseCompaniesOption(list: string): string[] {
  const ids = list.toUpperCase().split(',');
  if (!ids.every(isGpCompanyId)) throw new Error('--companies takes GP company ids separated by commas, e.g. TWO,NWIND');
  return ids;
}
