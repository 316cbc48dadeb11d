import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GP_TABLES } from '@gp-gateway/gp-schema';
import { createTableBatches, schemaScript } from './schemaScript.ts';

test('a GP table becomes GP column types with GP defaults, its key, a DEX_ROW_ID index and the zDT trigger', () => {
  const [create, ...rest] = createTableBatches(GP_TABLES.RM00102);
  assert.match(create!, /^CREATE TABLE \[dbo\]\.\[RM00102\] \(\n/);
  assert.match(create!, /\n  \[CUSTNMBR\] char\(15\) NOT NULL DEFAULT \(''\),\n/);
  assert.match(create!, /\n  \[DEX_ROW_TS\] datetime NOT NULL DEFAULT \(getutcdate\(\)\),\n/);
  assert.match(create!, /\n  \[DEX_ROW_ID\] int IDENTITY\(1,1\) NOT NULL,\n/);
  assert.match(create!, /\n  CONSTRAINT \[PKRM00102\] PRIMARY KEY NONCLUSTERED \(\[CUSTNMBR\], \[ADRSCODE\]\)\n\)$/);
  assert.equal(rest[0], 'CREATE UNIQUE INDEX [AK2RM00102] ON [dbo].[RM00102] ([DEX_ROW_ID])');
  assert.ok(rest.includes('CREATE INDEX [IX_RM00102_DEX_ROW_TS] ON [dbo].[RM00102] ([DEX_ROW_TS])'));
  assert.equal(
    rest.at(-1),
    'CREATE TRIGGER [dbo].[zDT_RM00102U] ON [dbo].[RM00102] AFTER UPDATE AS\nSET NOCOUNT ON;\n' +
      'UPDATE t SET [DEX_ROW_TS] = GETUTCDATE() FROM [dbo].[RM00102] AS t INNER JOIN inserted AS i ON t.[DEX_ROW_ID] = i.[DEX_ROW_ID]',
  );
  const amounts = createTableBatches(GP_TABLES.GL20000)[0]!;
  assert.match(amounts, /\n  \[DEBITAMT\] numeric\(19,5\) NOT NULL DEFAULT \(0\),\n/);
  assert.match(amounts, /\n  \[TRXDATE\] datetime NOT NULL DEFAULT \('19000101'\),\n/);
});

test('the schema script creates DYNAMICS and each company, and refuses anything but a GP company id', () => {
  const script = schemaScript(['TWO']);
  assert.ok(
    script.startsWith("IF DB_ID(N'DYNAMICS') IS NULL CREATE DATABASE [DYNAMICS]\nGO\nUSE [DYNAMICS]\nGO\nCREATE TABLE [dbo].[SY01500]"),
  );
  assert.ok(script.includes("IF DB_ID(N'TWO') IS NULL CREATE DATABASE [TWO]\nGO\nUSE [TWO]\nGO\n"));
  assert.throws(() => schemaScript(['TWO]; DROP DATABASE x; --']), /not a GP company id/);
});
