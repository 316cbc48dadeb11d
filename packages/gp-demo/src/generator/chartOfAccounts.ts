/**
 * The chart of accounts (GL00100 + GL00105), in the install's account framework (one ACTNUMBR_n
 * column per segment). In a framework of three or four segments, account numbers use three:
 * department-main-division (000-1100-00), the layout of GP's Fabrikam sample (with four segments the
 * fourth column is blank). In one of five or more they use every segment, the last a location, and each
 * department's account exists at two locations (100-6100-00-00-01 and …-02): accounts then differ in
 * their last segment only, as they do in multi-location charts. Roles name the accounts the
 * journal-entry templates post to.
 */
import { accountSegmentNames, gpDate, type AccountFramework } from '@gp-gateway/gp-schema';
import { dateOnly, rowTimestamp, timelineTimestamp } from './clock.ts';
import type { Rng } from './prng.ts';
import type { TableWriter } from './tableWriter.ts';

export type AccountRole =
  | 'cash'
  | 'payrollCash'
  | 'receivables'
  | 'inventory'
  | 'prepaidInsurance'
  | 'accumulatedDepreciation'
  | 'payables'
  | 'salesTax'
  | 'withholding'
  | 'accruedSalaries'
  | 'retainedEarnings'
  | 'productSales'
  | 'serviceSales'
  | 'freightIncome'
  | 'salesDiscounts'
  | 'costOfGoods'
  | 'inventoryVariance'
  | 'salaries'
  | 'payrollTaxExpense'
  | 'depreciation'
  | 'insurance'
  | 'bankCharges'
  | 'interestExpense'
  | 'purchases';

export interface Account {
  index: number;
  number: string;
  /** The department segment ('000' for company-wide accounts) and the main account segment. */
  department: string;
  main: string;
  description: string;
  /** 0 Balance Sheet, 1 Profit and Loss (PSTNGTYP). */
  postingType: 0 | 1;
  /** 1 Posting, 2 Unit (ACCTTYPE); unit accounts never receive money lines. */
  accountType: 1 | 2;
  active: boolean;
  role?: AccountRole;
  /** Opening balance in cents at go-live, debit positive (balance sheet only). */
  openingCents?: number;
}

interface AccountTemplate {
  main: string;
  description: string;
  category: number;
  postingType: 0 | 1;
  typicalBalance: 0 | 1;
  alias?: string;
  role?: AccountRole;
  /** Department segments; P&L expenses exist per department. */
  departments?: readonly string[];
  inactive?: boolean;
  unit?: boolean;
  openingCents?: number;
}

const DEPARTMENTS: Record<string, string> = { '100': 'Administration', '200': 'Sales', '300': 'Operations' };
const EXPENSE_DEPARTMENTS = Object.keys(DEPARTMENTS);

const DEBIT = 0;
const CREDIT = 1;
const BS = 0;
const PL = 1;

// Categories follow GP's default account categories (GL00102): 1 Cash, 3 Accounts Receivable, ...
const TEMPLATES: readonly AccountTemplate[] = [
  {
    main: '1100',
    description: 'Cash - Operating Account',
    category: 1,
    postingType: BS,
    typicalBalance: DEBIT,
    alias: 'CASH',
    role: 'cash',
    openingCents: 18_500_000,
  },
  {
    main: '1110',
    description: 'Cash - Payroll',
    category: 1,
    postingType: BS,
    typicalBalance: DEBIT,
    role: 'payrollCash',
    openingCents: 2_500_000,
  },
  { main: '1120', description: 'Cash - Canadian Bank', category: 1, postingType: BS, typicalBalance: DEBIT, openingCents: 1_200_000 },
  { main: '1130', description: 'Petty Cash - Warehouse', category: 1, postingType: BS, typicalBalance: DEBIT, inactive: true },
  { main: '1140', description: 'Petty Cash', category: 1, postingType: BS, typicalBalance: DEBIT, openingCents: 50_000 },
  {
    main: '1200',
    description: 'Accounts Receivable',
    category: 3,
    postingType: BS,
    typicalBalance: DEBIT,
    alias: 'AR',
    role: 'receivables',
    openingCents: 24_000_000,
  },
  {
    main: '1210',
    description: 'Allowance for Doubtful Accounts',
    category: 3,
    postingType: BS,
    typicalBalance: CREDIT,
    openingCents: -1_200_000,
  },
  {
    main: '1300',
    description: 'Inventory',
    category: 5,
    postingType: BS,
    typicalBalance: DEBIT,
    alias: 'INV',
    role: 'inventory',
    openingCents: 31_000_000,
  },
  { main: '1310', description: 'Inventory - Consigned', category: 5, postingType: BS, typicalBalance: DEBIT, openingCents: 2_150_050 },
  {
    main: '1400',
    description: 'Prepaid Insurance',
    category: 7,
    postingType: BS,
    typicalBalance: DEBIT,
    role: 'prepaidInsurance',
    openingCents: 1_200_000,
  },
  { main: '1410', description: 'Prepaid Rent', category: 7, postingType: BS, typicalBalance: DEBIT, openingCents: 600_000 },
  { main: '1500', description: 'Land', category: 9, postingType: BS, typicalBalance: DEBIT, openingCents: 15_000_000 },
  { main: '1510', description: 'Buildings', category: 9, postingType: BS, typicalBalance: DEBIT, openingCents: 62_000_000 },
  { main: '1520', description: 'Furniture and Fixtures', category: 9, postingType: BS, typicalBalance: DEBIT, openingCents: 8_500_000 },
  { main: '1530', description: 'Computer Equipment', category: 9, postingType: BS, typicalBalance: DEBIT, openingCents: 6_400_000 },
  { main: '1540', description: 'Vehicles', category: 9, postingType: BS, typicalBalance: DEBIT, openingCents: 4_800_000 },
  {
    main: '1600',
    description: 'Accumulated Depreciation - Buildings',
    category: 10,
    postingType: BS,
    typicalBalance: CREDIT,
    openingCents: -12_400_000,
  },
  {
    main: '1610',
    description: 'Accumulated Depreciation - Equipment',
    category: 10,
    postingType: BS,
    typicalBalance: CREDIT,
    role: 'accumulatedDepreciation',
    openingCents: -6_100_000,
  },
  { main: '1700', description: 'Goodwill', category: 11, postingType: BS, typicalBalance: DEBIT, openingCents: 2_500_000 },
  { main: '1800', description: 'Security Deposits', category: 12, postingType: BS, typicalBalance: DEBIT, openingCents: 350_000 },
  {
    main: '2100',
    description: 'Accounts Payable',
    category: 13,
    postingType: BS,
    typicalBalance: CREDIT,
    alias: 'AP',
    role: 'payables',
    openingCents: -17_500_000,
  },
  { main: '2110', description: 'Accrued Purchases', category: 13, postingType: BS, typicalBalance: CREDIT, openingCents: -800_000 },
  {
    main: '2200',
    description: 'Notes Payable - Old Line of Credit',
    category: 14,
    postingType: BS,
    typicalBalance: CREDIT,
    inactive: true,
  },
  { main: '2210', description: 'Notes Payable', category: 14, postingType: BS, typicalBalance: CREDIT, openingCents: -5_000_000 },
  {
    main: '2300',
    description: 'Sales Tax Payable',
    category: 16,
    postingType: BS,
    typicalBalance: CREDIT,
    role: 'salesTax',
    openingCents: -1_400_000,
  },
  {
    main: '2310',
    description: 'Federal Withholding Payable',
    category: 16,
    postingType: BS,
    typicalBalance: CREDIT,
    role: 'withholding',
    openingCents: -950_000,
  },
  {
    main: '2400',
    description: 'Accrued Salaries',
    category: 21,
    postingType: BS,
    typicalBalance: CREDIT,
    role: 'accruedSalaries',
    openingCents: -2_200_000,
  },
  { main: '2410', description: 'Accrued Interest', category: 17, postingType: BS, typicalBalance: CREDIT, openingCents: -150_000 },
  { main: '2500', description: 'Customer Deposits', category: 21, postingType: BS, typicalBalance: CREDIT, openingCents: -420_000 },
  { main: '2700', description: 'Long-Term Debt', category: 22, postingType: BS, typicalBalance: CREDIT, openingCents: -40_000_000 },
  { main: '3000', description: 'Common Stock', category: 23, postingType: BS, typicalBalance: CREDIT, openingCents: -50_000_000 },
  {
    main: '3100',
    description: 'Additional Paid-in Capital',
    category: 25,
    postingType: BS,
    typicalBalance: CREDIT,
    openingCents: -10_000_000,
  },
  // Its opening balance is whatever makes the opening entry balance.
  {
    main: '3300',
    description: 'Retained Earnings',
    category: 31,
    postingType: BS,
    typicalBalance: CREDIT,
    alias: 'RE',
    role: 'retainedEarnings',
  },
  { main: '9000', description: 'Headcount', category: 12, postingType: BS, typicalBalance: DEBIT, unit: true },
  {
    main: '4100',
    description: 'Sales - Products',
    category: 32,
    postingType: PL,
    typicalBalance: CREDIT,
    alias: 'SALES',
    role: 'productSales',
  },
  { main: '4110', description: 'Sales - Services', category: 32, postingType: PL, typicalBalance: CREDIT, role: 'serviceSales' },
  { main: '4200', description: 'Sales Returns and Allowances', category: 33, postingType: PL, typicalBalance: DEBIT },
  { main: '4300', description: 'Sales Discounts', category: 33, postingType: PL, typicalBalance: DEBIT, role: 'salesDiscounts' },
  { main: '4500', description: 'Freight Income', category: 41, postingType: PL, typicalBalance: CREDIT, role: 'freightIncome' },
  { main: '4900', description: 'Interest Income', category: 41, postingType: PL, typicalBalance: CREDIT },
  {
    main: '5100',
    description: 'Cost of Goods Sold',
    category: 34,
    postingType: PL,
    typicalBalance: DEBIT,
    alias: 'COGS',
    role: 'costOfGoods',
  },
  { main: '5110', description: 'Freight In', category: 34, postingType: PL, typicalBalance: DEBIT, role: 'purchases' },
  { main: '5200', description: 'Inventory Variance', category: 34, postingType: PL, typicalBalance: DEBIT, role: 'inventoryVariance' },
  {
    main: '6100',
    description: 'Salaries and Wages',
    category: 37,
    postingType: PL,
    typicalBalance: DEBIT,
    role: 'salaries',
    departments: EXPENSE_DEPARTMENTS,
  },
  {
    main: '6110',
    description: 'Payroll Taxes',
    category: 38,
    postingType: PL,
    typicalBalance: DEBIT,
    role: 'payrollTaxExpense',
    departments: EXPENSE_DEPARTMENTS,
  },
  {
    main: '6120',
    description: 'Employee Benefits',
    category: 38,
    postingType: PL,
    typicalBalance: DEBIT,
    role: 'purchases',
    departments: EXPENSE_DEPARTMENTS,
  },
  {
    main: '6200',
    description: 'Rent Expense',
    category: 36,
    postingType: PL,
    typicalBalance: DEBIT,
    role: 'purchases',
    departments: EXPENSE_DEPARTMENTS,
  },
  {
    main: '6210',
    description: 'Utilities',
    category: 36,
    postingType: PL,
    typicalBalance: DEBIT,
    role: 'purchases',
    departments: EXPENSE_DEPARTMENTS,
  },
  {
    main: '6300',
    description: 'Office Supplies',
    category: 36,
    postingType: PL,
    typicalBalance: DEBIT,
    role: 'purchases',
    departments: EXPENSE_DEPARTMENTS,
  },
  {
    main: '6310',
    description: 'Telephone',
    category: 36,
    postingType: PL,
    typicalBalance: DEBIT,
    role: 'purchases',
    departments: EXPENSE_DEPARTMENTS,
  },
  {
    main: '6400',
    description: 'Travel and Entertainment',
    category: 35,
    postingType: PL,
    typicalBalance: DEBIT,
    role: 'purchases',
    departments: EXPENSE_DEPARTMENTS,
  },
  {
    main: '6410',
    description: 'Advertising',
    category: 35,
    postingType: PL,
    typicalBalance: DEBIT,
    role: 'purchases',
    departments: EXPENSE_DEPARTMENTS,
  },
  {
    main: '6500',
    description: 'Depreciation Expense',
    category: 36,
    postingType: PL,
    typicalBalance: DEBIT,
    role: 'depreciation',
    departments: EXPENSE_DEPARTMENTS,
  },
  {
    main: '6600',
    description: 'Insurance Expense',
    category: 36,
    postingType: PL,
    typicalBalance: DEBIT,
    role: 'insurance',
    departments: EXPENSE_DEPARTMENTS,
  },
  {
    main: '6700',
    description: 'Repairs and Maintenance',
    category: 36,
    postingType: PL,
    typicalBalance: DEBIT,
    role: 'purchases',
    departments: EXPENSE_DEPARTMENTS,
  },
  {
    main: '6800',
    description: 'Professional Fees',
    category: 36,
    postingType: PL,
    typicalBalance: DEBIT,
    role: 'purchases',
    departments: EXPENSE_DEPARTMENTS,
  },
  {
    main: '6900',
    description: 'Postage Expense',
    category: 36,
    postingType: PL,
    typicalBalance: DEBIT,
    role: 'purchases',
    departments: ['100', '200'],
  },
  {
    main: '6910',
    description: 'Dues and Subscriptions - Old',
    category: 36,
    postingType: PL,
    typicalBalance: DEBIT,
    departments: ['100'],
    inactive: true,
  },
  { main: '7100', description: 'Interest Expense', category: 39, postingType: PL, typicalBalance: DEBIT, role: 'interestExpense' },
  { main: '7200', description: 'Bank Charges', category: 42, postingType: PL, typicalBalance: DEBIT, role: 'bankCharges' },
  { main: '8100', description: 'Income Tax Expense', category: 40, postingType: PL, typicalBalance: DEBIT },
];

const GO_LIVE_SETUP_DATE = gpDate('2023-12-15');

/** Frameworks of at least this many segments give the last one to a location (see the file's header). */
const LOCATION_FROM_SEGMENTS = 5;
const LOCATIONS: Record<string, string> = { '01': '', '02': ' (2)' };

/** The segments of one account, as many as the framework has, and the formatted number (ACTNUMST). */
function accountNumber(segmentCount: number, department: string, main: string, location: string): { segments: string[]; number: string } {
  if (segmentCount < 3) throw new RangeError(`the demo's chart of accounts needs at least 3 segments, not ${segmentCount}`);
  if (segmentCount < LOCATION_FROM_SEGMENTS) {
    const segments = [department, main, '00', ...Array.from({ length: segmentCount - 3 }, () => '')];
    return { segments, number: segments.slice(0, 3).join('-') };
  }
  const segments = [department, main, ...Array.from({ length: segmentCount - 3 }, () => '00'), location];
  return { segments, number: segments.join('-') };
}

export function writeChartOfAccounts(
  rng: Rng,
  framework: AccountFramework,
  glAccounts: TableWriter,
  accountNumbers: TableWriter,
): Account[] {
  const accounts: Account[] = [];
  const segmentCount = framework.segmentLengths.length;
  const columns = accountSegmentNames(segmentCount);
  const locations = segmentCount >= LOCATION_FROM_SEGMENTS ? Object.keys(LOCATIONS) : [''];
  const expanded = TEMPLATES.flatMap((template) =>
    (template.departments ?? ['000']).flatMap((department) =>
      (department === '000' ? ['00'] : locations).map((location) => ({ template, department, location })),
    ),
  );
  expanded.forEach(({ template, department, location }, i) => {
    const index = i + 1;
    const { segments, number } = accountNumber(segmentCount, department, template.main, location);
    const departmentName = DEPARTMENTS[department];
    const description =
      (departmentName ? `${template.description} - ${departmentName}` : template.description) + (LOCATIONS[location] ?? '');
    // Most accounts were set up before go-live and touched rarely since; some were edited later.
    const rowTsMs = timelineTimestamp(rng, rng.chance(0.8) ? (i / expanded.length) * 0.05 : rng.next());
    const segmentColumns = Object.fromEntries(columns.map((column, s) => [column, segments[s]]));
    glAccounts.insert({
      ACTINDX: index,
      ...segmentColumns,
      ACTALIAS: department === '000' ? (template.alias ?? '') : '',
      ACCTTYPE: template.unit ? 2 : 1,
      ACTDESCR: description,
      PSTNGTYP: template.postingType,
      ACCATNUM: template.category,
      ACTIVE: template.inactive ? 0 : 1,
      TPCLBLNC: template.typicalBalance,
      CREATDDT: GO_LIVE_SETUP_DATE,
      MODIFDT: dateOnly(rowTsMs),
      DEX_ROW_TS: rowTimestamp(rowTsMs),
    });
    accountNumbers.insert({ ACTINDX: index, ...segmentColumns, ACTNUMST: number });
    accounts.push({
      index,
      number,
      department,
      main: template.main,
      description,
      postingType: template.postingType,
      accountType: template.unit ? 2 : 1,
      active: !template.inactive,
      ...(template.role ? { role: template.role } : {}),
      ...(template.openingCents !== undefined ? { openingCents: template.openingCents } : {}),
    });
  });
  return accounts;
}

/** Lookups the journal-entry templates need; fails fast if a role has no account. */
export class ChartOfAccounts {
  readonly all: readonly Account[];
  readonly #byRole = new Map<AccountRole, Account[]>();

  constructor(accounts: readonly Account[]) {
    this.all = accounts;
    for (const account of accounts) {
      if (!account.role || !account.active || account.accountType !== 1) continue;
      const list = this.#byRole.get(account.role) ?? [];
      list.push(account);
      this.#byRole.set(account.role, list);
    }
  }

  /** The first active posting account with the role (balance sheet roles have exactly one). */
  one(role: AccountRole): Account {
    const account = this.#byRole.get(role)?.[0];
    if (!account) throw new Error(`the chart of accounts has no active ${role} account`);
    return account;
  }

  /** A random active posting account with the role (e.g. an expense in some department). */
  any(rng: Rng, role: AccountRole): Account {
    const list = this.#byRole.get(role);
    if (!list || list.length === 0) throw new Error(`the chart of accounts has no active ${role} account`);
    return rng.pick(list);
  }
}
