import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CATALOGUE } from './index.ts';
import { PreparedResource } from './compile.ts';
import { renderSelect } from '../sql/render.ts';
import { sqliteDialect } from '../sql/sqliteDialect.ts';
import { mssqlDialect } from '../sql/mssqlDialect.ts';
import type { Dialect } from '../sql/dialect.ts';

/** Golden `{ sql, params }` per dialect: the exact statements the agent runs, values always bound. */
function listSql(
  dialect: Dialect,
  object: keyof typeof CATALOGUE,
  filters: Record<string, unknown>,
  limit: number,
  after: [number, number] | null,
  company: string | null = 'TWO',
) {
  const resource = new PreparedResource(CATALOGUE[object], dialect);
  return resource
    .listQueries(company, filters as never, limit, after)
    .map(({ source, query }) => ({ source, ...renderSelect(query, dialect) }));
}

const CUSTOMER_COLUMNS_SQLITE =
  'rtrim("t"."CUSTNMBR"), rtrim("t"."CUSTNAME"), rtrim("t"."STMTNAME"), rtrim("t"."SHRTNAME"), rtrim("t"."CUSTCLAS"), rtrim("t"."CNTCPRSN"), rtrim("t"."ADRSCODE"), ' +
  'rtrim("t"."PYMTRMID"), rtrim("t"."SLPRSNID"), rtrim("t"."SALSTERR"), rtrim("t"."CURNCYID"), "t"."CRLMTTYP", CAST("t"."CRLMTAMT" AS TEXT), rtrim("t"."PHONE1"), ' +
  'rtrim("t"."TAXSCHID"), "t"."INACTIVE", "t"."HOLD", "t"."CREATDDT", "t"."DEX_ROW_TS", "t"."DEX_ROW_ID"';
const CUSTOMER_COLUMNS_MSSQL =
  'RTRIM([t].[CUSTNMBR]), RTRIM([t].[CUSTNAME]), RTRIM([t].[STMTNAME]), RTRIM([t].[SHRTNAME]), RTRIM([t].[CUSTCLAS]), RTRIM([t].[CNTCPRSN]), RTRIM([t].[ADRSCODE]), ' +
  'RTRIM([t].[PYMTRMID]), RTRIM([t].[SLPRSNID]), RTRIM([t].[SALSTERR]), RTRIM([t].[CURNCYID]), [t].[CRLMTTYP], CONVERT(varchar(41), [t].[CRLMTAMT]), RTRIM([t].[PHONE1]), ' +
  'RTRIM([t].[TAXSCHID]), [t].[INACTIVE], [t].[HOLD], CONVERT(varchar(23), [t].[CREATDDT], 121), CONVERT(varchar(23), [t].[DEX_ROW_TS], 121), [t].[DEX_ROW_ID]';

test('customers, first page, no filters', () => {
  assert.deepEqual(listSql(sqliteDialect, 'customers', {}, 101, null), [
    {
      source: 0,
      sql: `SELECT ${CUSTOMER_COLUMNS_SQLITE} FROM "RM00101" AS "t" ORDER BY "t"."DEX_ROW_ID" LIMIT +?`,
      params: [{ value: 101, type: { kind: 'int' } }],
    },
  ]);
  assert.deepEqual(listSql(mssqlDialect, 'customers', {}, 101, null), [
    {
      source: 0,
      sql: `SELECT TOP (@p0) ${CUSTOMER_COLUMNS_MSSQL} FROM [TWO].[dbo].[RM00101] AS [t] ORDER BY [t].[DEX_ROW_ID]`,
      params: [{ value: 101, type: { kind: 'int' } }],
    },
  ]);
});

test('customers with every kind of filter, after a position', () => {
  const filters = {
    q: "50%_o'brien",
    classId: 'USA-ILMO-T1',
    inactive: false,
    id: ['AARONFIT0001', 'ADAMPARK0001'],
    updatedSince: '2026-03-01T14:05:09.123Z',
  };
  const where = (d: 's' | 'm') => {
    const p = (i: number) => (d === 's' ? '?' : `@p${i}`);
    const c = (name: string) => (d === 's' ? `"t"."${name}"` : `[t].[${name}]`);
    return (
      `${c('CUSTNAME')} LIKE ${p(0)} ESCAPE '\\' AND ${c('CUSTCLAS')} = ${p(1)} AND ${c('INACTIVE')} = ${p(2)} AND ` +
      `${c('CUSTNMBR')} IN (${p(3)}, ${p(4)}) AND ${c('DEX_ROW_TS')} >= ${p(5)} AND ${c('DEX_ROW_ID')} > ${p(6)}`
    );
  };
  assert.deepEqual(listSql(sqliteDialect, 'customers', filters, 11, [0, 250]), [
    {
      source: 0,
      sql: `SELECT ${CUSTOMER_COLUMNS_SQLITE} FROM "RM00101" AS "t" WHERE ${where('s')} ORDER BY "t"."DEX_ROW_ID" LIMIT +?`,
      params: [
        { value: "%50\\%\\_o'brien%", type: { kind: 'varchar', length: 255 } },
        { value: 'USA-ILMO-T1    ', type: { kind: 'char', length: 15 } },
        { value: 0, type: { kind: 'int' } },
        { value: 'AARONFIT0001   ', type: { kind: 'char', length: 15 } },
        { value: 'ADAMPARK0001   ', type: { kind: 'char', length: 15 } },
        { value: '2026-03-01 14:05:09.123', type: { kind: 'datetime' } },
        { value: 250, type: { kind: 'int' } },
        { value: 11, type: { kind: 'int' } },
      ],
    },
  ]);
  assert.deepEqual(listSql(mssqlDialect, 'customers', filters, 11, [0, 250]), [
    {
      source: 0,
      sql: `SELECT TOP (@p7) ${CUSTOMER_COLUMNS_MSSQL} FROM [TWO].[dbo].[RM00101] AS [t] WHERE ${where('m')} ORDER BY [t].[DEX_ROW_ID]`,
      params: [
        { value: "%50\\%\\_o'brien%", type: { kind: 'varchar', length: 255 } },
        { value: 'USA-ILMO-T1', type: { kind: 'char', length: 15 } },
        { value: 0, type: { kind: 'int' } },
        { value: 'AARONFIT0001', type: { kind: 'char', length: 15 } },
        { value: 'ADAMPARK0001', type: { kind: 'char', length: 15 } },
        { value: '2026-03-01 14:05:09.123', type: { kind: 'datetime' } },
        { value: 250, type: { kind: 'int' } },
        { value: 11, type: { kind: 'int' } },
      ],
    },
  ]);
});

test('gl-entries read open then history without BBF and P/L rows, account via GL00105', () => {
  const cols = (d: Dialect) => {
    const c = (a: string, n: string) => (d.name === 'sqlite' ? `"${a}"."${n}"` : `[${a}].[${n}]`);
    const money = (n: string) => (d.name === 'sqlite' ? `CAST(${c('t', n)} AS TEXT)` : `CONVERT(varchar(41), ${c('t', n)})`);
    const date = (n: string) => (d.name === 'sqlite' ? c('t', n) : `CONVERT(varchar(23), ${c('t', n)}, 121)`);
    const text = (a: string, n: string) => (d.name === 'sqlite' ? `rtrim(${c(a, n)})` : `RTRIM(${c(a, n)})`);
    return [
      c('t', 'JRNENTRY'),
      c('t', 'SERIES'),
      text('t', 'SOURCDOC'),
      text('t', 'REFRENCE'),
      text('t', 'DSCRIPTN'),
      date('TRXDATE'),
      text('a', 'ACTNUMST'),
      money('DEBITAMT'),
      money('CRDTAMNT'),
      text('t', 'ORGNTSRC'),
      text('t', 'ORMSTRID'),
      text('t', 'ORDOCNUM'),
      c('t', 'DEX_ROW_ID'),
    ].join(', ');
  };
  const filters = { accountNumber: '000-1100-00', dateTo: '2025-12-31' };
  assert.deepEqual(listSql(sqliteDialect, 'gl-entries', filters, 1001, [0, 77]), [
    {
      source: 0,
      sql:
        `SELECT ${cols(sqliteDialect)} FROM "GL20000" AS "t" LEFT JOIN "GL00105" AS "a" ON "a"."ACTINDX" = "t"."ACTINDX" ` +
        `WHERE "t"."SOURCDOC" NOT IN (?, ?) AND "a"."ACTNUMST" = ? AND "t"."TRXDATE" < ? AND "t"."TRXDATE" > ? AND "t"."DEX_ROW_ID" > ? ORDER BY "t"."DEX_ROW_ID" LIMIT +?`,
      params: [
        { value: 'BBF'.padEnd(11), type: { kind: 'char', length: 11 } },
        { value: 'P/L'.padEnd(11), type: { kind: 'char', length: 11 } },
        { value: '000-1100-00'.padEnd(129), type: { kind: 'char', length: 129 } },
        { value: '2026-01-01 00:00:00.000', type: { kind: 'datetime' } },
        { value: '1900-01-01 00:00:00.000', type: { kind: 'datetime' } },
        { value: 77, type: { kind: 'int' } },
        { value: 1001, type: { kind: 'int' } },
      ],
    },
    {
      source: 1,
      sql:
        `SELECT ${cols(sqliteDialect)} FROM "GL30000" AS "t" LEFT JOIN "GL00105" AS "a" ON "a"."ACTINDX" = "t"."ACTINDX" ` +
        `WHERE "t"."SOURCDOC" NOT IN (?, ?) AND "a"."ACTNUMST" = ? AND "t"."TRXDATE" < ? AND "t"."TRXDATE" > ? ORDER BY "t"."DEX_ROW_ID" LIMIT +?`,
      params: [
        { value: 'BBF'.padEnd(11), type: { kind: 'char', length: 11 } },
        { value: 'P/L'.padEnd(11), type: { kind: 'char', length: 11 } },
        { value: '000-1100-00'.padEnd(129), type: { kind: 'char', length: 129 } },
        { value: '2026-01-01 00:00:00.000', type: { kind: 'datetime' } },
        { value: '1900-01-01 00:00:00.000', type: { kind: 'datetime' } },
        { value: 1001, type: { kind: 'int' } },
      ],
    },
  ]);
  assert.deepEqual(listSql(mssqlDialect, 'gl-entries', { year: 'history' }, 5, null), [
    {
      source: 1,
      sql:
        `SELECT TOP (@p2) ${cols(mssqlDialect)} FROM [TWO].[dbo].[GL30000] AS [t] LEFT JOIN [TWO].[dbo].[GL00105] AS [a] ON [a].[ACTINDX] = [t].[ACTINDX] ` +
        `WHERE [t].[SOURCDOC] NOT IN (@p0, @p1) ORDER BY [t].[DEX_ROW_ID]`,
      params: [
        { value: 'BBF', type: { kind: 'char', length: 11 } },
        { value: 'P/L', type: { kind: 'char', length: 11 } },
        { value: 5, type: { kind: 'int' } },
      ],
    },
  ]);
});

test('a walk positioned in history skips the open table', () => {
  assert.deepEqual(
    listSql(sqliteDialect, 'gl-entries', {}, 10, [1, 5]).map((q) => q.source),
    [1],
  );
  assert.deepEqual(
    listSql(sqliteDialect, 'gl-entries', { year: 'open' }, 10, null).map((q) => q.source),
    [0],
  );
});

test('companies come from the DYNAMICS system database', () => {
  assert.deepEqual(listSql(mssqlDialect, 'companies', { id: ['TWO'] }, 2, null, null), [
    {
      source: 0,
      sql: 'SELECT TOP (@p1) RTRIM([t].[INTERID]), RTRIM([t].[CMPNYNAM]), [t].[CMPANYID], [t].[DEX_ROW_ID] FROM [DYNAMICS].[dbo].[SY01500] AS [t] WHERE [t].[INTERID] IN (@p0) ORDER BY [t].[DEX_ROW_ID]',
      params: [
        { value: 'TWO', type: { kind: 'char', length: 5 } },
        { value: 2, type: { kind: 'int' } },
      ],
    },
  ]);
});

test('get customer-address by its two id parts', () => {
  const resource = new PreparedResource(CATALOGUE['customer-addresses'], mssqlDialect);
  const [query] = resource.getQueries('TWO', ['AARONFIT0001', 'PRIMARY']);
  assert.deepEqual(renderSelect(query!, mssqlDialect), {
    sql:
      'SELECT TOP (@p2) RTRIM([t].[CUSTNMBR]), RTRIM([t].[ADRSCODE]), RTRIM([t].[CNTCPRSN]), RTRIM([t].[ADDRESS1]), RTRIM([t].[ADDRESS2]), RTRIM([t].[ADDRESS3]), RTRIM([t].[CITY]), RTRIM([t].[STATE]), ' +
      'RTRIM([t].[ZIP]), RTRIM([t].[COUNTRY]), RTRIM([t].[PHONE1]), RTRIM([t].[SHIPMTHD]), RTRIM([t].[TAXSCHID]), [t].[DEX_ROW_ID] FROM [TWO].[dbo].[RM00102] AS [t] ' +
      'WHERE [t].[CUSTNMBR] = @p0 AND [t].[ADRSCODE] = @p1 ORDER BY [t].[DEX_ROW_ID]',
    params: [
      { value: 'AARONFIT0001', type: { kind: 'char', length: 15 } },
      { value: 'PRIMARY', type: { kind: 'char', length: 15 } },
      { value: 1, type: { kind: 'int' } },
    ],
  });
});

test('identifiers that could break out of quoting are escaped by the dialects', () => {
  assert.equal(mssqlDialect.quote('a]b'), '[a]]b]');
  assert.equal(sqliteDialect.quote('a"b'), '"a""b"');
  assert.equal(mssqlDialect.escapeLike('[x]%_\\'), '\\[x]\\%\\_\\\\');
});

test('a value longer than its char column matches nothing instead of failing', () => {
  const resource = new PreparedResource(CATALOGUE.customers, sqliteDialect);
  const [query] = resource.getQueries('TWO', ['X'.repeat(16)]);
  assert.deepEqual(renderSelect(query!, sqliteDialect), {
    sql: `SELECT ${CUSTOMER_COLUMNS_SQLITE} FROM "RM00101" AS "t" WHERE 1 = 0 ORDER BY "t"."DEX_ROW_ID" LIMIT +?`,
    params: [{ value: 1, type: { kind: 'int' } }],
  });
  assert.deepEqual(listSql(mssqlDialect, 'customers', { id: ['OK', 'Y'.repeat(16)] }, 2, null)[0]!.params.slice(0, 1), [
    { value: 'OK', type: { kind: 'char', length: 15 } },
  ]);
});
