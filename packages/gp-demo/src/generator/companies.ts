/** The demo's GP companies: INTERID is also the company database (file) name. */
import { DEFAULT_ACCOUNT_FRAMEWORK, MAX_ACCOUNT_SEGMENTS, type AccountFramework } from '@gp-gateway/gp-schema';

export interface DemoCompany {
  /** INTERID, char(5). */
  id: string;
  /** CMPANYID. */
  number: number;
  name: string;
}

export const DEMO_COMPANIES: DemoCompany[] = [
  { id: 'TWO', number: 1, name: 'Fabrikam, Inc.' },
  { id: 'NWIND', number: 2, name: 'Northwind Traders' },
];

/** The system database's name in GP (DYNAMICS by default). */
export const SYSTEM_DATABASE_NAME = 'DYNAMICS';

/**
 * The demo's account framework of `segments` segments (3 to 10): the GP 2015 sample's four lengths
 * (char 5/5/3/3) as far as they go, then 3 for each further segment. The default demo has 4.
 */
export function demoAccountFramework(segments: number): AccountFramework {
  if (!Number.isSafeInteger(segments) || segments < 3 || segments > MAX_ACCOUNT_SEGMENTS)
    throw new RangeError(`the demo's account framework has 3 to ${MAX_ACCOUNT_SEGMENTS} segments, not ${segments}`);
  return { segmentLengths: Array.from({ length: segments }, (_, i) => DEFAULT_ACCOUNT_FRAMEWORK.segmentLengths[i] ?? 3) };
}
