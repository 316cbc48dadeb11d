/**
 * Units of measure and price lists, as GP's Inventory keeps them: one unit of measure schedule per
 * unit the items sell in (IV40201, named after its base unit, as GP's own sample company does), its
 * units with their quantity in the base unit (IV40202), the price levels customers and items name
 * (IV40800), and every item's price per level and unit (IV00108, one quantity band, every currency).
 * A sales line's unit must be in its item's schedule and its price level must exist and price the
 * item in that unit (taSopLineIvcInsert 5313, 928, 9177): these rows are what the stand-in checks.
 * Built from the items alone, with no random draws, so the other tables are as before.
 */
import type { ItemRef } from './items.ts';
import { rowTimestamp } from './clock.ts';
import { ONE, roundToCents, units } from './money.ts';
import type { TableWriter } from './tableWriter.ts';
import { PRICE_LEVELS } from './vocabulary.ts';

/** The larger unit each base unit is also sold in, and how many base units it holds. */
const LARGER_UNIT: Readonly<Record<string, { unit: string; quantity: number }>> = {
  EACH: { unit: 'CASE', quantity: 12 },
  BOX: { unit: 'CARTON', quantity: 10 },
  HOUR: { unit: 'DAY', quantity: 8 },
};

const LEVEL_NAMES: Readonly<Record<(typeof PRICE_LEVELS)[number], string>> = {
  RETAIL: 'Retail price list',
  WHOLESALE: 'Wholesale price list',
  EXTPRCLVL: 'Extended pricing',
};

/** The wholesale price, a share of the list price. */
const WHOLESALE_PERCENT = 85n;
/** GP's largest "to quantity": the one band covers every quantity. */
const EVERY_QUANTITY = units(999_999_999_999n);

export interface WritePriceListsOptions {
  items: readonly ItemRef[];
  schedules: TableWriter;
  units: TableWriter;
  levels: TableWriter;
  prices: TableWriter;
  /** The date the price levels were created and last changed. */
  createdOn: string;
}

/** When the setup rows were last changed (DEX_ROW_TS): the morning of the setup date. */
const SETUP_ROW_TS = rowTimestamp(Date.UTC(2023, 11, 15, 9));

export function writePriceLists({ items, schedules, units: unitRows, levels, prices, createdOn }: WritePriceListsOptions): void {
  const baseUnits = [...new Set(items.map((item) => item.uom))].sort();
  for (const base of baseUnits) {
    schedules.insert({ UOMSCHDL: base, UMSCHDSC: `${base} schedule`, NOTEINDX: 0n, BASEUOFM: base, UMDPQTYS: 1, DEX_ROW_TS: SETUP_ROW_TS });
    unitRows.insert({
      UOMSCHDL: base,
      UOFM: base,
      SEQNUMBR: 1,
      EQUIVUOM: base,
      EQUOMQTY: ONE,
      QTYBSUOM: ONE,
      UOFMLONGDESC: '',
      DEX_ROW_TS: SETUP_ROW_TS,
    });
    const larger = LARGER_UNIT[base];
    if (larger) {
      const quantity = units(larger.quantity);
      unitRows.insert({
        UOMSCHDL: base,
        UOFM: larger.unit,
        SEQNUMBR: 2,
        EQUIVUOM: base,
        EQUOMQTY: quantity,
        QTYBSUOM: quantity,
        UOFMLONGDESC: '',
        DEX_ROW_TS: SETUP_ROW_TS,
      });
    }
  }
  for (const level of PRICE_LEVELS)
    levels.insert({
      PRCLEVEL: level,
      DSCRIPTN: LEVEL_NAMES[level],
      NOTEINDX: 0n,
      CREATDDT: createdOn,
      MODIFDT: createdOn,
      DEX_ROW_TS: SETUP_ROW_TS,
    });
  for (const item of items) {
    const larger = LARGER_UNIT[item.uom];
    const wholesale = roundToCents((item.listPrice * WHOLESALE_PERCENT) / 100n);
    const price = (level: string, unit: string, perBase: bigint, quantity: bigint) =>
      prices.insert({
        ITEMNMBR: item.id,
        CURNCYID: '',
        PRCLEVEL: level,
        UOFM: unit,
        TOQTY: EVERY_QUANTITY,
        FROMQTY: ONE,
        UOMPRICE: (perBase * quantity) / ONE,
        QTYBSUOM: quantity,
        DEX_ROW_TS: SETUP_ROW_TS,
      });
    price('RETAIL', item.uom, item.listPrice, ONE);
    if (larger) price('RETAIL', larger.unit, item.listPrice, units(larger.quantity));
    // Wholesale prices the base unit only: a case at the wholesale level is GP's 9177.
    price('WHOLESALE', item.uom, wholesale, ONE);
  }
}
