import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Position } from '@gp-gateway/protocol';
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
  after: Position | null,
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
  'rtrim("t"."TAXSCHID"), "t"."INACTIVE", "t"."HOLD", "t"."CREATDDT", "t"."DEX_ROW_TS"';
const CUSTOMER_COLUMNS_MSSQL =
  'RTRIM([t].[CUSTNMBR]), RTRIM([t].[CUSTNAME]), RTRIM([t].[STMTNAME]), RTRIM([t].[SHRTNAME]), RTRIM([t].[CUSTCLAS]), RTRIM([t].[CNTCPRSN]), RTRIM([t].[ADRSCODE]), ' +
  'RTRIM([t].[PYMTRMID]), RTRIM([t].[SLPRSNID]), RTRIM([t].[SALSTERR]), RTRIM([t].[CURNCYID]), [t].[CRLMTTYP], CONVERT(varchar(41), [t].[CRLMTAMT]), RTRIM([t].[PHONE1]), ' +
  'RTRIM([t].[TAXSCHID]), [t].[INACTIVE], [t].[HOLD], CONVERT(varchar(23), [t].[CREATDDT], 121), CONVERT(varchar(23), [t].[DEX_ROW_TS], 121)';

test('customers, first page, no filters', () => {
  assert.deepEqual(listSql(sqliteDialect, 'customers', {}, 101, null), [
    {
      source: 0,
      sql: `SELECT ${CUSTOMER_COLUMNS_SQLITE} FROM "RM00101" AS "t" INDEXED BY "PKRM00101" ORDER BY "t"."CUSTNMBR" LIMIT +?`,
      params: [{ value: 101, type: { kind: 'int' } }],
    },
  ]);
  assert.deepEqual(listSql(mssqlDialect, 'customers', {}, 101, null), [
    {
      source: 0,
      sql: `SELECT TOP (@p0) ${CUSTOMER_COLUMNS_MSSQL} FROM [TWO].[dbo].[RM00101] AS [t] ORDER BY [t].[CUSTNMBR]`,
      params: [{ value: 101, type: { kind: 'int' } }],
    },
  ]);
});

test('customers with every kind of filter, after a position: the class filter pages on AK3RM00101 (CUSTCLAS, CUSTNMBR)', () => {
  const filters = {
    q: "50%_o'brien",
    classId: 'USA-ILMO-T1',
    inactive: false,
    id: ['AARONFIT0001', 'ADAMPARK0001'],
    updatedSince: '2026-03-01T14:05:09.123Z',
  };
  const where = (d: 's' | 'm') => {
    const p = (i: number) => (d === 's' ? '?' : `@p${i}`);
    // A position's values are hidden from SQLite's planner (sqliteDialect.positionValue).
    const position = (i: number) => (d === 's' ? '+?' : `@p${i}`);
    const c = (name: string) => (d === 's' ? `"t"."${name}"` : `[t].[${name}]`);
    return (
      `${c('CUSTNAME')} LIKE ${p(0)} ESCAPE '\\' AND ${c('CUSTCLAS')} = ${p(1)} AND ${c('INACTIVE')} = ${p(2)} AND ` +
      `${c('CUSTNMBR')} IN (${p(3)}, ${p(4)}) AND ${c('DEX_ROW_TS')} >= ${p(5)} AND ${c('CUSTNMBR')} > ${position(6)}`
    );
  };
  assert.deepEqual(listSql(sqliteDialect, 'customers', filters, 11, ['class', 0, 'AARONFIT0001']), [
    {
      source: 0,
      sql: `SELECT ${CUSTOMER_COLUMNS_SQLITE} FROM "RM00101" AS "t" INDEXED BY "AK3RM00101" WHERE ${where('s')} ORDER BY "t"."CUSTCLAS", "t"."CUSTNMBR" LIMIT +?`,
      params: [
        { value: "%50\\%\\_o'brien%", type: { kind: 'varchar', length: 255 } },
        { value: 'USA-ILMO-T1    ', type: { kind: 'char', length: 15 } },
        { value: 0, type: { kind: 'int' } },
        { value: 'AARONFIT0001   ', type: { kind: 'char', length: 15 } },
        { value: 'ADAMPARK0001   ', type: { kind: 'char', length: 15 } },
        { value: '2026-03-01 14:05:09.123', type: { kind: 'datetime' } },
        { value: 'AARONFIT0001   ', type: { kind: 'char', length: 15 } },
        { value: 11, type: { kind: 'int' } },
      ],
    },
  ]);
  assert.deepEqual(listSql(mssqlDialect, 'customers', filters, 11, ['class', 0, 'AARONFIT0001']), [
    {
      source: 0,
      // updatedSince is a range no index serves: its plan depends on how wide it is.
      sql: `SELECT TOP (@p7) ${CUSTOMER_COLUMNS_MSSQL} FROM [TWO].[dbo].[RM00101] AS [t] WHERE ${where('m')} ORDER BY [t].[CUSTCLAS], [t].[CUSTNMBR] OPTION (RECOMPILE)`,
      params: [
        { value: "%50\\%\\_o'brien%", type: { kind: 'varchar', length: 255 } },
        { value: 'USA-ILMO-T1', type: { kind: 'char', length: 15 } },
        { value: 0, type: { kind: 'int' } },
        { value: 'AARONFIT0001', type: { kind: 'char', length: 15 } },
        { value: 'ADAMPARK0001', type: { kind: 'char', length: 15 } },
        { value: '2026-03-01 14:05:09.123', type: { kind: 'datetime' } },
        { value: 'AARONFIT0001', type: { kind: 'char', length: 15 } },
        { value: 11, type: { kind: 'int' } },
      ],
    },
  ]);
});

test('gl-entries for one account page on AK2GL20000/AK3GL30000, the account resolved to its ACTINDX; a deep page seeks part by part', () => {
  const cols = (d: Dialect) => {
    const c = (a: string, n: string) => (d.name === 'sqlite' ? `"${a}"."${n}"` : `[${a}].[${n}]`);
    const money = (n: string) => (d.name === 'sqlite' ? `CAST(${c('t', n)} AS TEXT)` : `CONVERT(varchar(41), ${c('t', n)})`);
    const date = (n: string) => (d.name === 'sqlite' ? c('t', n) : `CONVERT(varchar(23), ${c('t', n)}, 121)`);
    const text = (a: string, n: string) => (d.name === 'sqlite' ? `rtrim(${c(a, n)})` : `RTRIM(${c(a, n)})`);
    return (year: string) =>
      [
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
        // The key columns no field reads: every key of the table's (gl lines, account, journal entry).
        c('t', 'DEX_ROW_ID'),
        c('t', 'ACTINDX'),
        c('t', year),
        ...(year === 'OPENYEAR' ? [] : [c('t', 'QKOFSET')]),
      ].join(', ');
  };
  const selectOpen = (d: Dialect) => cols(d)('OPENYEAR');
  const filters = { accountNumber: '000-1100-00', dateTo: '2025-12-31' };
  const head = (table: string) =>
    `SELECT ${table === 'GL20000' ? selectOpen(sqliteDialect) : cols(sqliteDialect)('HSTYEAR')} FROM "${table}" AS "t" INDEXED BY "${table === 'GL20000' ? 'AK2GL20000' : 'AK3GL30000'}" ` +
    `LEFT JOIN "GL00105" AS "a" ON "a"."ACTINDX" = "t"."ACTINDX" WHERE "t"."SOURCDOC" NOT IN (?, ?) AND "t"."Ledger_ID" = ? ` +
    `AND "t"."ACTINDX" = (SELECT "l"."ACTINDX" FROM "GL00105" AS "l" WHERE "l"."ACTNUMST" = ?) AND "t"."TRXDATE" < ? AND "t"."TRXDATE" > ?`;
  const fixed = [
    { value: 'BBF'.padEnd(11), type: { kind: 'char', length: 11 } },
    { value: 'P/L'.padEnd(11), type: { kind: 'char', length: 11 } },
    { value: 1, type: { kind: 'int' } },
    { value: '000-1100-00'.padEnd(129), type: { kind: 'char', length: 129 } },
    { value: '2026-01-01 00:00:00.000', type: { kind: 'datetime' } },
    { value: '1900-01-01 00:00:00.000', type: { kind: 'datetime' } },
  ];
  const year = { value: 2025, type: { kind: 'int' } };
  const gj = { value: 'GJ'.padEnd(11), type: { kind: 'char', length: 11 } };
  const limit = { value: 1001, type: { kind: 'int' } };
  const openOrder = ' ORDER BY "t"."ACTINDX", "t"."OPENYEAR", "t"."SOURCDOC", "t"."DEX_ROW_ID" LIMIT +?';
  assert.deepEqual(listSql(sqliteDialect, 'gl-entries', filters, 1001, ['account', 0, 2025, 'GJ', 77]), [
    {
      source: 0,
      sql: `${head('GL20000')} AND "t"."OPENYEAR" = +? AND "t"."SOURCDOC" = +? AND "t"."DEX_ROW_ID" > +?${openOrder}`,
      params: [...fixed, year, gj, { value: 77, type: { kind: 'int' } }, limit],
    },
    {
      source: 0,
      sql: `${head('GL20000')} AND "t"."OPENYEAR" = +? AND "t"."SOURCDOC" > +?${openOrder}`,
      params: [...fixed, year, gj, limit],
    },
    { source: 0, sql: `${head('GL20000')} AND "t"."OPENYEAR" > +?${openOrder}`, params: [...fixed, year, limit] },
    { source: 1, sql: `${head('GL30000')} ORDER BY "t"."ACTINDX", "t"."HSTYEAR", "t"."DEX_ROW_ID" LIMIT +?`, params: [...fixed, limit] },
  ]);
  // On SQL Server the same statements, without an index hint; the date range, which no index of
  // these serves, has each plan made for its values.
  const [mssqlFirst] = listSql(mssqlDialect, 'gl-entries', filters, 1001, ['account', 0, 2025, 'GJ', 77]);
  assert.equal(
    mssqlFirst!.sql,
    `SELECT TOP (@p9) ${selectOpen(mssqlDialect)} FROM [TWO].[dbo].[GL20000] AS [t] LEFT JOIN [TWO].[dbo].[GL00105] AS [a] ON [a].[ACTINDX] = [t].[ACTINDX] ` +
      `WHERE [t].[SOURCDOC] NOT IN (@p0, @p1) AND [t].[Ledger_ID] = @p2 AND [t].[ACTINDX] = (SELECT [l].[ACTINDX] FROM [TWO].[dbo].[GL00105] AS [l] WHERE [l].[ACTNUMST] = @p3) ` +
      `AND [t].[TRXDATE] < @p4 AND [t].[TRXDATE] > @p5 AND [t].[OPENYEAR] = @p6 AND [t].[SOURCDOC] = @p7 AND [t].[DEX_ROW_ID] > @p8 ` +
      `ORDER BY [t].[ACTINDX], [t].[OPENYEAR], [t].[SOURCDOC], [t].[DEX_ROW_ID] OPTION (RECOMPILE)`,
  );
  // Unfiltered, GL lines page on DEX_ROW_ID, their primary key (SQLite's rowid).
  assert.deepEqual(listSql(mssqlDialect, 'gl-entries', { year: 'history' }, 5, null), [
    {
      source: 1,
      sql:
        `SELECT TOP (@p3) ${cols(mssqlDialect)('HSTYEAR')} FROM [TWO].[dbo].[GL30000] AS [t] LEFT JOIN [TWO].[dbo].[GL00105] AS [a] ON [a].[ACTINDX] = [t].[ACTINDX] ` +
        `WHERE [t].[SOURCDOC] NOT IN (@p0, @p1) AND [t].[Ledger_ID] = @p2 ORDER BY [t].[DEX_ROW_ID]`,
      params: [
        { value: 'BBF', type: { kind: 'char', length: 11 } },
        { value: 'P/L', type: { kind: 'char', length: 11 } },
        { value: 1, type: { kind: 'int' } },
        { value: 5, type: { kind: 'int' } },
      ],
    },
  ]);
});

test('receivables page on AK4 (RMDTYPAL, DOCNUMBR): a position is split into seeks, and the type list gives way to the position', () => {
  for (const dialect of [sqliteDialect, mssqlDialect]) {
    const where = listSql(dialect, 'ar-invoices', { status: 'history' }, 11, ['document', 1, 3, 'INV0042']).map(
      (q) => q.sql.split(' WHERE ')[1],
    );
    const s = dialect.name === 'sqlite';
    const c = (n: string) => (s ? `"t"."${n}"` : `[t].[${n}]`);
    const p = (i: number) => (s ? '?' : `@p${i}`);
    const position = (i: number) => (s ? '+?' : `@p${i}`);
    const order = `ORDER BY ${c('RMDTYPAL')}, ${c('DOCNUMBR')}`;
    assert.deepEqual(where, [
      // RMDTYPAL = 3 is one of the invoice types: the IN list would only make SQLite read and sort.
      `${c('RMDTYPAL')} = ${position(0)} AND ${c('DOCNUMBR')} > ${position(1)} ${order}${s ? ' LIMIT +?' : ''}`,
      // Then the invoice types past 3, one seek each: `RMDTYPAL > 3` beside the whole list would
      // make SQLite seek every type and read all its rows.
      `${c('RMDTYPAL')} IN (${[0, 1, 2, 3, 4].map(p).join(', ')}) ${order}${s ? ' LIMIT +?' : ''}`,
    ]);
  }
  // A position whose type is not one of the list's matches nothing in that part.
  assert.match(
    listSql(mssqlDialect, 'ar-invoices', { status: 'history' }, 11, ['document', 1, 9, 'PAY1'])[0]!.sql,
    /WHERE 1 = 0 AND \[t\]\.\[RMDTYPAL\] = @p0/,
  );
});

test('a walk positioned in history skips the open table', () => {
  assert.deepEqual(
    listSql(sqliteDialect, 'gl-entries', {}, 10, ['line', 1, 5]).map((q) => q.source),
    [1],
  );
  assert.deepEqual(
    listSql(sqliteDialect, 'gl-entries', { year: 'open' }, 10, null).map((q) => q.source),
    [0],
  );
});

test('companies come from the DYNAMICS system database, in INTERID order (AK3SY01500)', () => {
  assert.deepEqual(listSql(mssqlDialect, 'companies', { id: ['TWO'] }, 2, null, null), [
    {
      source: 0,
      sql: 'SELECT TOP (@p1) RTRIM([t].[INTERID]), RTRIM([t].[CMPNYNAM]), [t].[CMPANYID] FROM [DYNAMICS].[dbo].[SY01500] AS [t] WHERE [t].[INTERID] IN (@p0) ORDER BY [t].[INTERID]',
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
      'RTRIM([t].[ZIP]), RTRIM([t].[COUNTRY]), RTRIM([t].[PHONE1]), RTRIM([t].[SHIPMTHD]), RTRIM([t].[TAXSCHID]) FROM [TWO].[dbo].[RM00102] AS [t] ' +
      'WHERE [t].[CUSTNMBR] = @p0 AND [t].[ADRSCODE] = @p1 ORDER BY [t].[CUSTNMBR], [t].[ADRSCODE]',
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
    sql: `SELECT ${CUSTOMER_COLUMNS_SQLITE} FROM "RM00101" AS "t" WHERE 1 = 0 ORDER BY "t"."CUSTNMBR" LIMIT +?`,
    params: [{ value: 1, type: { kind: 'int' } }],
  });
  assert.deepEqual(listSql(mssqlDialect, 'customers', { id: ['OK', 'Y'.repeat(16)] }, 2, null)[0]!.params.slice(0, 1), [
    { value: 'OK', type: { kind: 'char', length: 15 } },
  ]);
});
