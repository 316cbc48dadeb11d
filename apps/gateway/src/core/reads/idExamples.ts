import type { ObjectSpec } from '@gp-gateway/protocol';

/** Sample values of id parts, in GP's style, for examples of composite ids. */
const PART_EXAMPLES: Readonly<Record<string, string>> = {
  customerId: 'AARONFIT0001',
  vendorId: 'ACETRAVE0001',
  itemId: '128 SDRAM',
  siteId: 'WAREHOUSE',
  code: 'PRIMARY',
  documentNumber: 'STDINV2261',
  voucherNumber: '00000000000000123',
  number: 'ORDST2227',
};

/** An example id of the object, e.g. `AARONFIT0001:PRIMARY` or `invoice:STDINV2261`; null without get-by-id. */
export function idExampleOf(spec: ObjectSpec): string | null {
  if (spec.idForm?.kind !== 'composite') return null;
  return spec.idForm.parts
    .map((part) => {
      const filter = spec.filters[part];
      return filter?.kind === 'enum' ? filter.values[0] : (PART_EXAMPLES[part] ?? part.toUpperCase());
    })
    .join(':');
}
