/** DYNAMICS.sqlite: the GP system database, holding the company list (SY01500) and the account framework (SY003001, SY00302). */
import { GP_TABLES, gpTablesOf, type AccountFramework } from '@gp-gateway/gp-schema';
import { finishBuild, inTransaction, openForBuild } from './buildDatabase.ts';
import type { DemoCompany } from './companies.ts';
import { createTableWriter } from './tableWriter.ts';

const COMPANY_ADDRESSES: Record<string, Record<string, string>> = {
  TWO: {
    ADDRESS1: '4277 West Oak Parkway',
    CITY: 'Chicago',
    STATE: 'IL',
    ZIPCODE: '60601-4277',
    CMPCNTRY: 'USA',
    PHONE1: '31255501010000',
    FAXNUMBR: '31255501020000',
    TAXREGTN: '36-1234567',
  },
  NWIND: {
    ADDRESS1: '908 W. Capital Way',
    ADDRESS2: 'Suite 300',
    CITY: 'Tacoma',
    STATE: 'WA',
    ZIPCODE: '98401',
    CMPCNTRY: 'USA',
    PHONE1: '20655501010000',
  },
};

/** What the demo calls its segments in SY00302 (GP's Fabrikam: Department, Account, Division). */
const SEGMENT_NAMES = ['Department', 'Account', 'Division'];

export function buildSystemDatabase(path: string, companies: readonly DemoCompany[], framework: AccountFramework): Record<string, number> {
  const tables = gpTablesOf('system');
  const db = openForBuild(path, tables);
  try {
    const writer = createTableWriter(db, GP_TABLES.SY01500);
    const frameworkSize = createTableWriter(db, GP_TABLES.SY003001);
    const segments = createTableWriter(db, GP_TABLES.SY00302);
    inTransaction(db, () => {
      const { segmentLengths } = framework;
      frameworkSize.insert({ MXLACNUM: segmentLengths.reduce((sum, length) => sum + length, 0), MXNUMSEG: segmentLengths.length });
      segmentLengths.forEach((length, i) =>
        segments.insert({ SGMTNUMB: i + 1, SGMTNAME: SEGMENT_NAMES[i] ?? `Segment ${i + 1}`, SGMNTLTH: length }),
      );
      for (const company of companies) {
        writer.insert({
          CMPANYID: company.number,
          CMPNYNAM: company.name,
          INTERID: company.id,
          ...COMPANY_ADDRESSES[company.id],
          ACSEGSEP: '-',
        });
      }
    });
    finishBuild(db, tables);
    return { SY01500: writer.rowCount, SY003001: frameworkSize.rowCount, SY00302: segments.rowCount };
  } finally {
    if (db.open) db.close();
  }
}
