import { WRITE_CHECK_WORDS, type WriteCheck, type WriteCheckObject } from '@gp-gateway/protocol';
import type { OperationHandler } from '../service/readService.ts';
import type { WriteService } from '../writes/writeService.ts';
import type { Finding } from './findings.ts';

/**
 * `gp-agent diagnose --writes`: the write check (writes/writeCheck.ts) in the companies asked for,
 * one finding per company and one line per object: works, GP's error codes and words, or the
 * grant the login lacks. `writes` answers validate-only writes whether or not writes are on, so
 * the check can run at install, before the customer's IT turns writes on.
 */
export async function checkWritesEndToEnd(
  writes: WriteService,
  reads: OperationHandler,
  companies: readonly string[],
): Promise<{ findings: Finding[]; check: WriteCheck }> {
  const check = await writes.check(reads, companies);
  return { findings: writeCheckFindings(check), check };
}

/** One object's line: what became of it, and why. */
function describeObject(o: WriteCheckObject): string {
  const gp = o.gp?.map((g) => `GP error ${g.code}: ${g.message}`).join('; ');
  const why = [gp, o.message].filter(Boolean).join(' — ');
  return `${o.object}: ${WRITE_CHECK_WORDS[o.status]}${why ? ` (${why})` : ''}`;
}

export function writeCheckFindings(check: WriteCheck): Finding[] {
  return check.companies.map(({ company, objects }): Finding => {
    const broken = objects.filter((o) => o.status === 'refused' || o.status === 'forbidden' || o.status === 'failed');
    const skipped = objects.filter((o) => o.status === 'skipped');
    const works = objects.length - broken.length - skipped.length;
    const summary =
      `${works} of ${objects.length} objects pass a validate-only write in ${company}` +
      (broken.length ? `; ${broken.map((o) => o.object).join(', ')} would not be written` : '') +
      (skipped.length ? `; ${skipped.length} not checked (nothing to reference)` : '');
    const forbidden = broken.some((o) => o.status === 'forbidden');
    return {
      check: `Write check ${company}`,
      status: broken.length ? 'fail' : skipped.length ? 'warn' : 'ok',
      summary,
      details: objects.map(describeObject),
      ...(broken.length || skipped.length
        ? {
            fix: forbidden
              ? 'give the login the grants named above: run the script `gp-agent mssql grant-write` prints, as a SQL Server administrator'
              : "GP refused with the codes above: correct the company's setup in GP (its posting accounts, numbering, a closed period), then run the check again",
          }
        : {}),
    };
  });
}
