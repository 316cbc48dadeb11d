import type { ObjectSpec } from '@gp-gateway/protocol';

/**
 * Ids of the demo sandbox as `pnpm start` generates it (seed 1, scale 1), so that a request built
 * from an example (the OpenAPI document's, list_objects' idExample) is answered 200; the OpenAPI
 * routes test and the MCP tests request every one.
 */
const PLAIN_ID_EXAMPLES: Readonly<Record<string, string>> = {
  companies: 'TWO',
  customers: 'AARONACA0001',
  vendors: 'AARONCHE0001',
  items: 'ACCS-10011-BK',
  accounts: '000-1100-00',
  'purchase-orders': 'PO02093',
  sites: 'EAST',
  checkbooks: 'CANADIAN BANK',
  'payment-terms': 'Net 30',
  salespeople: 'ERIN J.',
  batches: 'GLJE20240112',
};
const COMPOSITE_ID_EXAMPLES: Readonly<Record<string, string>> = {
  'customer-addresses': 'AARONACA0001:PRIMARY',
  'vendor-addresses': 'AARONCHE0001:PRIMARY',
  'item-quantities': 'ACCS-10011-BK:EAST',
  'ar-invoices': 'invoice:INV00001047',
  'ar-payments': 'payment:PYMNT00001002',
  'ap-invoices': 'invoice:00000000000001016',
  'ap-payments': 'payment:00000000000001002',
  'sales-orders': 'order:ORDST1050',
};

/** An id of the object that exists in the sandbox, e.g. `AARONACA0001:PRIMARY` or `order:ORDST1050`; null without get-by-id. */
export function idExampleOf(spec: ObjectSpec): string | null {
  if (!spec.idForm) return null;
  return PLAIN_ID_EXAMPLES[spec.name] ?? COMPOSITE_ID_EXAMPLES[spec.name] ?? null;
}
