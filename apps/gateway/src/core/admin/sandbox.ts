import type { KeysStore, NewSandbox, Organisation } from '../../infrastructure/store/store.ts';

/**
 * The sandbox every new organisation is given (docs/api.md#modes-and-the-sandbox): the built-in
 * agent's demo, defaulting to its first company, so test keys work from the organisation's first
 * minute. The store creates what it is told; this is where the gateway decides what that is.
 */
const DEMO_SANDBOX: NewSandbox = { name: 'Demo sandbox', defaultCompany: 'TWO' };

/** Creates the organisation together with its sandbox, in one transaction of the store. */
export function createOrganisationWithSandbox(store: KeysStore, name: string): Promise<Organisation> {
  return store.createOrganisation(name, { sandbox: DEMO_SANDBOX });
}
