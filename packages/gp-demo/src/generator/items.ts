/**
 * Items (IV00101) and item quantities (IV00102). Inventory items (types 1 Sales Inventory and 2
 * Discontinued) have one RCRDTYPE 2 row per site that stocks them and one RCRDTYPE 1 row (blank
 * LOCNCODE) holding the sum of those site rows, column by column, as GP keeps them. Kits, services,
 * misc charges and flat fees have no quantity rows. Kits list 2-4 inventory components.
 */
import { GP_EMPTY_DATE } from '@gp-gateway/gp-schema';
import type { ChartOfAccounts } from './chartOfAccounts.ts';
import { DAY_MS, DEMO_TIMELINE_END_MS, businessTimeOfDayMs, clampToTimeline, dateOnly, rowTimestamp, timelineTimestamp } from './clock.ts';
import { CENT, ONE, cents, randomAmount, roundToCents, sum, units } from './money.ts';
import type { PhaseProgress } from './progress.ts';
import type { Rng } from './prng.ts';
import type { TableWriter } from './tableWriter.ts';
import type { VendorRef } from './vendors.ts';
import { ITEM_ADJECTIVES, ITEM_COLORS, ITEM_FAMILIES, SITE_DETAILS } from './vocabulary.ts';

export const ITEMS_PER_SCALE = 300;

/** ITEMTYPE: 1 Sales Inventory, 2 Discontinued, 3 Kit, 4 Misc Charges, 5 Services, 6 Flat Fee. */
export type ItemType = 1 | 2 | 3 | 4 | 5 | 6;

export interface ItemRef {
  id: string;
  description: string;
  type: ItemType;
  classId: string;
  uom: string;
  /** CURRCOST, scaled. */
  currentCost: bigint;
  /** Selling price per unit, scaled (whole cents except a few sub-cent components). */
  listPrice: bigint;
  /** ITMTRKOP: 1 None, 2 Serial Numbers, 3 Lot Numbers. */
  tracking: 1 | 2 | 3;
  inactive: boolean;
  taxScheduleId: string;
  /** Quantities may have two decimals (services by the hour, lot-tracked supplies). */
  fractionalQuantities: boolean;
  sites: readonly string[];
  primaryVendorId: string;
  components: readonly { item: ItemRef; quantity: bigint }[];
}

const FAMILY_WEIGHTS: Record<string, number> = {
  ACCESSORY: 18,
  COMPONENTS: 18,
  PHONES: 12,
  SYSTEMS: 6,
  SUPPLIES: 10,
  SERVICES: 12,
  MISC: 6,
  FEES: 6,
  KITS: 6,
};

const ACTIVE_SITES: readonly string[] = SITE_DETAILS.filter((s) => !s.inactive).map((s) => s.id);
const CLOSED_SITES: readonly string[] = SITE_DETAILS.filter((s) => s.inactive).map((s) => s.id);
const EARLIEST_CREATED_MS = Date.UTC(2015, 0, 1);

export interface WriteItemsOptions {
  rng: Rng;
  count: number;
  chart: ChartOfAccounts;
  vendors: readonly VendorRef[];
  items: TableWriter;
  quantities: TableWriter;
  progress: PhaseProgress;
}

interface Draft {
  ref: ItemRef;
  family: (typeof ITEM_FAMILIES)[number];
  shortName: string;
  genericDescription: string;
  standardCost: bigint;
  valuation: number;
  createdMs: number;
  rowTsMs: number;
}

export function writeItems({ rng, count, chart, vendors, items, quantities, progress }: WriteItemsOptions): ItemRef[] {
  const families = ITEM_FAMILIES.map((family) => [family, FAMILY_WEIGHTS[family.classId] ?? 1] as const);
  const suppliers = vendors.filter((v) => v.status !== 2 && v.classId !== 'UTILITIES' && v.classId !== 'INSURANCE');
  const drafts: Draft[] = [];
  for (let i = 0; i < count; i++) {
    const family = rng.weighted(families);
    const inventory = family.type === 1;
    const discontinued = inventory && rng.chance(0.05);
    const type: ItemType = discontinued ? 2 : family.type;
    const noun = rng.pick(family.nouns);
    const adjective = rng.pick(ITEM_ADJECTIVES);
    const color = (family.classId === 'ACCESSORY' || family.classId === 'PHONES') && rng.chance(0.35) ? rng.pick(ITEM_COLORS) : undefined;
    const id = `${family.prefix}-${10001 + i}${color ? `-${color[0]}` : ''}`;
    const description = `${adjective} ${noun}${color ? `, ${color[1]}` : ''}`;
    const fineCost = 'fineCost' in family && family.fineCost && rng.chance(0.25);
    const currentCost = inventory
      ? fineCost
        ? BigInt(rng.int(500, 99_999))
        : randomAmount(rng, family.minCost / 100, family.maxCost / 100)
      : family.type === 5
        ? randomAmount(rng, family.minCost / 100, family.maxCost / 100)
        : 0n;
    const listPrice = inventory
      ? fineCost
        ? currentCost * 2n
        : priceFromCost(currentCost, rng.int(130, 250))
      : family.type === 5
        ? roundToCents(currentCost * 2n)
        : family.type === 4 || family.type === 6
          ? randomAmount(rng, 10, 600)
          : 0n;
    const tracking: 1 | 2 | 3 = !inventory
      ? 1
      : (family.classId === 'PHONES' || family.classId === 'SYSTEMS') && rng.chance(0.3)
        ? 2
        : (family.classId === 'SUPPLIES' || family.classId === 'COMPONENTS') && rng.chance(0.2)
          ? 3
          : 1;
    const sites = inventory ? pickSites(rng, discontinued) : [];
    const createdMs = rng.int(EARLIEST_CREATED_MS, Date.UTC(2023, 11, 1));
    const rowTsMs = timelineTimestamp(rng, discontinued ? rng.next() * 0.5 : rng.next());
    drafts.push({
      ref: {
        id,
        description,
        type,
        classId: family.classId,
        uom: family.uom,
        currentCost,
        listPrice,
        tracking,
        inactive: (discontinued && rng.chance(0.5)) || rng.chance(0.02),
        taxScheduleId: family.type === 5 || family.type === 6 ? '' : 'USASTE-PS6N0',
        fractionalQuantities: family.type === 5 || tracking === 3,
        sites,
        primaryVendorId: inventory && suppliers.length > 0 ? rng.pick(suppliers).id : '',
        components: [],
      },
      family,
      shortName: noun.slice(0, 15).trimEnd(),
      genericDescription: noun.split(' ')[0]?.slice(0, 10) ?? '',
      standardCost: currentCost === 0n || rng.chance(0.6) ? currentCost : roundToCents((currentCost * BigInt(rng.int(95, 105))) / 100n),
      valuation: rng.chance(0.7) ? 1 : 3,
      createdMs,
      rowTsMs,
    });
  }

  // Kits are made of active stocked items, so a kit line can always explode into component lines.
  const stocked = drafts.filter((d) => d.ref.type === 1 && !d.ref.inactive).map((d) => d.ref);
  for (const draft of drafts.filter((d) => d.ref.type === 3)) {
    const components = new Map<string, { item: ItemRef; quantity: bigint }>();
    const wanted = Math.min(stocked.length, rng.int(2, 4));
    while (components.size < wanted) {
      const item = rng.pick(stocked);
      components.set(item.id, { item, quantity: units(rng.int(1, 4)) });
    }
    const parts = [...components.values()];
    draft.ref.components = parts;
    draft.ref.currentCost = sum(parts.map((p) => roundToCents((p.item.currentCost * p.quantity) / ONE)));
    draft.standardCost = draft.ref.currentCost;
    draft.ref.listPrice = roundToCents((sum(parts.map((p) => (p.item.listPrice * p.quantity) / ONE)) * 90n) / 100n);
  }

  const inventoryAccount = chart.one('inventory').index;
  const costAccount = chart.one('costOfGoods').index;
  const salesAccount = chart.one('productSales').index;
  const serviceAccount = chart.one('serviceSales').index;
  for (const draft of drafts) {
    const { ref } = draft;
    const inventory = ref.type === 1 || ref.type === 2;
    const siteRows = inventory ? ref.sites.map((site) => siteQuantities(rng, ref, site)) : [];
    const lastActivityMs = Math.max(0, ...siteRows.map((r) => r.activityMs));
    // IV00102 changes bump the item's DEX_ROW_TS, so a stocked item is at least as new as its last receipt.
    const rowTsMs = clampToTimeline(Math.max(draft.rowTsMs, lastActivityMs));
    items.insert({
      ITEMNMBR: ref.id,
      ITEMDESC: ref.description,
      ITMSHNAM: draft.shortName,
      ITEMTYPE: ref.type,
      ITMGEDSC: draft.genericDescription,
      STNDCOST: draft.standardCost,
      CURRCOST: ref.currentCost,
      ITEMSHWT: inventory ? rng.int(10, 5000) : 0,
      // GP stores decimal places plus one: 1 = none, 3 = two.
      DECPLQTY: ref.fractionalQuantities ? 3 : 1,
      DECPLCUR: ref.listPrice % CENT === 0n ? 3 : 6,
      ITMTSHID: ref.taxScheduleId,
      // TAXOPTNS: 1 Taxable, 2 Nontaxable, 3 Base on customers.
      TAXOPTNS: ref.taxScheduleId ? 1 : 2,
      IVIVINDX: inventory ? inventoryAccount : 0,
      IVCOGSIX: inventory || ref.type === 3 ? costAccount : 0,
      IVSLSIDX: ref.type === 5 || ref.type === 6 ? serviceAccount : salesAccount,
      ITMCLSCD: ref.classId,
      ITMTRKOP: ref.tracking,
      LOTTYPE: ref.tracking === 3 ? 'LOT' : '',
      KPERHIST: 1,
      KPTRXHST: 1,
      KPCALHST: 1,
      KPDSTHST: 1,
      ALWBKORD: inventory ? 1 : 0,
      // VCTNMTHD: 1 FIFO Perpetual, 3 Average Perpetual.
      VCTNMTHD: inventory ? draft.valuation : 1,
      UOMSCHDL: ref.uom,
      USCATVLS_1: rng.chance(0.3) ? rng.pick(['NEW', 'CLEARANCE', 'SEASONAL']) : '',
      MODIFDT: dateOnly(rowTsMs),
      CREATDDT: dateOnly(draft.createdMs),
      WRNTYDYS: ref.classId === 'PHONES' || ref.classId === 'SYSTEMS' ? 365 : 0,
      PRCLEVEL: rng.chance(0.6) ? 'RETAIL' : '',
      LOCNCODE: inventory ? 'WAREHOUSE' : '',
      PRICMTHD: 1,
      PRCHSUOM: ref.uom,
      SELNGUOM: ref.uom,
      ABCCODE: inventory ? rng.pick([1, 2, 3]) : 0,
      CNTRYORGN: inventory && rng.chance(0.3) ? rng.pick(['US', 'CN', 'MX', 'DE', 'TW']) : '',
      INACTIVE: ref.inactive ? 1 : 0,
      Lot_Split_Quantity: 0n,
      DEX_ROW_TS: rowTimestamp(rowTsMs),
    });
    if (siteRows.length > 0) {
      quantities.insert(overallRow(ref, siteRows));
      for (const row of siteRows) quantities.insert(row.row);
    }
    progress.tick(1 + (siteRows.length > 0 ? siteRows.length + 1 : 0));
  }
  return drafts.map((d) => d.ref);
}

/** A price at `markupPercent` of cost, ending in .99 when above five dollars (GP-style price lists). */
function priceFromCost(cost: bigint, markupPercent: number): bigint {
  const priceCents = (cost * BigInt(markupPercent)) / 100n / CENT;
  return priceCents > 500n ? cents((priceCents / 100n) * 100n + 99n) : cents(priceCents > 0n ? priceCents : 1n);
}

function pickSites(rng: Rng, discontinued: boolean): string[] {
  const sites = ['WAREHOUSE', ...ACTIVE_SITES.filter((s) => s !== 'WAREHOUSE' && rng.chance(discontinued ? 0.15 : 0.45))];
  // A few items still carry rows for the closed site (all zero), as real installs do.
  if (rng.chance(0.03)) sites.push(...CLOSED_SITES);
  return sites;
}

/** The quantity columns of IV00102 that the RCRDTYPE 1 row sums. */
const QUANTITY_COLUMNS = [
  'BGNGQTY',
  'QTYRQSTN',
  'QTYONORD',
  'QTYBKORD',
  'QTY_Drop_Shipped',
  'QTYINUSE',
  'QTYINSVC',
  'QTYRTRND',
  'QTYDMGED',
  'QTYONHND',
  'ATYALLOC',
  'QTYCOMTD',
  'QTYSOLD',
] as const;

type QuantityRow = Record<string, string | number | bigint | undefined>;

interface SiteRow {
  row: QuantityRow;
  activityMs: number;
}

function siteQuantities(rng: Rng, item: ItemRef, site: string): SiteRow {
  const closed = CLOSED_SITES.includes(site);
  const quantity = (max: number) => {
    if (closed || max <= 0) return 0n;
    const whole = Math.floor(max ** rng.next());
    return item.fractionalQuantities && rng.chance(0.3) ? units(whole) + BigInt(rng.int(1, 99)) * CENT : units(whole);
  };
  const onHand = item.type === 2 ? quantity(40) : quantity(400);
  const allocated = onHand === 0n ? 0n : ((onHand * BigInt(rng.int(0, 30))) / 100n / ONE) * ONE;
  const receiptMs = closed ? 0 : DEMO_TIMELINE_END_MS - rng.int(1, 200) * DAY_MS;
  const orderMs = closed ? 0 : receiptMs - rng.int(3, 30) * DAY_MS;
  const countedMs = closed ? 0 : DEMO_TIMELINE_END_MS - rng.int(10, 300) * DAY_MS;
  const dayOf = (ms: number) => (ms === 0 ? GP_EMPTY_DATE : dateOnly(ms));
  const ordered = closed ? 0n : units(rng.int(5, 200));
  const row: QuantityRow = {
    ITEMNMBR: item.id,
    LOCNCODE: site,
    BINNMBR: closed || !rng.chance(0.4) ? '' : `${String.fromCharCode(65 + rng.int(0, 5))}-${rng.int(1, 40)}-${rng.int(1, 6)}`,
    RCRDTYPE: 2,
    PRIMVNDR: item.primaryVendorId,
    BGNGQTY: quantity(300),
    LSORDQTY: ordered,
    LRCPTQTY: ordered,
    LSTORDDT: dayOf(orderMs),
    LSORDVND: closed ? '' : item.primaryVendorId,
    LSRCPTDT: dayOf(receiptMs),
    QTYRQSTN: 0n,
    QTYONORD: item.type === 2 || !rng.chance(0.5) ? 0n : quantity(200),
    QTYBKORD: rng.chance(0.1) ? quantity(20) : 0n,
    QTY_Drop_Shipped: rng.chance(0.05) ? quantity(10) : 0n,
    QTYINUSE: 0n,
    QTYINSVC: 0n,
    QTYRTRND: rng.chance(0.05) ? quantity(5) : 0n,
    QTYDMGED: rng.chance(0.03) ? quantity(3) : 0n,
    QTYONHND: onHand,
    ATYALLOC: allocated,
    QTYCOMTD: 0n,
    QTYSOLD: quantity(2000),
    NXTCNTDT: closed ? GP_EMPTY_DATE : dateOnly(countedMs + 365 * DAY_MS),
    LSTCNTDT: dayOf(countedMs),
    STCKCNTINTRVL: closed ? 0 : 365,
    ORDERPOLICY: closed ? 0 : 1,
    ORDRPNTQTY: closed ? 0n : units(rng.int(0, 50)),
    ORDRUPTOLVL: closed ? 0n : units(rng.int(50, 300)),
    SFTYSTCKQTY: closed ? 0n : units(rng.int(0, 20)),
    INACTIVE: closed ? 1 : 0,
  };
  return { row, activityMs: receiptMs === 0 ? 0 : receiptMs + businessTimeOfDayMs(rng) };
}

/** The all-sites row: every quantity column is the sum of the site rows; dates are the latest. */
function overallRow(item: ItemRef, sites: readonly SiteRow[]): QuantityRow {
  const total = (column: string) => sum(sites.map((s) => s.row[column] as bigint));
  const latest = (column: string) => sites.map((s) => s.row[column] as string).reduce((a, b) => (b > a ? b : a), GP_EMPTY_DATE);
  const lastOrder = sites.reduce<SiteRow | undefined>(
    (best, s) => (!best || (s.row.LSTORDDT as string) > (best.row.LSTORDDT as string) ? s : best),
    undefined,
  );
  return {
    ITEMNMBR: item.id,
    LOCNCODE: '',
    RCRDTYPE: 1,
    PRIMVNDR: item.primaryVendorId,
    ...Object.fromEntries(QUANTITY_COLUMNS.map((column) => [column, total(column)])),
    LSORDQTY: lastOrder?.row.LSORDQTY as bigint,
    LRCPTQTY: lastOrder?.row.LRCPTQTY as bigint,
    LSTORDDT: latest('LSTORDDT'),
    LSORDVND: lastOrder?.row.LSORDVND as string,
    LSRCPTDT: latest('LSRCPTDT'),
    LSTCNTDT: latest('LSTCNTDT'),
  };
}
