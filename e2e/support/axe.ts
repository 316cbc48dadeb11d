import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

/** axe-core's browser bundle, run inside chromium by the dashboard's browser tests. */
const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The serious and critical violations axe-core finds on the page as it is now, one line each. */
export async function seriousViolations(on: Page): Promise<string[]> {
  // evaluate() runs through the DevTools protocol, which the dashboard's script policy does not govern.
  if (!(await on.evaluate(() => 'axe' in globalThis))) await on.evaluate(AXE_SOURCE);
  return on.evaluate(async () => {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const { axe, document } = globalThis as any;
    const { violations } = await axe.run(document, { resultTypes: ['violations'] });
    return violations
      .filter((v: { impact: string }) => v.impact === 'serious' || v.impact === 'critical')
      .map(
        (v: { id: string; impact: string; help: string; nodes: { target: string[] }[] }) =>
          `${v.impact} ${v.id}: ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
      );
  });
}
