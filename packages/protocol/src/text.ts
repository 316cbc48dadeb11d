/**
 * What text a person or client may name something with (docs/api.md#value-formats): one rule for
 * write bodies' ids and text, the `q` search and id filters of lists, and names given to the
 * gateway. Refused are characters that do not show, or show something other than what is stored,
 * so that two values that look the same are never silently different: C0 and C1 controls (NUL,
 * line breaks, U+0085 included) and DEL; format characters (zero-width spaces and joiners, bidi
 * embeddings, overrides, isolates and marks, the byte order mark, the soft hyphen); line and
 * paragraph separators; lone surrogates. Ids, in addition, take no space but the ASCII space (no
 * no-break or ideographic space): an id is typed and compared, never laid out.
 */

import type { z } from 'zod';

const HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u;
const ODD_SPACE = /[^\P{Zs} ]/u;

/** Why `text` is refused as text (a name, a description), or null when it is not. */
export function textProblem(text: string): string | null {
  return HIDDEN.test(text) ? 'must not contain control, format (zero-width, bidi) or separator characters' : null;
}

/** Why `text` is refused as an id or a code, or null when it is not: the text rule, and no space but U+0020. */
export function idProblem(text: string): string | null {
  return textProblem(text) ?? (ODD_SPACE.test(text) ? 'must not contain spaces other than the ASCII space' : null);
}

/** The rule as a zod refinement: `z.string().superRefine(textRule(idProblem))` adds its issue, if any. */
export function textRule(problem: (text: string) => string | null) {
  return (value: string, ctx: z.RefinementCtx) => {
    const found = problem(value);
    if (found !== null) ctx.addIssue({ code: 'custom', message: found });
  };
}
