import { Decimal } from 'decimal.js';
import { unpostedGlEntries } from '../../catalogue/resources/work.ts';
import { AgentError } from '../../service/agentError.ts';
import { fieldColumns, headerOf } from '../fieldColumns.ts';
import { preparedOnce } from '../preparedStatements.ts';
import { BATCHES } from '../references/describe.ts';
import { exists, find, insert } from '../sqliteRows.ts';
import { addToBatch } from './batches.ts';
import { preview, today, type WriteContext, type Written } from './context.ts';

/** A journal entry (taGLTransactionLineInsert per line, then taGLTransactionHeaderInsert), numbered from GL40000. */
export function writeJournalEntry({ db, body, checks, dry, read }: WriteContext): Written {
  const lines = body.lines!;
  const accounts = lines.map((_, i) => {
    const account = checks.row(`lines.${i}.accountNumber`)!;
    return { index: Number(account.ACTINDX), type: Number(account.ACCTTYPE) };
  });
  const setup = find(db, 'GL40000', { UNIQKEY: '1' }, 'NJRNLENT');
  if (!setup) throw new AgentError('VALIDATION_ERROR', 'GP has no general ledger setup (GL40000)');
  let entry = Number(setup.NJRNLENT);
  while (
    exists(db, 'GL10000', { JRNENTRY: entry }) ||
    exists(db, 'GL20000', { JRNENTRY: entry }) ||
    exists(db, 'GL30000', { JRNENTRY: entry })
  )
    entry++;
  const total = lines.reduce((sum, line) => sum.plus(String(line.debit ?? '0')), new Decimal(0));
  if (dry) return preview(String(entry), { ...body, journalEntryNumber: entry });
  preparedOnce(db, "UPDATE GL40000 SET NJRNLENT = ? WHERE UNIQKEY = '1'").run(entry + 1);
  const batch = String(body.batchId);
  // Lines before the header, as eConnect inserts them.
  lines.forEach((line, i) => {
    insert(db, 'GL10001', {
      ...fieldColumns(unpostedGlEntries, line),
      BACHNUMB: batch,
      JRNENTRY: entry,
      // GP numbers lines 16384 apart, like sales lines.
      SQNCLINE: String((i + 1) * 16384),
      ACTINDX: accounts[i]!.index,
      ACCTTYPE: accounts[i]!.type,
      ORDBTAMT: String(line.debit ?? '0'),
      ORCRDAMT: String(line.credit ?? '0'),
    });
  });
  insert(db, 'GL10000', {
    ...fieldColumns(unpostedGlEntries, headerOf(body), 'h'),
    SOURCDOC: String(body.sourceDocument ?? 'GJ'),
    BACHNUMB: batch,
    BCHSOURC: BATCHES.ledger.source,
    JRNENTRY: entry,
    SERIES: BATCHES.ledger.series,
    TRXTYPE: 0,
    OPENYEAR: Number(String(body.date).slice(0, 4)),
    DOCDATE: String(body.date),
    LSTDTEDT: today(),
    Ledger_ID: 1,
  });
  addToBatch(db, batch, 'ledger', total);
  return { id: String(entry), readBack: () => read.lines(unpostedGlEntries, { journalEntryNumber: entry }) };
}
