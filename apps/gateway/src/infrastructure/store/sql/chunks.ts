/**
 * Rows or values per statement at most: SQLite and PostgreSQL both cap a statement's parameters, and
 * a usage row has 9 of them.
 */
const PER_STATEMENT = 500;

/** `items` in runs of at most PER_STATEMENT, for one `IN (…)` list or one multi-row INSERT each. */
export function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += PER_STATEMENT) out.push(items.slice(i, i + PER_STATEMENT));
  return out;
}
