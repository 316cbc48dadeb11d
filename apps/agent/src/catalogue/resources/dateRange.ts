import type { FilterDef } from '../types.ts';

/**
 * The API's dateFrom and dateTo (both inclusive: docs/api.md#filters) on one date column, as every
 * list with a document or transaction date filters it.
 */
export function dateRange(column: string): { dateFrom: FilterDef; dateTo: FilterDef } {
  return { dateFrom: { kind: 'onOrAfter', column }, dateTo: { kind: 'onOrBefore', column } };
}
