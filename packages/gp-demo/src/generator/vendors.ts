/**
 * Vendors (PM00200) and their addresses (PM00300). The first vendors are the fixed ones the
 * general ledger's purchasing entries name (VENDORS), then a few with awkward data, then generated
 * ones. Every vendor has a PRIMARY address and at most one more (REMIT TO or PURCHASE); the
 * address codes on PM00200 always name one of its own addresses.
 */
import type { ChartOfAccounts } from './chartOfAccounts.ts';
import { dateOnly, rowTimestamp, timelineTimestamp } from './clock.ts';
import { personName, phoneNumber } from './customers.ts';
import { randomAmount } from './money.ts';
import type { PhaseProgress } from './progress.ts';
import type { Rng } from './prng.ts';
import type { TableWriter } from './tableWriter.ts';
import {
  CURRENCY_OF_REGION,
  NAME_SUFFIXES,
  NAME_WORDS,
  PLACES,
  SHIPPING_METHODS,
  SPECIAL_VENDORS,
  STREET_KINDS,
  STREET_NAMES,
  TAX_SCHEDULE_OF_REGION,
  VENDOR_BUSINESS_WORDS,
  VENDOR_CLASSES,
  VENDOR_PAYMENT_TERMS,
  VENDORS,
} from './vocabulary.ts';
import type { AddressRef, Place, RegionCode } from './vocabulary.ts';
import { MasterIdAllocator } from './masterIds.ts';

export const VENDORS_PER_SCALE = 150;

export interface VendorAddressRef extends AddressRef {
  fax: string;
}

export interface VendorRef {
  id: string;
  name: string;
  checkName: string;
  currencyId: string;
  /** VENDSTTS: 1 Active, 2 Inactive, 3 Temporary. */
  status: 1 | 2 | 3;
  hold: boolean;
  classId: string;
  paymentTermsId: string;
  ten99Type: number;
  ten99Box: number;
  taxScheduleId: string;
  shippingMethod: string;
  checkbookId: string;
  remitToCode: string;
  purchaseAddress: VendorAddressRef;
}

export interface WriteVendorsOptions {
  rng: Rng;
  count: number;
  chart: ChartOfAccounts;
  vendors: TableWriter;
  addresses: TableWriter;
  progress: PhaseProgress;
}

const EARLIEST_CREATED_MS = Date.UTC(2010, 0, 1);

export function writeVendors({ rng, count, chart, vendors, addresses, progress }: WriteVendorsOptions): VendorRef[] {
  const ids = new MasterIdAllocator([...VENDORS.map((v) => v.id), ...SPECIAL_VENDORS.map((v) => v.id)]);
  const fixed = [
    ...VENDORS.map((v) => ({ id: v.id, name: v.name, region: 'US' as RegionCode, special: false })),
    ...SPECIAL_VENDORS.map((v) => ({ id: v.id, name: v.name, region: v.region as RegionCode, special: true })),
  ];
  const written: VendorRef[] = [];
  for (let i = 0; i < count; i++) {
    const given = fixed[i];
    const region =
      given?.region ??
      rng.weighted<RegionCode>([
        ['US', 85],
        ['CA', 10],
        ['EU', 5],
      ]);
    const name = given?.name ?? `${rng.pick(NAME_WORDS)} ${rng.pick(VENDOR_BUSINESS_WORDS)}${rng.weighted(NAME_SUFFIXES)}`;
    const id = given?.id ?? ids.next(name);
    const oneTime = given?.special === true && id === 'ONETIME0001';
    const home = rng.pick(PLACES.filter((p) => p.region === region));
    const fraction = (i + rng.next()) / count;

    const extraCode = oneTime
      ? undefined
      : rng.weighted<string | undefined>([
          [undefined, 55],
          ['REMIT TO', 33],
          ['PURCHASE', 12],
        ]);
    const primary = makeAddress(rng, 'PRIMARY', home, fraction, oneTime);
    const addressList = extraCode
      ? [
          primary,
          makeAddress(rng, extraCode, rng.chance(0.7) ? home : rng.pick(PLACES.filter((p) => p.region === region)), fraction, false),
        ]
      : [primary];
    const purchase = addressList.find((a) => a.ref.code === 'PURCHASE') ?? primary;
    const remitTo = addressList.find((a) => a.ref.code === 'REMIT TO') ?? primary;

    // The general ledger's vendors are still in business (their vouchers run to the demo's today).
    const status = oneTime
      ? 3
      : given && !given.special
        ? 1
        : rng.weighted<1 | 2 | 3>([
            [1, 86],
            [2, 9],
            [3, 5],
          ]);
    const ten99Type = oneTime
      ? 1
      : rng.weighted([
          [1, 70],
          [4, 12],
          [5, 8],
          [2, 4],
          [3, 6],
        ] as const);
    const ten99Box = ten99Type === 1 ? 0 : ten99Type === 4 ? rng.pick([1, 3, 6]) : 1;
    const currencyId = CURRENCY_OF_REGION[region];
    const classId = oneTime || rng.chance(0.05) ? '' : rng.pick(VENDOR_CLASSES);
    const paymentTermsId = oneTime ? '' : rng.weighted(VENDOR_PAYMENT_TERMS);
    const taxScheduleId = oneTime || rng.chance(0.3) ? '' : rng.pick(TAX_SCHEDULE_OF_REGION[region]);
    const shippingMethod = rng.chance(0.2) ? '' : rng.pick(SHIPPING_METHODS);
    const checkbookId = oneTime ? '' : region === 'CA' && rng.chance(0.6) ? 'CANADIAN BANK' : rng.chance(0.85) ? 'UPTOWN TRUST' : '';
    const hold = !oneTime && rng.chance(0.04);
    const checkName = rng.chance(0.1) ? `${name.replace(/ (Inc\.|LLC|Co\.|Corp\.|Ltd\.)$/, '')}, Accounts Receivable`.slice(0, 64) : name;
    const rowTsMs = timelineTimestamp(rng, fraction);
    const createdMs = rng.chance(0.8) ? rng.int(EARLIEST_CREATED_MS, rowTsMs) : undefined;
    const usesOwnAccounts = rng.chance(0.4);

    vendors.insert({
      VENDORID: id,
      VENDNAME: name,
      VNDCHKNM: checkName,
      VENDSHNM: rng.chance(0.1) ? '' : name.slice(0, 15).trimEnd(),
      VADDCDPR: 'PRIMARY',
      VADCDPAD: purchase.ref.code,
      VADCDSFR: 'PRIMARY',
      VADCDTRO: remitTo.ref.code,
      VNDCLSID: classId,
      ...addressColumns(primary),
      SHIPMTHD: shippingMethod,
      TAXSCHID: taxScheduleId,
      ACNMVNDR: rng.chance(0.4) ? `C${rng.int(10000, 999999)}` : '',
      TXIDNMBR: ten99Type > 1 ? `${rng.int(10, 99)}-${rng.int(1000000, 9999999)}` : '',
      VENDSTTS: status,
      CURNCYID: currencyId,
      TEN99TYPE: ten99Type,
      TEN99BOXNUMBER: ten99Box,
      MINORDER: rng.chance(0.1) ? randomAmount(rng, 50, 500) : 0n,
      PYMTRMID: paymentTermsId,
      COMMENT1: rng.chance(0.08)
        ? rng.pick(['Call before delivery', 'Requires PO on invoice', 'Net terms renegotiated', 'Prefers ACH'])
        : '',
      CRLMTDLR: rng.chance(0.2) ? randomAmount(rng, 5_000, 100_000) : 0n,
      KPCALHST: 1,
      KGLDSTHS: 1,
      KPERHIST: 1,
      KPTRXHST: 1,
      HOLD: hold ? 1 : 0,
      // CREDTLMT 0 No Credit, 1 Unlimited, 2 Amount; WRITEOFF 0 Not Allowed, 1 Unlimited, 2 Maximum.
      CREDTLMT: 1,
      WRITEOFF: 0,
      PMAPINDX: usesOwnAccounts ? chart.one('payables').index : 0,
      PMCSHIDX: usesOwnAccounts ? chart.one('cash').index : 0,
      PMPRCHIX: usesOwnAccounts ? chart.any(rng, 'purchases').index : 0,
      CHEKBKID: checkbookId,
      CREATDDT: createdMs === undefined ? undefined : dateOnly(createdMs),
      MODIFDT: rng.chance(0.8) ? dateOnly(rowTsMs) : undefined,
      DISGRPER: 0,
      DUEGRPER: 0,
      CCode: home.countryCode,
      VADCD1099: ten99Type > 1 ? remitTo.ref.code : '',
      DEX_ROW_TS: rowTimestamp(rowTsMs),
    });

    for (const address of addressList) {
      const email = address.ref.code === 'PURCHASE' || rng.chance(0.15);
      addresses.insert({
        VENDORID: id,
        ADRSCODE: address.ref.code,
        ...addressColumns(address),
        SHIPMTHD: shippingMethod,
        TAXSCHID: taxScheduleId,
        EmailPOs: email ? 1 : 0,
        POEmailRecipient: email ? `orders@${id.slice(0, 8).toLowerCase()}.example.com` : '',
        CCode: home.countryCode,
        DEX_ROW_TS: rowTimestamp(address.rowTsMs),
      });
    }
    progress.tick(1 + addressList.length);
    written.push({
      id,
      name,
      checkName,
      currencyId,
      status,
      hold,
      classId,
      paymentTermsId,
      ten99Type,
      ten99Box,
      taxScheduleId,
      shippingMethod,
      checkbookId,
      remitToCode: remitTo.ref.code,
      purchaseAddress: purchase.ref,
    });
  }
  return written;
}

interface GeneratedAddress {
  ref: VendorAddressRef;
  phone2: string;
  rowTsMs: number;
}

/** The address columns PM00200 (for its primary address) and PM00300 both hold. */
function addressColumns(address: GeneratedAddress) {
  return {
    VNDCNTCT: address.ref.contact,
    ADDRESS1: address.ref.lines[0],
    ADDRESS2: address.ref.lines[1],
    ADDRESS3: address.ref.lines[2],
    CITY: address.ref.city,
    STATE: address.ref.state,
    ZIPCODE: address.ref.zip,
    COUNTRY: address.ref.country,
    PHNUMBR1: address.ref.phone,
    PHNUMBR2: address.phone2,
    FAXNUMBR: address.ref.fax,
  };
}

function makeAddress(rng: Rng, code: string, place: Place, fraction: number, sparse: boolean): GeneratedAddress {
  const suite = rng.chance(0.15) ? `Suite ${rng.int(100, 999)}` : '';
  const line3 = code === 'REMIT TO' && rng.chance(0.4) ? 'Attn: Accounts Receivable' : '';
  return {
    ref: {
      code,
      contact: sparse || rng.chance(0.1) ? '' : personName(rng),
      lines: sparse
        ? ['', '', '']
        : code === 'REMIT TO' && rng.chance(0.3)
          ? [`P.O. Box ${rng.int(100, 99999)}`, '', line3]
          : [`${rng.int(1, 9999)} ${rng.pick(STREET_NAMES)} ${rng.pick(STREET_KINDS)}`, suite, line3],
      city: place.city,
      state: place.state,
      zip: sparse ? '' : place.postalCode(rng.int(0, 99999)),
      country: place.country,
      countryCode: place.countryCode,
      phone: sparse || rng.chance(0.05) ? '' : phoneNumber(rng, place),
      fax: rng.chance(0.6) ? '' : phoneNumber(rng, place),
    },
    phone2: rng.chance(0.8) ? '' : phoneNumber(rng, place),
    rowTsMs: timelineTimestamp(rng, fraction),
  };
}
