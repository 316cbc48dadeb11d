import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import Database from 'better-sqlite3';
import { startInProcessGateway, type InProcessGateway } from '../../testing/inProcessGateway.ts';

/** Every filter of customers and gl-entries, checked against a direct query of the demo database. */
let t: InProcessGateway;
let key = '';
let db: Database.Database;

before(async () => {
  t = await startInProcessGateway();
  const org = await t.admin.createOrganisation('Filters');
  key = (await t.makeKey(org.id, 'test', ['read'])).secret;
  db = new Database(path.join(t.demoDir, 'TWO.sqlite'), { readonly: true });
});
after(async () => {
  db.close();
  await t.close();
});

async function all(object: string, query: string): Promise<any[]> {
  const rows: any[] = [];
  let cursor: string | null = null;
  do {
    const res = await t.get(`/v1/${object}?limit=1000&${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, {
      authorization: `Bearer ${key}`,
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    rows.push(...res.body.data);
    cursor = res.body.nextCursor;
  } while (cursor);
  return rows;
}

const column = (sql: string, ...params: unknown[]) =>
  (
    db
      .prepare(sql)
      .pluck()
      .all(...params) as unknown[]
  ).map(String);

test('customers: q is a case-insensitive substring of the name', async () => {
  const rows = await all('customers', 'q=ELEC');
  assert.ok(rows.length > 0);
  assert.deepEqual(
    rows.map((r) => r.id),
    column("SELECT rtrim(CUSTNMBR) FROM RM00101 WHERE CUSTNAME LIKE '%elec%' ORDER BY CUSTNMBR"),
  );
});

test('customers: q treats % and _ literally', async () => {
  assert.deepEqual(await all('customers', 'q=%25'), []);
  assert.deepEqual(await all('customers', 'q=_'), []);
});

test('customers: classId and inactive', async () => {
  const classId = column('SELECT rtrim(CUSTCLAS) FROM RM00101 WHERE CUSTCLAS <> ? LIMIT 1', ' '.repeat(15))[0]!;
  const byClass = await all('customers', `classId=${encodeURIComponent(classId.toLowerCase())}`);
  assert.deepEqual(
    byClass.map((r) => r.id),
    column('SELECT rtrim(CUSTNMBR) FROM RM00101 WHERE rtrim(CUSTCLAS) = ? ORDER BY CUSTNMBR', classId),
  );
  const inactive = await all('customers', 'inactive=true');
  assert.ok(inactive.length > 0);
  assert.deepEqual(
    inactive.map((r) => r.id),
    column('SELECT rtrim(CUSTNMBR) FROM RM00101 WHERE INACTIVE = 1 ORDER BY CUSTNMBR'),
  );
  assert.ok(inactive.every((r) => r.inactive === true));
});

test('customers: id[] fetches exactly those ids', async () => {
  const ids = column('SELECT rtrim(CUSTNMBR) FROM RM00101 ORDER BY CUSTNMBR DESC LIMIT 3');
  const rows = await all('customers', ids.map((id) => `id[]=${encodeURIComponent(id)}`).join('&') + '&id[]=NOPE');
  assert.deepEqual(rows.map((r) => r.id).sort(), [...ids].sort());
});

test('customers: updatedSince returns exactly the rows at or after a modifiedAt just seen', async () => {
  const everyone = await all('customers', '');
  const stamps = everyone.map((r) => r.modifiedAt as string).sort();
  const pivot = stamps[Math.floor(stamps.length / 2)]!;
  const since = await all('customers', `updatedSince=${encodeURIComponent(pivot)}`);
  assert.deepEqual(
    since.map((r) => r.id).sort(),
    everyone
      .filter((r) => r.modifiedAt >= pivot)
      .map((r) => r.id)
      .sort(),
  );
  assert.ok(
    since.some((r) => r.modifiedAt === pivot),
    'inclusive',
  );
});

test('gl-entries: year, accountNumber, journalEntryNumber and date range', async () => {
  const open = await all('gl-entries', 'year=open');
  assert.equal(open.length, Number(column("SELECT count(*) FROM GL20000 WHERE SOURCDOC NOT IN ('BBF        ', 'P/L        ')")[0]));
  assert.ok(Number(column("SELECT count(*) FROM GL20000 WHERE SOURCDOC = 'BBF        '")[0]) > 0, 'the demo has closing rows to leave out');
  const history = await all('gl-entries', 'year=history');
  assert.equal(history.length, Number(column("SELECT count(*) FROM GL30000 WHERE SOURCDOC NOT IN ('BBF        ', 'P/L        ')")[0]));
  assert.ok(history.every((r) => r.sourceDocument !== 'BBF' && r.sourceDocument !== 'P/L'));

  const account = open[0].accountNumber as string;
  const byAccount = await all('gl-entries', `accountNumber=${encodeURIComponent(account)}`);
  assert.equal(
    byAccount.length,
    Number(
      column(
        `SELECT (SELECT count(*) FROM GL20000 g JOIN GL00105 a USING (ACTINDX) WHERE rtrim(a.ACTNUMST) = ? AND SOURCDOC NOT IN ('BBF        ', 'P/L        '))
            + (SELECT count(*) FROM GL30000 g JOIN GL00105 a USING (ACTINDX) WHERE rtrim(a.ACTNUMST) = ? AND SOURCDOC NOT IN ('BBF        ', 'P/L        '))`,
        account,
        account,
      )[0],
    ),
  );
  assert.ok(byAccount.every((r) => r.accountNumber === account));

  const je = open[0].journalEntryNumber as number;
  const lines = await all('gl-entries', `year=open&journalEntryNumber=${je}`);
  assert.equal(
    lines.length,
    Number(column("SELECT count(*) FROM GL20000 WHERE JRNENTRY = ? AND SOURCDOC NOT IN ('BBF        ', 'P/L        ')", je)[0]),
  );
  const scaled = (s: string) => {
    const [whole, fraction = ''] = s.split('.');
    return BigInt(whole + fraction.padEnd(5, '0'));
  };
  assert.equal(
    lines.reduce((sum, l) => sum + scaled(l.debit) - scaled(l.credit), 0n),
    0n,
    'a journal entry balances',
  );

  const march = await all('gl-entries', 'dateFrom=2025-03-01&dateTo=2025-03-31T23:59:59Z');
  assert.ok(march.length > 0);
  assert.ok(march.every((r) => r.date >= '2025-03-01' && r.date <= '2025-03-31'));
  assert.equal(
    march.length,
    Number(
      column(
        `SELECT (SELECT count(*) FROM GL20000 WHERE TRXDATE BETWEEN '2025-03-01' AND '2025-03-31 99' AND SOURCDOC NOT IN ('BBF        ', 'P/L        '))
            + (SELECT count(*) FROM GL30000 WHERE TRXDATE BETWEEN '2025-03-01' AND '2025-03-31 99' AND SOURCDOC NOT IN ('BBF        ', 'P/L        '))`,
      )[0],
    ),
  );
});
