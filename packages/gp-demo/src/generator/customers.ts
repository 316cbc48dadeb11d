/**
 * Customers (RM00101) and their addresses (RM00102). Every customer has a PRIMARY address and up
 * to two more; ADRSCODE/PRBTADCD/PRSTADCD/STADDRCD always name one of its own address codes, and
 * the address copy on RM00101 is the PRIMARY address, as GP keeps it.
 */
import { toScaled } from '@gp-gateway/gp-schema';
import { dateOnly, rowTimestamp, timelineTimestamp } from './clock.ts';
import type { PhaseProgress } from './progress.ts';
import type { Rng } from './prng.ts';
import type { TableWriter } from './tableWriter.ts';
import {
  BUSINESS_WORDS,
  CHECKBOOKS,
  CURRENCY_OF_REGION,
  EXTRA_ADDRESS_CODES,
  FIRST_NAMES,
  LAST_NAMES,
  NAME_SUFFIXES,
  NAME_WORDS,
  PAYMENT_TERMS,
  PLACES,
  PRICE_LEVELS,
  SALESPEOPLE,
  SHIPPING_METHODS,
  SITES,
  STREET_KINDS,
  STREET_NAMES,
  TAX_SCHEDULE_OF_REGION,
} from './vocabulary.ts';
import type { AddressRef, Place, RegionCode } from './vocabulary.ts';
import { MasterIdAllocator } from './masterIds.ts';

/** What the general ledger and the documents need to know about a customer. */
export interface CustomerRef {
  id: string;
  name: string;
  currencyId: string;
  inactive: boolean;
  hold: boolean;
  /** National account parent (CPRCSTNM), blank if none. */
  parentId: string;
  paymentTermsId: string;
  salespersonId: string;
  territoryId: string;
  shippingMethod: string;
  taxScheduleId: string;
  priceLevel: string;
  billToCode: string;
  shipTo: CustomerAddressRef;
}

/** A customer address as documents copy it (SOP headers and lines carry the ship-to address). */
export interface CustomerAddressRef extends AddressRef {
  /** Default site (LOCNCODE), blank when the address has none. */
  site: string;
}

export interface WriteCustomersOptions {
  rng: Rng;
  count: number;
  customers: TableWriter;
  addresses: TableWriter;
  progress: PhaseProgress;
}

const EARLIEST_CREATED_MS = Date.UTC(2012, 0, 1);
const CREDIT_LIMITS = ['1000', '2500', '5000', '10000', '25000', '50000', '100000'] as const;

interface Address {
  code: string;
  contact: string;
  lines: [string, string, string];
  place: Place;
  zip: string;
  phone1: string;
  phone2: string;
  fax: string;
  shippingMethod: string;
  site: string;
  rowTsMs: number;
}

export function writeCustomers({ rng, count, customers, addresses, progress }: WriteCustomersOptions): CustomerRef[] {
  const ids = new MasterIdAllocator();
  const written: CustomerRef[] = [];
  for (let i = 0; i < count; i++) {
    const region = rng.weighted<RegionCode>([
      ['US', 85],
      ['CA', 10],
      ['EU', 5],
    ]);
    const home = rng.pick(PLACES.filter((p) => p.region === region));
    const name = `${rng.pick(NAME_WORDS)} ${rng.pick(BUSINESS_WORDS)}${rng.weighted(NAME_SUFFIXES)}`;
    const id = ids.next(name);
    const currencyId = CURRENCY_OF_REGION[region];
    const salesperson = rng.chance(0.08) ? undefined : rng.pick(SALESPEOPLE);
    const shippingMethod = rng.chance(0.1) ? '' : rng.pick(SHIPPING_METHODS);
    const taxScheduleId = rng.chance(0.1) ? '' : rng.pick(TAX_SCHEDULE_OF_REGION[region]);
    const inactive = rng.chance(0.02);

    // Timestamps follow the customer's position in insert order, loosely (see clock.ts).
    const fraction = (i + rng.next()) / count;
    const addressList = makeAddresses(rng, home, shippingMethod, fraction);
    const primary = addressList[0] as Address;
    const codes = new Set(addressList.map((a) => a.code));
    const billTo = codes.has('BILL TO') ? 'BILL TO' : 'PRIMARY';
    const shipTo = codes.has('SHIP TO') ? 'SHIP TO' : codes.has('WAREHOUSE') ? 'WAREHOUSE' : 'PRIMARY';
    // GP bumps the customer's DEX_ROW_TS whenever an address changes, so it is never older.
    const rowTsMs = Math.max(timelineTimestamp(rng, fraction), ...addressList.map((a) => a.rowTsMs));
    const createdMs = rng.chance(0.75) ? rng.int(EARLIEST_CREATED_MS, rowTsMs) : undefined;
    const created = createdMs === undefined ? undefined : dateOnly(createdMs);
    const creditType = rng.weighted([
      [0, 10],
      [1, 20],
      [2, 70],
    ] as const);
    const parent = written.length > 0 && rng.chance(0.03) ? rng.pick(written) : undefined;

    // Built as one literal, in the same order as ever, so the random draws inside stay in sequence.
    const row = {
      CUSTNMBR: id,
      CUSTNAME: name,
      CUSTCLAS: rng.chance(0.03) ? '' : customerClass(region, home, rng.int(1, 3)),
      CPRCSTNM: parent?.id ?? '',
      CNTCPRSN: primary.contact,
      STMTNAME: rng.chance(0.03) ? '' : name,
      SHRTNAME: rng.chance(0.15) ? '' : name.slice(0, 15).trimEnd(),
      ADRSCODE: 'PRIMARY',
      SHIPMTHD: shippingMethod,
      TAXSCHID: taxScheduleId,
      ...addressColumns(primary),
      PRBTADCD: billTo,
      PRSTADCD: shipTo,
      STADDRCD: billTo,
      SLPRSNID: salesperson?.id ?? '',
      CHEKBKID: rng.chance(0.5) ? rng.pick(CHECKBOOKS) : '',
      PYMTRMID: rng.weighted(PAYMENT_TERMS),
      CRLMTTYP: creditType,
      CRLMTAMT: creditType === 2 ? creditLimit(rng) : 0n,
      CURNCYID: currencyId,
      PRCLEVEL: rng.chance(0.3) ? '' : rng.pick(PRICE_LEVELS),
      CUSTDISC: rng.weighted([
        [0, 85],
        [250, 10],
        [500, 5],
      ] as const),
      SALSTERR: salesperson && !rng.chance(0.05) ? salesperson.territory : '',
      INACTIVE: inactive ? 1 : 0,
      HOLD: rng.chance(0.03) ? 1 : 0,
      CREATDDT: created,
      MODIFDT: rng.chance(0.7) ? dateOnly(rowTsMs) : undefined,
      DEX_ROW_TS: rowTimestamp(rowTsMs),
    };
    customers.insert(row);

    for (const address of addressList) {
      addresses.insert({
        CUSTNMBR: id,
        ADRSCODE: address.code,
        SLPRSNID: salesperson?.id ?? '',
        SHIPMTHD: address.shippingMethod,
        TAXSCHID: taxScheduleId,
        CNTCPRSN: address.contact,
        ...addressColumns(address),
        LOCNCODE: address.site,
        SALSTERR: salesperson?.territory ?? '',
        ShipToName: address.code === 'SHIP TO' ? name : '',
        CREATDDT: created,
        MODIFDT: rng.chance(0.7) ? dateOnly(address.rowTsMs) : undefined,
        DEX_ROW_TS: rowTimestamp(address.rowTsMs),
      });
    }
    progress.tick(1 + addressList.length);
    const shipToAddress = addressList.find((a) => a.code === shipTo) ?? primary;
    written.push({
      id,
      name,
      currencyId,
      inactive,
      hold: row.HOLD === 1,
      parentId: row.CPRCSTNM,
      paymentTermsId: row.PYMTRMID,
      salespersonId: row.SLPRSNID,
      territoryId: row.SALSTERR,
      shippingMethod,
      taxScheduleId,
      priceLevel: row.PRCLEVEL,
      billToCode: billTo,
      shipTo: {
        code: shipToAddress.code,
        contact: shipToAddress.contact,
        lines: shipToAddress.lines,
        city: shipToAddress.place.city,
        state: shipToAddress.place.state,
        zip: shipToAddress.zip,
        country: shipToAddress.place.country,
        countryCode: shipToAddress.place.countryCode,
        phone: shipToAddress.phone1,
        site: shipToAddress.site,
      },
    });
  }
  return written;
}

/** The address columns RM00101 (for its primary address) and RM00102 both hold. */
function addressColumns(address: Address) {
  return {
    ADDRESS1: address.lines[0],
    ADDRESS2: address.lines[1],
    ADDRESS3: address.lines[2],
    COUNTRY: address.place.country,
    CITY: address.place.city,
    STATE: address.place.state,
    ZIP: address.zip,
    PHONE1: address.phone1,
    PHONE2: address.phone2,
    FAX: address.fax,
    CCode: address.place.countryCode,
  };
}

function makeAddresses(rng: Rng, home: Place, shippingMethod: string, fraction: number): Address[] {
  const extraCount = rng.weighted([
    [0, 45],
    [1, 35],
    [2, 20],
  ] as const);
  const extraCodes = [...EXTRA_ADDRESS_CODES].filter(() => rng.chance(0.67)).slice(0, extraCount);
  const primaryContact = rng.chance(0.1) ? '' : personName(rng);
  return ['PRIMARY', ...extraCodes].map((code) => {
    // Extra addresses are mostly in the home city, sometimes elsewhere in the same region.
    const place = code === 'PRIMARY' || rng.chance(0.7) ? home : rng.pick(PLACES.filter((p) => p.region === home.region));
    const suite = rng.chance(0.2) ? `Suite ${rng.int(1, 9)}${rng.int(0, 9)}0` : '';
    const line3 = rng.chance(0.03) ? (code === 'BILL TO' ? 'Attn: Accounts Payable' : `Building ${rng.pick(['A', 'B', 'C'])}`) : '';
    return {
      code,
      contact: code === 'PRIMARY' ? primaryContact : rng.chance(0.3) ? primaryContact : personName(rng),
      lines: [`${rng.int(1, 9999)} ${rng.pick(STREET_NAMES)} ${rng.pick(STREET_KINDS)}`, suite, line3],
      place,
      zip: place.postalCode(rng.int(0, 99999)),
      phone1: rng.chance(0.05) ? '' : phoneNumber(rng, place),
      phone2: rng.chance(0.7) ? '' : phoneNumber(rng, place),
      fax: rng.chance(0.6) ? '' : phoneNumber(rng, place),
      shippingMethod: code === 'PRIMARY' || rng.chance(0.5) ? shippingMethod : rng.pick(SHIPPING_METHODS),
      site: code === 'WAREHOUSE' || code === 'SHIP TO' ? rng.pick(SITES) : '',
      rowTsMs: timelineTimestamp(rng, fraction),
    } satisfies Address;
  });
}

function customerClass(region: RegionCode, home: Place, tier: number): string {
  if (region === 'US') return `USA-${home.classRegion}-T${tier}`;
  return `${region === 'CA' ? 'CANADA' : 'EUROPE'}-T${tier}`;
}

/** Mostly round limits; a few with cents so decimals show up in the API. */
function creditLimit(rng: Rng): bigint {
  if (rng.chance(0.05)) return BigInt(rng.int(100_000, 5_000_000)) * 1000n;
  return toScaled(rng.pick(CREDIT_LIMITS));
}

/** 14 digits as GP stores them: 10-digit number plus a 4-digit extension (usually 0000). */
export function phoneNumber(rng: Rng, place: Place): string {
  const number = `${place.phonePrefix}555${String(rng.int(0, 9999)).padStart(4, '0')}`.slice(0, 10);
  const extension = rng.chance(0.1) ? String(rng.int(1, 9999)).padStart(4, '0') : '0000';
  return number + extension;
}

export function personName(rng: Rng): string {
  return `${rng.pick(FIRST_NAMES)} ${rng.pick(LAST_NAMES)}`;
}
