/**
 * Purchase orders: POP10100/POP10110 (open: new, released, change order, a few received) and
 * POP30100/POP30110 (history: received, closed, canceled). Lines carry ORD in steps of 16384 and
 * LineNumber 1..n; EXTDCOST = (QTYORDER - QTYCANCE) x UNITCOST rounded to cents, and SUBTOTAL is
 * the sum of the lines' EXTDCOST (CANCSUB the canceled part). There is no total column: GP computes
 * SUBTOTAL - TRDISAMT + FRTAMNT + MSCCHAMT + TAXAMNT. A few lines are non-inventoried items
 * (NONINVEN 1) whose ITEMNMBR is not in IV00101, as GP allows.
 */
import { GP_EMPTY_DATE } from '@gp-gateway/gp-schema';
import { DAY_MS, DEMO_TIMELINE_START_MS, businessTimeOfDayMs, dateOnly, dayStartMs, pastTimestamp, rowTimestamp } from './clock.ts';
import type { DemoCompany } from './companies.ts';
import type { CustomerRef } from './customers.ts';
import type { ItemRef } from './items.ts';
import {
  CENT,
  DEMO_TODAY_MS,
  FUNCTIONAL_CURRENCY,
  ONE,
  currencyIndex,
  dueDateMs,
  extend,
  fromFunctional,
  percentOf,
  randomAmount,
  roundToCents,
  sum,
  units,
} from './money.ts';
import type { PhaseProgress } from './progress.ts';
import type { Rng } from './prng.ts';
import type { TableWriter } from './tableWriter.ts';
import type { VendorRef } from './vendors.ts';
import { POSTING_USERS, SITE_DETAILS } from './vocabulary.ts';

export const PURCHASE_ORDERS_PER_SCALE = 150;

/** POSTATUS: 1 New, 2 Released, 3 Change Order, 4 Received, 5 Closed, 6 Canceled. */
type PoStatus = 1 | 2 | 3 | 4 | 5 | 6;

const NON_INVENTORY = [
  { id: 'OFFICE SUPPLIES', description: 'Office supplies - misc' },
  { id: 'JANITORIAL', description: 'Janitorial supplies' },
  { id: 'SAFETY EQUIPMENT', description: 'Safety glasses and gloves' },
  { id: 'FREIGHT-IN', description: 'Inbound freight charge' },
] as const;

const BUYERS = ['PURCHASING', 'JSMITH', 'MCHEN', ''] as const;

interface PoLine {
  itemId: string;
  description: string;
  vendorItem: string;
  nonInventory: boolean;
  uom: string;
  site: string;
  tracking: number;
  quantity: bigint;
  canceled: bigint;
  unitCost: bigint;
  status: PoStatus;
}

export interface WritePurchaseOrdersOptions {
  rng: Rng;
  scale: number;
  company: DemoCompany;
  vendors: readonly VendorRef[];
  items: readonly ItemRef[];
  customers: readonly CustomerRef[];
  open: { headers: TableWriter; lines: TableWriter };
  history: { headers: TableWriter; lines: TableWriter };
  progress: PhaseProgress;
}

export function writePurchaseOrders({
  rng,
  scale,
  company,
  vendors,
  items,
  customers,
  open,
  history,
  progress,
}: WritePurchaseOrdersOptions): void {
  const usable = vendors.filter((v) => v.status !== 2 && !v.hold);
  const stocked = items.filter((i) => i.type === 1 && !i.inactive);
  const everStocked = items.filter((i) => i.type === 1 || i.type === 2);
  const shipCustomers = customers.filter((c) => !c.inactive);
  const warehouse = SITE_DETAILS[0];
  if (usable.length === 0 || stocked.length === 0) throw new Error('purchase orders need vendors and stocked items');

  const plans = Array.from({ length: PURCHASE_ORDERS_PER_SCALE * scale }, () => {
    const isOpen = rng.chance(0.35);
    const documentMs = isOpen
      ? DEMO_TODAY_MS - rng.int(0, 90) * DAY_MS
      : dayStartMs(DEMO_TIMELINE_START_MS + Math.floor(rng.next() * (DEMO_TODAY_MS - 30 * DAY_MS - DEMO_TIMELINE_START_MS)));
    return { isOpen, documentMs };
  });
  plans.sort((a, b) => a.documentMs - b.documentMs);

  plans.forEach(({ isOpen, documentMs }, index) => {
    const status: PoStatus = isOpen
      ? rng.weighted([
          [1, 30],
          [2, 55],
          [3, 10],
          [4, 5],
        ] as const)
      : rng.weighted([
          [5, 80],
          [6, 15],
          [4, 5],
        ] as const);
    const poType = rng.weighted([
      [1, 80],
      [2, 8],
      [3, 8],
      [4, 4],
    ] as const);
    const dropShip = poType === 2 || poType === 4;
    const vendor = rng.pick(isOpen || documentMs >= Date.UTC(2026, 0, 1) ? usable : vendors);
    const currencyId = vendor.currencyId;
    const convert = (functional: bigint) => (currencyId === FUNCTIONAL_CURRENCY ? functional : fromFunctional(functional, currencyId));
    const customer = dropShip ? rng.pick(shipCustomers) : undefined;
    const number = `PO${String(2001 + index).padStart(5, '0')}`;
    const user = rng.pick(POSTING_USERS);
    const promisedMs = documentMs + rng.int(7, 30) * DAY_MS;
    const requiredMs = documentMs + rng.int(5, 25) * DAY_MS;

    const lineCount = rng.weighted([
      [1, 30],
      [2, 25],
      [3, 20],
      [4, 15],
      [5, 10],
    ] as const);
    const lines: PoLine[] = [];
    for (let l = 0; l < lineCount; l++) {
      const lineStatus: PoStatus = status === 3 ? rng.pick([2, 3] as const) : status;
      if (rng.chance(0.08)) {
        const other = rng.pick(NON_INVENTORY);
        const quantity = units(rng.int(1, 20));
        lines.push({
          itemId: other.id,
          description: other.description,
          vendorItem: '',
          nonInventory: true,
          uom: 'EACH',
          site: dropShip ? '' : 'WAREHOUSE',
          tracking: 1,
          quantity,
          canceled: status === 6 ? quantity : 0n,
          unitCost: randomAmount(rng, 5, 300),
          status: lineStatus,
        });
        continue;
      }
      const item = rng.pick(isOpen ? stocked : everStocked);
      const quantity =
        item.currentCost < CENT
          ? units(rng.int(10, 100) * 100)
          : item.currentCost > 1000n * ONE
            ? units(rng.int(1, 5))
            : units(rng.int(1, 120));
      const unitCost =
        item.currentCost < CENT ? item.currentCost : roundToCents((item.currentCost * BigInt(rng.int(92, 106))) / 100n) || item.currentCost;
      // Closed orders sometimes had part of a line canceled; canceled orders cancel everything.
      const canceled = status === 6 ? quantity : status === 5 && rng.chance(0.1) ? units(Math.floor(Number(quantity / ONE) / 2)) : 0n;
      const activeSites = item.sites.filter((s) => s !== 'OLDWHSE');
      lines.push({
        itemId: item.id,
        description: item.description,
        vendorItem: rng.chance(0.5) ? `${vendor.id.slice(0, 4)}-${item.id.replace(/-/g, '').slice(-6)}` : item.id,
        nonInventory: false,
        uom: item.uom,
        site: rng.pick(activeSites.length > 0 ? activeSites : ['WAREHOUSE']),
        tracking: item.tracking,
        quantity,
        canceled,
        unitCost,
        status: status === 5 && canceled === quantity ? 6 : lineStatus,
      });
    }

    const extended = lines.map((l) => extend(l.quantity - l.canceled, l.unitCost));
    const originatingCost = lines.map((l) => convert(l.unitCost) || l.unitCost);
    const originatingExtended = lines.map((l, i) => extend(l.quantity - l.canceled, originatingCost[i] as bigint));
    const subtotal = sum(extended);
    const originatingSubtotal = sum(originatingExtended);
    const canceledSubtotal = sum(lines.map((l) => extend(l.canceled, l.unitCost)));
    const taxRate = currencyId === FUNCTIONAL_CURRENCY && vendor.taxScheduleId && rng.chance(0.5) ? rng.pick([500, 625, 825]) : 0;
    const tax = percentOf(subtotal, taxRate);
    const freight = subtotal > 0n && rng.chance(0.25) ? randomAmount(rng, 20, 400) : 0n;
    const misc = subtotal > 0n && rng.chance(0.05) ? randomAmount(rng, 5, 100) : 0n;
    const tradePercent = subtotal > 0n && rng.chance(0.05) ? rng.pick([200, 300, 500]) : 0;
    const tradeDiscount = percentOf(subtotal, tradePercent);
    const remaining = status <= 3 ? subtotal : 0n;
    const touchedMs = isOpen
      ? pastTimestamp(
          rng,
          documentMs + rng.int(0, Math.max(0, Math.floor((DEMO_TODAY_MS - documentMs) / DAY_MS))) * DAY_MS + businessTimeOfDayMs(rng),
        )
      : pastTimestamp(rng, documentMs + rng.int(20, 120) * DAY_MS + businessTimeOfDayMs(rng));
    const received = status === 4 || status === 5;
    const receiptMs = Math.min(touchedMs, promisedMs + rng.int(-3, 10) * DAY_MS);
    const day = (ms: number) => dateOnly(ms);
    const target = isOpen ? open : history;

    const shipTo = customer?.shipTo;
    target.headers.insert({
      PONUMBER: number,
      POSTATUS: status,
      // STATGRP: 1 Active, 0 Voided/Canceled, 2 Closed.
      STATGRP: status === 6 ? 0 : status === 5 ? 2 : 1,
      POTYPE: poType,
      USER2ENT: user,
      CONFIRM1: rng.chance(0.3) ? rng.pick(['Phone', 'Email', 'Fax']) : '',
      DOCDATE: day(documentMs),
      LSTEDTDT: day(touchedMs),
      LSTPRTDT: status === 1 ? GP_EMPTY_DATE : day(documentMs),
      PRMDATE: day(promisedMs),
      PRMSHPDTE: day(promisedMs - 2 * DAY_MS),
      REQDATE: day(requiredMs),
      SHIPMTHD: vendor.shippingMethod,
      REMSUBTO: remaining,
      SUBTOTAL: subtotal,
      TRDISAMT: tradeDiscount,
      FRTAMNT: freight,
      MSCCHAMT: misc,
      TAXAMNT: tax,
      VENDORID: vendor.id,
      VENDNAME: vendor.name,
      VADCDPAD: vendor.purchaseAddress.code,
      CMPANYID: company.number,
      PRBTADCD: 'PRIMARY',
      PRSTADCD: shipTo ? shipTo.code : 'WAREHOUSE',
      CMPNYNAM: shipTo ? (customer?.name ?? '') : company.name,
      CONTACT: shipTo ? shipTo.contact : 'Receiving Dept.',
      ADDRESS1: shipTo ? shipTo.lines[0] : '2200 Industrial Pkwy',
      ADDRESS2: shipTo ? shipTo.lines[1] : '',
      ADDRESS3: shipTo ? shipTo.lines[2] : '',
      CITY: shipTo ? shipTo.city : (warehouse?.city ?? ''),
      STATE: shipTo ? shipTo.state : (warehouse?.state ?? ''),
      ZIPCODE: shipTo ? shipTo.zip : (warehouse?.zip ?? ''),
      CCode: shipTo ? shipTo.countryCode : 'US',
      COUNTRY: shipTo ? shipTo.country : 'USA',
      PHONE1: shipTo ? shipTo.phone : '',
      PYMTRMID: vendor.paymentTermsId,
      DUEDATE: day(dueDateMs(documentMs, vendor.paymentTermsId)),
      CUSTNMBR: customer?.id ?? '',
      TIMESPRT: status === 1 ? 0 : rng.int(1, 3),
      CREATDDT: day(documentMs),
      MODIFDT: day(touchedMs),
      CANCSUB: canceledSubtotal,
      CURNCYID: currencyId,
      CURRNIDX: currencyIndex(currencyId),
      EXCHDATE: currencyId === FUNCTIONAL_CURRENCY ? GP_EMPTY_DATE : day(documentMs),
      OREMSUBT: status <= 3 ? originatingSubtotal : 0n,
      ORSUBTOT: originatingSubtotal,
      Originating_Canceled_Sub: convert(canceledSubtotal),
      ORTDISAM: convert(tradeDiscount),
      ORFRTAMT: convert(freight),
      OMISCAMT: convert(misc),
      ORTAXAMT: convert(tax),
      BUYERID: rng.pick(BUYERS),
      ONORDAMT: isOpen ? remaining : undefined,
      ORORDAMT: isOpen ? (status <= 3 ? originatingSubtotal : 0n) : undefined,
      HOLD: isOpen ? (rng.chance(0.03) ? 1 : 0) : undefined,
      Revision_Number: status === 3 ? rng.int(1, 3) : 0,
      Change_Order_Flag: isOpen ? (status === 3 ? 1 : 0) : undefined,
      PO_Status_Orig: isOpen ? status : undefined,
      TAXSCHID: taxRate > 0 ? vendor.taxScheduleId : '',
      DEX_ROW_TS: rowTimestamp(touchedMs),
    });

    lines.forEach((line, i) => {
      target.lines.insert({
        PONUMBER: number,
        ORD: (i + 1) * 16384,
        POLNESTA: line.status,
        POTYPE: poType,
        ITEMNMBR: line.itemId,
        ITEMDESC: line.description,
        VENDORID: vendor.id,
        VNDITNUM: line.vendorItem,
        VNDITDSC: line.nonInventory ? '' : line.description,
        NONINVEN: line.nonInventory ? 1 : 0,
        LOCNCODE: line.site,
        UOFM: line.uom,
        UMQTYINB: ONE,
        QTYORDER: line.quantity,
        QTYCANCE: line.canceled,
        UNITCOST: line.unitCost,
        EXTDCOST: extended[i],
        REQDATE: day(requiredMs),
        PRMDATE: day(promisedMs),
        PRMSHPDTE: day(promisedMs - 2 * DAY_MS),
        REQSTDBY: rng.chance(0.3) ? rng.pick(['Warehouse', 'Service Dept', 'Sales']) : '',
        // DOCTYPE on a PO line: 1 Standard/Drop-Ship, 2 Blanket control line.
        DOCTYPE: 1,
        DECPLCUR: line.unitCost % CENT === 0n ? 3 : 6,
        DECPLQTY: 1,
        ITMTRKOP: line.tracking,
        VCTNMTHD: 1,
        CURNCYID: isOpen ? currencyId : undefined,
        CURRNIDX: currencyIndex(currencyId),
        ORUNTCST: originatingCost[i],
        OREXTCST: originatingExtended[i],
        ODECPLCU: 3,
        TAXAMNT: percentOf(extended[i] as bigint, taxRate),
        ORTAXAMT: convert(percentOf(extended[i] as bigint, taxRate)),
        SHIPMTHD: vendor.shippingMethod,
        LineNumber: i + 1,
        ORIGPRMDATE: day(promisedMs),
        FSTRCPTDT: received ? day(receiptMs) : GP_EMPTY_DATE,
        LSTRCPTDT: received ? day(receiptMs) : GP_EMPTY_DATE,
        ADRSCODE: shipTo ? shipTo.code : 'WAREHOUSE',
        // ADDRSOURCE: 1 Site, 2 Company, 3 Customer.
        ADDRSOURCE: shipTo ? 3 : 1,
        DEX_ROW_TS: rowTimestamp(Math.max(DEMO_TIMELINE_START_MS, touchedMs - 30 + i)),
      });
    });
    progress.tick(1 + lines.length);
  });
}
