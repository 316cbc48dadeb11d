import { Decimal } from 'decimal.js';
import { gpDate, padChar, scaledTextToDecimalString, toScaled } from '@gp-gateway/gp-schema';
import { fitsNumeric, MAX_WRITE_AMOUNT } from '@gp-gateway/protocol';
import { preparedOnce } from '../preparedStatements.ts';
import { BATCHES, type BatchKind } from '../references/describe.ts';
import { WriteRefusal } from '../refusals.ts';
import { find, insert } from '../sqliteRows.ts';
import { today, type Db } from './context.ts';

/**
 * Counts the document into its batch, creating the batch as eConnect does when it does not exist
 * yet. The body's amounts fit numeric(19,5) (the protocol's fitsNumeric); a batch's running total
 * can pass it only through the documents already in it, and is then refused, naming the batch.
 */
export function addToBatch(db: Db, batch: string, kind: BatchKind, amount: Decimal): void {
  const { source, series } = BATCHES[kind];
  const held = find(db, 'SY00500', { BCHSOURC: source, BACHNUMB: batch }, 'CAST(BCHTOTAL AS TEXT) AS total');
  if (held && !fitsNumeric(new Decimal(scaledTextToDecimalString(String(held.total))).plus(amount)))
    throw new WriteRefusal([
      { path: 'batchId', message: `the batch's total would be more than ${MAX_WRITE_AMOUNT}; use another batch id` },
    ]);
  const updated = preparedOnce(
    db,
    'UPDATE SY00500 SET NUMOFTRX = NUMOFTRX + 1, BCHTOTAL = BCHTOTAL + ?, MODIFDT = ? WHERE BCHSOURC = ? AND BACHNUMB = ?',
  ).run(toScaled(amount.toFixed(5)), gpDate(today()), padChar(source, 15), padChar(batch, 15));
  if (updated.changes === 0)
    insert(db, 'SY00500', {
      BCHSOURC: source,
      BACHNUMB: batch,
      SERIES: series,
      NUMOFTRX: 1,
      BCHTOTAL: amount.toFixed(5),
      BACHDATE: today(),
      CREATDDT: today(),
      MODIFDT: today(),
      ORIGIN: 1,
    });
}

/**
 * The account of a posting setup slot (SY01100), or 0 where none is set up: eConnect then writes
 * the distribution on account 0 too, and GP asks for an account before it posts.
 */
export function postingAccount(db: Db, { series, sequence }: { series: number; sequence: number }): number {
  const row = find(db, 'SY01100', { SERIES: series, SEQNUMBR: sequence }, 'ACTINDX');
  return row ? Number(row.ACTINDX) : 0;
}
