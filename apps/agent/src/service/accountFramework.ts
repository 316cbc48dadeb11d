import type { AccountFramework } from '@gp-gateway/gp-schema';
import { ACCOUNT_FRAMEWORK_QUERIES, accountFrameworkOf } from '../catalogue/accountFramework.ts';
import type { Executor } from '../db/executor.ts';
import { renderSelect } from '../sql/render.ts';

/**
 * The GP install's account framework as its system database records it (catalogue/accountFramework.ts).
 * Rejects with AccountFrameworkError when the records contradict each other, and with the
 * executor's errors when they cannot be read.
 */
export async function readAccountFramework(executor: Executor): Promise<AccountFramework> {
  const { size, segments } = ACCOUNT_FRAMEWORK_QUERIES;
  const sizes = await executor.query(null, renderSelect(size, executor.dialect));
  const segmentRows = await executor.query(null, renderSelect(segments, executor.dialect));
  return accountFrameworkOf(sizes, segmentRows, executor.systemDatabase);
}
