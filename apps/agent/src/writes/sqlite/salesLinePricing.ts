import { scaledTextToDecimalString } from '@gp-gateway/gp-schema';
import type { WriteBody } from '@gp-gateway/protocol';
import { WriteRefusal, type Issue } from '../refusals.ts';
import { exists, find } from '../sqliteRows.ts';
import type { Db } from './context.ts';

/** A sales line's unit of measure and price level as GP settles them, and the unit's quantity in the base unit. */
export interface LinePricing {
  UOFM: string;
  PRCLEVEL: string;
  /** The unit's quantity in the schedule's base unit (IV40202.QTYBSUOM), a decimal string. */
  QTYBSUOM: string;
}

const trimmed = (value: unknown) => String(value ?? '').trimEnd();

/**
 * Each line's unit and price level, as taSopLineIvcInsert (TLECO line 5) settles and checks them
 * (docs/decisions.md#units-of-measure-and-price-levels), or a refusal naming every line's problem:
 *
 * - the unit: the body's, else the item's selling unit ("@I_vUOFM = case when @I_vUOFM = '' then
 *   SELNGUOM else @I_vUOFM end"); it must be in the item's schedule ("if (not exists(select 1 from
 *   IV40202 (nolock) where UOFM = @I_vUOFM and UOMSCHDL = @UOMSCHDL)) … 5313");
 * - the price level: the body's (its existence, 928, is a reference check), else the customer's when
 *   it prices the item in the unit, else the item's (GP also tries the receivables setup's,
 *   RM40101.PRCLEVEL, which the embedded database does not keep); a level must price the item in the
 *   unit, in the document's currency or in every currency ("if (not exists(select 1 from IV00108
 *   (nolock) where ITEMNMBR = @I_vITEMNMBR and PRCLEVEL = @I_vPRCLEVEL and ((CURNCYID = @I_vCURNCYID)
 *   or (CURNCYID = '')) and UOFM = @I_vUOFM)) … 9177", for items priced in currency or percent of list).
 */
export function settleLinePricing(db: Db, body: WriteBody, currency: string): LinePricing[] {
  const issues: Issue[] = [];
  const customerLevel = trimmed(find(db, 'RM00101', { CUSTNMBR: String(body.customerId) }, 'PRCLEVEL')?.PRCLEVEL);
  const priced = (itemId: string, level: string, unit: string) =>
    [currency, ''].some((CURNCYID) => exists(db, 'IV00108', { ITEMNMBR: itemId, PRCLEVEL: level, CURNCYID, UOFM: unit }));
  const settled = body.lines!.map((line, i) => {
    const itemId = String(line.itemId);
    const item = find(db, 'IV00101', { ITEMNMBR: itemId }, 'UOMSCHDL, SELNGUOM, PRCLEVEL, PRICMTHD')!;
    const schedule = trimmed(item.UOMSCHDL);
    const unit = line.unitOfMeasure === undefined ? trimmed(item.SELNGUOM) : String(line.unitOfMeasure);
    const inSchedule = find(db, 'IV40202', { UOMSCHDL: schedule, UOFM: unit }, 'CAST(QTYBSUOM AS TEXT) AS QTYBSUOM');
    if (!inSchedule) {
      issues.push({
        path: `lines.${i}.unitOfMeasure`,
        message: `${unit} is not a unit of the item's unit of measure schedule ${schedule} (GP error 5313)`,
      });
      return null;
    }
    let level = line.priceLevel === undefined ? '' : String(line.priceLevel);
    if (level === '') level = customerLevel !== '' && priced(itemId, customerLevel, unit) ? customerLevel : trimmed(item.PRCLEVEL);
    // PRICMTHD 1 currency amount, 2 percent of list: the methods whose prices are kept per level (IV00108).
    if (level !== '' && [1, 2].includes(Number(item.PRICMTHD)) && !priced(itemId, level, unit)) {
      issues.push({
        path: `lines.${i}.${line.priceLevel === undefined ? 'itemId' : 'priceLevel'}`,
        message: `the price level ${level} has no price for the item in ${unit} (GP error 9177)`,
      });
      return null;
    }
    return { UOFM: unit, PRCLEVEL: level, QTYBSUOM: scaledTextToDecimalString(String(inSchedule.QTYBSUOM)) };
  });
  if (issues.length) throw new WriteRefusal(issues);
  return settled as LinePricing[];
}
