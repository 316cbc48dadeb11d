import { WRITE_CHECK_WORDS, type WriteCheck } from '@gp-gateway/protocol';

/** One row of the connections page's write check table: a company's object and what became of it. */
export interface WriteCheckRow {
  company: string;
  object: string;
  /** works, refused, not permitted, failed, not checked: also the row's CSS class (spaces as dashes). */
  result: string;
  /** GP's error codes and words, or the grant the agent's login lacks, or why it was not checked. */
  why: string;
}

/** The agent's last write check as the page lists it, one row per company and object. */
export function writeCheckRows(check: WriteCheck): WriteCheckRow[] {
  return check.companies.flatMap(({ company, objects }) =>
    objects.map((o) => ({
      company,
      object: o.object,
      result: WRITE_CHECK_WORDS[o.status],
      why: [...(o.gp ?? []).map((g) => `GP error ${g.code}: ${g.message}`), ...(o.message ? [o.message] : [])].join('; '),
    })),
  );
}
