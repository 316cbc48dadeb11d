import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GP_TABLES } from '@gp-gateway/gp-schema';
import { demoAccountFramework } from '../generator/generate.ts';
import { createTableBatches, schemaScript } from './schemaScript.ts';

test("a GP table becomes GP column types with GP defaults, GP's own keys and indexes, and the zDT triggers", () => {
  const [create, ...rest] = createTableBatches(GP_TABLES.RM00102);
  assert.match(create!, /^CREATE TABLE \[dbo\]\.\[RM00102\] \(\n/);
  assert.match(create!, /\n  \[CUSTNMBR\] char\(15\) NOT NULL DEFAULT \(''\),\n/);
  assert.match(create!, /\n  \[DEX_ROW_TS\] datetime NOT NULL DEFAULT \(getutcdate\(\)\),\n/);
  assert.match(create!, /\n  \[DEX_ROW_ID\] int IDENTITY\(1,1\) NOT NULL,\n/);
  assert.match(create!, /\n  CONSTRAINT \[PKRM00102\] PRIMARY KEY NONCLUSTERED \(\[CUSTNMBR\], \[ADRSCODE\]\)\n\)$/);
  // GP's five AK indexes and nothing else: no DEX_ROW_ID or DEX_ROW_TS index of our own.
  assert.deepEqual(
    rest.filter((b) => b.startsWith('CREATE ') && b.includes(' INDEX ')),
    [
      'CREATE UNIQUE NONCLUSTERED INDEX [AK2RM00102] ON [dbo].[RM00102] ([CUSTNMBR], [CITY], [DEX_ROW_ID])',
      'CREATE UNIQUE NONCLUSTERED INDEX [AK6RM00102] ON [dbo].[RM00102] ([CUSTNMBR], [SALSTERR], [DEX_ROW_ID])',
      'CREATE UNIQUE NONCLUSTERED INDEX [AK5RM00102] ON [dbo].[RM00102] ([CUSTNMBR], [SLPRSNID], [DEX_ROW_ID])',
      'CREATE UNIQUE NONCLUSTERED INDEX [AK3RM00102] ON [dbo].[RM00102] ([CUSTNMBR], [STATE], [DEX_ROW_ID])',
      'CREATE UNIQUE NONCLUSTERED INDEX [AK4RM00102] ON [dbo].[RM00102] ([CUSTNMBR], [ZIP], [DEX_ROW_ID])',
    ],
  );
  assert.ok(
    rest.includes(
      'CREATE TRIGGER [dbo].[zDT_RM00102U] ON [dbo].[RM00102] AFTER UPDATE AS\nSET NOCOUNT ON;\n' +
        'UPDATE t SET [DEX_ROW_TS] = GETUTCDATE() FROM [dbo].[RM00102] AS t INNER JOIN inserted AS i ON t.[CUSTNMBR] = i.[CUSTNMBR] AND t.[ADRSCODE] = i.[ADRSCODE]',
    ),
  );
  // A change to an address stamps its customer, as in the embedded demo.
  assert.equal(
    rest.at(-1),
    'CREATE TRIGGER [dbo].[zDT_RM00102_RM00101] ON [dbo].[RM00102] AFTER INSERT, UPDATE, DELETE AS\nSET NOCOUNT ON;\n' +
      'UPDATE t SET [DEX_ROW_TS] = GETUTCDATE() FROM [dbo].[RM00101] AS t ' +
      'WHERE EXISTS (SELECT 1 FROM inserted AS i WHERE t.[CUSTNMBR] = i.[CUSTNMBR]) OR EXISTS (SELECT 1 FROM deleted AS d WHERE t.[CUSTNMBR] = d.[CUSTNMBR])',
  );
  assert.ok(createTableBatches(GP_TABLES.IV00102).some((b) => b.startsWith('CREATE TRIGGER [dbo].[zDT_IV00102_IV00101]')));
  const gl = createTableBatches(GP_TABLES.GL20000);
  assert.match(gl[0]!, /\n  \[DEBITAMT\] numeric\(19,5\) NOT NULL DEFAULT \(0\),\n/);
  assert.match(gl[0]!, /\n  \[TRXDATE\] datetime NOT NULL DEFAULT \('19000101'\),\n/);
  assert.match(gl[0]!, /\n  CONSTRAINT \[PKGL20000\] PRIMARY KEY NONCLUSTERED \(\[DEX_ROW_ID\]\)\n\)$/);
  assert.ok(gl.includes('CREATE CLUSTERED INDEX [CL8GL20000] ON [dbo].[GL20000] ([JRNENTRY])'));
  assert.ok(createTableBatches(GP_TABLES.SY01500)[0]!.includes('CONSTRAINT [PKSY01500] PRIMARY KEY CLUSTERED ([CMPANYID])'));
});

test('the schema script creates DYNAMICS and each company, and refuses anything but a GP company id', () => {
  const script = schemaScript(['TWO']);
  assert.ok(
    script.startsWith("IF DB_ID(N'DYNAMICS') IS NULL CREATE DATABASE [DYNAMICS]\nGO\nUSE [DYNAMICS]\nGO\nCREATE TABLE [dbo].[SY01500]"),
  );
  assert.ok(script.includes("IF DB_ID(N'TWO') IS NULL CREATE DATABASE [TWO]\nGO\nUSE [TWO]\nGO\n"));
  assert.throws(() => schemaScript(['TWO]; DROP DATABASE x; --']), /not a GP company id/);
});

test("a company in another account framework gets that framework's segment columns and GP's indexes on all of them", () => {
  const script = schemaScript(['TWO'], 'DYNAMICS', demoAccountFramework(5));
  assert.ok(script.includes("  [ACTNUMBR_5] char(3) NOT NULL DEFAULT (''),\n"));
  assert.ok(
    script.includes(
      'CREATE UNIQUE NONCLUSTERED INDEX [AK4GL00100] ON [dbo].[GL00100] ([ACCTTYPE], [ACTNUMBR_1], [ACTNUMBR_2], [ACTNUMBR_3], [ACTNUMBR_4], [ACTNUMBR_5])',
    ),
  );
  assert.ok(
    script.includes(
      'CREATE UNIQUE NONCLUSTERED INDEX [AK2GL00105] ON [dbo].[GL00105] ([ACTNUMBR_1], [ACTNUMBR_2], [ACTNUMBR_3], [ACTNUMBR_4], [ACTNUMBR_5])',
    ),
  );
  assert.ok(!schemaScript(['TWO'], 'DYNAMICS', demoAccountFramework(3)).includes('ACTNUMBR_4'));
  // The system database records the framework the agent reads.
  assert.ok(script.includes('CREATE TABLE [dbo].[SY003001]'));
  assert.ok(script.includes('CREATE TABLE [dbo].[SY00302]'));
});
