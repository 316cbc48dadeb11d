/**
 * Word lists for realistic demo master data, in the style of GP's Fabrikam sample company.
 * Only the order matters for determinism: editing a list changes the generated data.
 */

export const NAME_WORDS = [
  'Aaron',
  'Adam',
  'Advanced',
  'Allenson',
  'Alpine',
  'American',
  'Arrow',
  'Associated',
  'Atlantic',
  'Aurora',
  'Bayview',
  'Benson',
  'Blue Sky',
  'Bright',
  'Brookside',
  'Canyon',
  'Capital',
  'Cardinal',
  'Cascade',
  'Central',
  'Century',
  'Cedar',
  'Clearwater',
  'Coastal',
  'Colonial',
  'Comfort',
  'Continental',
  'Crestview',
  'Crystal',
  'Delta',
  'Diamond',
  'Eagle',
  'Eastside',
  'Evergreen',
  'Fairway',
  'Falcon',
  'First Choice',
  'Frontier',
  'Garden',
  'Gateway',
  'Golden',
  'Grand',
  'Granite',
  'Great Lakes',
  'Greenfield',
  'Harbor',
  'Heartland',
  'Heritage',
  'Highland',
  'Horizon',
  'Independence',
  'Jefferson',
  'Keystone',
  'Lakeside',
  'Liberty',
  'Lincoln',
  'Magnolia',
  'Maple',
  'Meridian',
  'Midwest',
  "O'Malley",
  'Mountain',
  'National',
  'Northern',
  'Northwest',
  'Oak Tree',
  'Pacific',
  'Paramount',
  'Pinnacle',
  'Pioneer',
  'Plaza',
  'Premier',
  'Prairie',
  'Quality',
  'Redwood',
  'Regal',
  'Riverside',
  'Royal',
  'Sterling',
  'Summit',
  'Sunrise',
  'Superior',
  'Timberline',
  'Tri-County',
  'Union',
  'United',
  'Valley',
  'Victory',
  'Vista',
  'Westside',
  'Willow',
] as const;

export const BUSINESS_WORDS = [
  'Fitness',
  'Park Resort',
  'Paper Co.',
  'Properties',
  'Electric',
  'Technologies',
  'Hotel',
  'Bakery',
  'Bistro',
  'Clinic',
  'Motors',
  'Supply',
  'Outfitters',
  'Hardware',
  'Builders',
  'Dental Group',
  'Insurance',
  'Logistics',
  'Marine',
  'Media',
  'Office Products',
  'Pharmacy',
  'Printing',
  'Realty',
  'Sporting Goods',
  'Travel',
  'Wholesale',
  'Foods',
  'Furniture',
  'Gardens',
  'Health Center',
  'Industries',
  'Lumber',
  'Manufacturing',
  'Medical',
  'Plumbing',
  'Restaurant',
  'Schools',
  'Systems',
  'Telecom',
  'Audio Visual',
  'Cinemas',
  'Conference Center',
  'Event Rentals',
  'Graphics',
  'Laboratories',
  'Auto Body',
  'Cafe',
  'Boutique',
  'Academy',
] as const;

export const NAME_SUFFIXES = [
  ['', 10],
  [' Inc.', 4],
  [' LLC', 3],
  [' Co.', 1],
  [' Corp.', 1],
  [' Ltd.', 1],
  [' & Associates', 1],
] as const satisfies readonly (readonly [string, number])[];

export const FIRST_NAMES = [
  'Aaron',
  'Alicia',
  'Amy',
  'Andrew',
  'Angela',
  'Brian',
  'Carol',
  'Chris',
  'Daniel',
  'Deborah',
  'Diane',
  'Erin',
  'Frank',
  'Gary',
  'Greg',
  'Heather',
  'Ian',
  'Jacob',
  'Janet',
  'Jeff',
  'Jennifer',
  'John',
  'Karen',
  'Kevin',
  'Laura',
  'Linda',
  'Mark',
  'Mary',
  'Michael',
  'Nancy',
  'Patricia',
  'Paul',
  'Rachel',
  'Robert',
  'Sandra',
  'Scott',
  'Sharon',
  'Steven',
  'Susan',
  'Thomas',
] as const;

export const LAST_NAMES = [
  'Anderson',
  'Baker',
  'Barnes',
  'Bell',
  'Brooks',
  'Campbell',
  'Carter',
  'Clark',
  'Collins',
  'Cook',
  'Davis',
  'Edwards',
  'Evans',
  'Fischer',
  'Foster',
  'Garcia',
  'Gray',
  'Green',
  'Hall',
  'Harris',
  'Hughes',
  'Jackson',
  'Johnson',
  'Kelly',
  'King',
  'Lee',
  'Martin',
  'Miller',
  'Mitchell',
  'Morgan',
  'Murphy',
  'Nelson',
  'Parker',
  'Peterson',
  'Phillips',
  'Reed',
  'Roberts',
  'Russell',
  'Stewart',
  'Turner',
] as const;

export const STREET_NAMES = [
  'Oak',
  'Maple',
  'Main',
  'Lake',
  'Park',
  'Washington',
  'Lincoln',
  'Cedar',
  'Elm',
  'Pine',
  'Hill',
  'Ridge',
  'River',
  'Market',
  'Church',
  'Highland',
  'Sunset',
  'Meadow',
  'Industrial',
  'Commerce',
] as const;

export const STREET_KINDS = ['St.', 'Ave.', 'Blvd.', 'Rd.', 'Parkway', 'Dr.', 'Lane', 'Way'] as const;

export type RegionCode = 'US' | 'CA' | 'EU';

export interface Place {
  region: RegionCode;
  city: string;
  state: string;
  country: string;
  countryCode: string;
  /** Digits that start the phone number (area code or country+city code). */
  phonePrefix: string;
  /** Builds a postal code from random digits. */
  postalCode(digits: number): string;
  /** Customer class region part, e.g. ILMO in USA-ILMO-T1. */
  classRegion: string;
}

/** A customer's or vendor's address as documents copy it (ship-to, bill-from, remit-to). */
export interface AddressRef {
  code: string;
  contact: string;
  lines: readonly [string, string, string];
  city: string;
  state: string;
  zip: string;
  country: string;
  countryCode: string;
  phone: string;
}

const us = (city: string, state: string, zip3: string, area: string, classRegion: string): Place => ({
  region: 'US',
  city,
  state,
  country: 'USA',
  countryCode: 'US',
  phonePrefix: area,
  classRegion,
  postalCode: (digits) => {
    const zip = `${zip3}${String(digits % 100).padStart(2, '0')}`;
    return digits % 3 === 0 ? `${zip}-${String(digits % 10000).padStart(4, '0')}` : zip;
  },
});

const canada = (city: string, province: string, fsa: string, area: string): Place => ({
  region: 'CA',
  city,
  state: province,
  country: 'Canada',
  countryCode: 'CA',
  phonePrefix: area,
  classRegion: 'CAN',
  postalCode: (digits) => `${fsa} ${digits % 10}${String.fromCharCode(65 + (digits % 26))}${(digits >> 3) % 10}`,
});

const europe = (city: string, country: string, countryCode: string, phonePrefix: string, zip: (d: number) => string): Place => ({
  region: 'EU',
  city,
  state: '',
  country,
  countryCode,
  phonePrefix,
  classRegion: 'EUR',
  postalCode: zip,
});

export const PLACES: readonly Place[] = [
  us('Chicago', 'IL', '606', '312', 'ILMO'),
  us('Springfield', 'IL', '627', '217', 'ILMO'),
  us('Naperville', 'IL', '605', '630', 'ILMO'),
  us('St. Louis', 'MO', '631', '314', 'ILMO'),
  us('Kansas City', 'MO', '641', '816', 'ILMO'),
  us('Milwaukee', 'WI', '532', '414', 'MIDW'),
  us('Minneapolis', 'MN', '554', '612', 'MIDW'),
  us('Detroit', 'MI', '482', '313', 'MIDW'),
  us('Columbus', 'OH', '432', '614', 'MIDW'),
  us('Indianapolis', 'IN', '462', '317', 'MIDW'),
  us('Des Moines', 'IA', '503', '515', 'MIDW'),
  us('Denver', 'CO', '802', '303', 'SOWE'),
  us('Dallas', 'TX', '752', '214', 'SOWE'),
  us('Houston', 'TX', '770', '713', 'SOWE'),
  us('Phoenix', 'AZ', '850', '602', 'SOWE'),
  us('Seattle', 'WA', '981', '206', 'WEST'),
  us('Tacoma', 'WA', '984', '253', 'WEST'),
  us('Portland', 'OR', '972', '503', 'WEST'),
  us('San Diego', 'CA', '921', '619', 'WEST'),
  us('Atlanta', 'GA', '303', '404', 'EAST'),
  us('Boston', 'MA', '021', '617', 'EAST'),
  us('New York', 'NY', '100', '212', 'EAST'),
  us('Miami', 'FL', '331', '305', 'EAST'),
  canada('Toronto', 'ON', 'M5V', '416'),
  canada('Vancouver', 'BC', 'V6B', '604'),
  canada('Montreal', 'QC', 'H3B', '514'),
  canada('Calgary', 'AB', 'T2P', '403'),
  europe('Berlin', 'Germany', 'DE', '4930', (d) => `10${String(d % 1000).padStart(3, '0')}`),
  europe('Munich', 'Germany', 'DE', '4989', (d) => `80${String(d % 1000).padStart(3, '0')}`),
  europe('Paris', 'France', 'FR', '331', (d) => `750${String((d % 20) + 1).padStart(2, '0')}`),
  europe('Amsterdam', 'Netherlands', 'NL', '3120', (d) => `10${String(d % 100).padStart(2, '0')} AB`),
];

export const CURRENCY_OF_REGION: Record<RegionCode, string> = { US: 'Z-US$', CA: 'Z-C$', EU: 'Z-EURO' };

export const SALESPEOPLE = [
  { id: 'ERIN J.', territory: 'TERRITORY 1' },
  { id: 'GREG E.', territory: 'TERRITORY 2' },
  { id: 'IAN M.', territory: 'TERRITORY 3' },
  { id: 'NANCY B.', territory: 'TERRITORY 4' },
  { id: 'PAUL W.', territory: 'TERRITORY 5' },
  { id: 'SANDRA M.', territory: 'TERRITORY 6' },
  { id: 'GARY W.', territory: 'TERRITORY 7' },
] as const;

export const PAYMENT_TERMS = [
  ['Net 30', 60],
  ['2% 10/Net 30', 15],
  ['Net 15', 5],
  ['Net 60', 5],
  ['COD', 5],
  ['Due on Receipt', 5],
  ['', 5],
] as const satisfies readonly (readonly [string, number])[];

export const SHIPPING_METHODS = ['LOCAL DELIVERY', 'UPS GROUND', 'UPS BLUE', 'FEDEX GROUND', 'MAIL', 'PICKUP'] as const;

export const TAX_SCHEDULE_OF_REGION: Record<RegionCode, readonly string[]> = {
  US: ['USASTCITY-6*', 'USASTE-PS6N0', 'USALLEXMPT-0'],
  CA: ['CANFED-GST'],
  EU: ['EURVAT-STD'],
};

export const PRICE_LEVELS = ['RETAIL', 'WHOLESALE', 'EXTPRCLVL'] as const;
export const SITES = ['NORTH', 'SOUTH', 'EAST', 'WEST', 'WAREHOUSE'] as const;
export const CHECKBOOKS = ['UPTOWN TRUST', 'FIRST NATIONAL'] as const;

/** Address codes beyond PRIMARY, in the order GP users typically add them. */
export const EXTRA_ADDRESS_CODES = ['BILL TO', 'SHIP TO', 'WAREHOUSE'] as const;

export const VENDORS = [
  { id: 'ACETRAVE0001', name: 'A Travel Company' },
  { id: 'ADVANCED0002', name: 'Advanced Office Systems' },
  { id: 'AMERICAN0001', name: 'American Electrical Contractor' },
  { id: 'ASSOCIAT0001', name: 'Associated Insurance Company' },
  { id: 'BREAKTHR0001', name: 'Breakthrough Telemarketing' },
  { id: 'CANTERBU0001', name: 'Canterbury Electronics' },
  { id: 'CENTRALC0001', name: 'Central Communications LTD' },
  { id: 'CONTINEN0001', name: 'Continental Phone Company' },
  { id: 'DEPENDAB0001', name: 'Dependable Distributors' },
  { id: 'GREENLEA0001', name: 'Greenleaf Landscaping' },
  { id: 'HIGHWAYC0001', name: 'Highway Carriers Inc.' },
  { id: 'MIDWESTU0001', name: 'Midwest Utilities' },
  { id: 'OFFICESU0001', name: 'Office Supply Warehouse' },
  { id: 'PACIFICP0001', name: 'Pacific Power Supply' },
  { id: 'WESTSIDE0001', name: 'Westside Printing' },
] as const;

export const POSTING_USERS = ['sa', 'LESSONUSER1', 'LESSONUSER2', 'jdoe'] as const;

// ---------------------------------------------------------------------------------------------
// Master data added for vendors, items, sites, payment terms, salespeople and checkbooks. These
// lists only feed their own generator streams, so editing them does not reshuffle customers or GL.
// ---------------------------------------------------------------------------------------------

export const VENDOR_BUSINESS_WORDS = [
  'Supply',
  'Distributors',
  'Electronics',
  'Components',
  'Logistics',
  'Freight Lines',
  'Office Products',
  'Printing',
  'Utilities',
  'Consulting',
  'Staffing',
  'Insurance',
  'Leasing',
  'Janitorial',
  'Telecom',
  'Packaging',
  'Metals',
  'Plastics',
  'Chemicals',
  'Legal Services',
  'CPA Group',
  'Landscaping',
  'Travel',
  'Software',
  'Hardware',
  'Wire & Cable',
  'Fasteners',
  'Industrial Supply',
  'Paper Co.',
  'Security Services',
] as const;

/** Vendor classes (VNDCLSID char(11)) by the kind of business the name suggests. */
export const VENDOR_CLASSES = ['SUPPLIERS', 'SERVICES', 'UTILITIES', 'CONTRACTOR', 'FREIGHT', 'INSURANCE', 'OFFICE'] as const;

/**
 * Vendors with awkward but valid data, so API filters and escaping meet them: wildcard characters
 * in names, an apostrophe, non-ASCII letters, a one-time (temporary) vendor with little data.
 */
export const SPECIAL_VENDORS = [
  { id: 'RECYCLED0001', name: '100% Recycled Paper_Co', region: 'US' },
  { id: 'OBRIENSO0001', name: "O'Brien & Sons Hauling", region: 'US' },
  { id: 'MULLERPR0001', name: 'Müller Präzisionsteile GmbH', region: 'EU' },
  { id: 'ONETIME0001', name: 'One-Time Vendor', region: 'US' },
] as const;

export interface PaymentTermDefinition {
  id: string;
  /** 1 Net Days, 2 Date, 3 EOM, 4 None, 5 Next Month. */
  dueType: 1 | 2 | 3 | 4 | 5;
  /** Net days, or the day of the month for types 2 and 5. */
  dueDays: number;
  /** Discount days (DISCTYPE 1 Days) and percent in hundredths; absent: no discount. */
  discount?: { days: number; percent: number };
}

/** Every PYMTRMID a customer, vendor or document uses is here. */
export const PAYMENT_TERM_DEFINITIONS: readonly PaymentTermDefinition[] = [
  { id: 'Net 30', dueType: 1, dueDays: 30 },
  { id: '2% 10/Net 30', dueType: 1, dueDays: 30, discount: { days: 10, percent: 200 } },
  { id: 'Net 15', dueType: 1, dueDays: 15 },
  { id: 'Net 45', dueType: 1, dueDays: 45 },
  { id: 'Net 60', dueType: 1, dueDays: 60 },
  { id: '1% 15/Net 45', dueType: 1, dueDays: 45, discount: { days: 15, percent: 100 } },
  { id: '2.5% 10/Net 60', dueType: 1, dueDays: 60, discount: { days: 10, percent: 250 } },
  { id: 'Due on Receipt', dueType: 1, dueDays: 0 },
  { id: '15th of Month', dueType: 2, dueDays: 15 },
  { id: 'EOM', dueType: 3, dueDays: 0 },
  { id: 'COD', dueType: 4, dueDays: 0 },
  { id: 'Net 10th Prox', dueType: 5, dueDays: 10 },
];

/** Vendors' terms, by weight (customers use PAYMENT_TERMS above). */
export const VENDOR_PAYMENT_TERMS = [
  ['Net 30', 50],
  ['2% 10/Net 30', 12],
  ['Net 45', 8],
  ['Net 60', 6],
  ['1% 15/Net 45', 4],
  ['2.5% 10/Net 60', 2],
  ['EOM', 6],
  ['15th of Month', 3],
  ['Net 10th Prox', 3],
  ['COD', 3],
  ['', 3],
] as const satisfies readonly (readonly [string, number])[];

/** RM00301 rows: the salespeople customers use, plus two who left and a house account. */
export const SALESPERSON_DETAILS = [
  {
    id: 'ERIN J.',
    first: 'Erin',
    middle: '',
    last: 'Jones',
    employee: 'JONE0001',
    territory: 'TERRITORY 1',
    commission: 500,
    inactive: false,
  },
  {
    id: 'GREG E.',
    first: 'Greg',
    middle: 'A.',
    last: 'Erickson',
    employee: 'ERIC0001',
    territory: 'TERRITORY 2',
    commission: 450,
    inactive: false,
  },
  {
    id: 'IAN M.',
    first: 'Ian',
    middle: '',
    last: 'Mitchell',
    employee: 'MITC0001',
    territory: 'TERRITORY 3',
    commission: 500,
    inactive: false,
  },
  {
    id: 'NANCY B.',
    first: 'Nancy',
    middle: 'L.',
    last: 'Buchanan',
    employee: 'BUCH0001',
    territory: 'TERRITORY 4',
    commission: 550,
    inactive: false,
  },
  {
    id: 'PAUL W.',
    first: 'Paul',
    middle: '',
    last: 'West',
    employee: 'WEST0001',
    territory: 'TERRITORY 5',
    commission: 400,
    inactive: false,
  },
  {
    id: 'SANDRA M.',
    first: 'Sandra',
    middle: '',
    last: 'Martinez',
    employee: 'MART0001',
    territory: 'TERRITORY 6',
    commission: 500,
    inactive: false,
  },
  {
    id: 'GARY W.',
    first: 'Gary',
    middle: 'R.',
    last: 'Wilson',
    employee: 'WILS0001',
    territory: 'TERRITORY 7',
    commission: 350,
    inactive: false,
  },
  {
    id: 'KEVIN D.',
    first: 'Kevin',
    middle: '',
    last: 'Dunn',
    employee: 'DUNN0001',
    territory: 'TERRITORY 2',
    commission: 400,
    inactive: true,
  },
  { id: 'LINDA S.', first: 'Linda', middle: 'K.', last: 'Sato', employee: '', territory: 'TERRITORY 5', commission: 250, inactive: true },
  { id: 'HOUSE', first: '', middle: '', last: 'House Account', employee: '', territory: '', commission: 0, inactive: false },
] as const;

/** IV40700 rows. SITES (above) are the active ones customers' addresses use; OLDWHSE is closed. */
export const SITE_DETAILS = [
  { id: 'WAREHOUSE', name: 'Main Warehouse', city: 'Chicago', state: 'IL', zip: '60607', inactive: false },
  { id: 'NORTH', name: 'North Distribution Center', city: 'Minneapolis', state: 'MN', zip: '55413', inactive: false },
  { id: 'SOUTH', name: 'South Distribution Center', city: 'Dallas', state: 'TX', zip: '75247', inactive: false },
  { id: 'EAST', name: 'East Coast Depot', city: 'Atlanta', state: 'GA', zip: '30336', inactive: false },
  { id: 'WEST', name: 'West Coast Depot', city: 'Tacoma', state: 'WA', zip: '98421', inactive: false },
  { id: 'OLDWHSE', name: 'Old Warehouse (closed)', city: 'Naperville', state: 'IL', zip: '60563', inactive: true },
] as const;

/**
 * Item families: class, id prefix, what they are made of, and their GP item type. Costs are in
 * cents; `fineCost` families sometimes get a cost below a cent (numeric(19,5) keeps 5 decimals).
 */
export const ITEM_FAMILIES = [
  {
    classId: 'ACCESSORY',
    prefix: 'ACCS',
    type: 1,
    uom: 'EACH',
    nouns: ['Headset', 'Charger', 'Cable', 'Case', 'Stand', 'Adapter', 'Mount'],
    minCost: 200,
    maxCost: 8000,
  },
  {
    classId: 'COMPONENTS',
    prefix: 'CMPN',
    type: 1,
    uom: 'EACH',
    nouns: ['Resistor Pack', 'Circuit Board', 'Relay', 'Switch', 'Connector', 'Fuse', 'Screw Set'],
    minCost: 5,
    maxCost: 4000,
    fineCost: true,
  },
  {
    classId: 'PHONES',
    prefix: 'PHON',
    type: 1,
    uom: 'EACH',
    nouns: ['Desk Phone', 'Cordless Phone', 'Conference Phone', 'IP Phone', 'Speakerphone'],
    minCost: 4000,
    maxCost: 40000,
  },
  {
    classId: 'SYSTEMS',
    prefix: 'SYST',
    type: 1,
    uom: 'EACH',
    nouns: ['Phone System', 'Switchboard', 'Voice Mail Unit', 'Router', 'Server Rack'],
    minCost: 30000,
    maxCost: 400000,
  },
  {
    classId: 'SUPPLIES',
    prefix: 'SUPP',
    type: 1,
    uom: 'BOX',
    nouns: ['Labels', 'Toner', 'Paper', 'Batteries', 'Cable Ties'],
    minCost: 500,
    maxCost: 6000,
  },
  {
    classId: 'SERVICES',
    prefix: 'SRVC',
    type: 5,
    uom: 'HOUR',
    nouns: ['Installation', 'Consulting', 'Training', 'Repair Labor', 'Site Survey'],
    minCost: 2500,
    maxCost: 6000,
  },
  {
    classId: 'MISC',
    prefix: 'MISC',
    type: 4,
    uom: 'EACH',
    nouns: ['Handling Charge', 'Rush Fee', 'Restocking Fee', 'Shipping Surcharge'],
    minCost: 0,
    maxCost: 0,
  },
  {
    classId: 'FEES',
    prefix: 'FEE',
    type: 6,
    uom: 'EACH',
    nouns: ['Annual Support Plan', 'Setup Fee', 'License Fee', 'Warranty Extension'],
    minCost: 0,
    maxCost: 0,
  },
  {
    classId: 'KITS',
    prefix: 'KIT',
    type: 3,
    uom: 'EACH',
    nouns: ['Starter Kit', 'Office Bundle', 'Conference Room Kit', 'Desk Set'],
    minCost: 0,
    maxCost: 0,
  },
] as const;

export const ITEM_ADJECTIVES = [
  'Standard',
  'Deluxe',
  'Compact',
  'Heavy-Duty',
  'Wireless',
  'Premium',
  'Basic',
  'Pro',
  'Mini',
  'Digital',
] as const;
export const ITEM_COLORS = [
  ['BK', 'Black'],
  ['WH', 'White'],
  ['GR', 'Gray'],
  ['BL', 'Blue'],
] as const;
