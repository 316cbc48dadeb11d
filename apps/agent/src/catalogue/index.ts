import type { ObjectName } from '@gp-gateway/protocol';
import type { ResourceDef } from './types.ts';
import { companies } from './resources/companies.ts';
import { customers } from './resources/customers.ts';
import { customerAddresses } from './resources/customerAddresses.ts';
import { glEntries } from './resources/glEntries.ts';

/** Every object the agent can read, keyed by its API name. The agent runs nothing else. */
export const CATALOGUE: Readonly<Record<ObjectName, ResourceDef>> = {
  companies,
  customers,
  'customer-addresses': customerAddresses,
  'gl-entries': glEntries,
};
