/**
 * What text a person or client may name something with (docs/api.md#value-formats): one rule for
 * write bodies' ids and text, the `q` search and id filters of lists, and every name given to the
 * gateway (keys, connections, organisations, users' emails, webhook endpoints' descriptions).
 * Refused are characters that do not show, or show something other than what is stored, so that two
 * values that look the same are never silently different and a stored name can never move a
 * terminal's cursor or reorder a page: C0 and C1 controls (NUL, line breaks, U+0085 included) and
 * DEL; format characters (zero-width spaces and joiners, bidi embeddings, overrides, isolates and
 * marks, the byte order mark, the soft hyphen); line and paragraph separators; lone surrogates. Ids,
 * in addition, take no space but the ASCII space (no no-break or ideographic space): an id is typed
 * and compared, never laid out. Free text of several lines (notes, comments) may also hold tab, CR
 * and LF, and nothing else of the above.
 *
 * A problem names the character's class, its code point and its position (counted in characters,
 * from 1), e.g. `contains a control character (U+001B) at position 4`: a user who cannot see the
 * character can still find and delete it.
 */

import type { z } from 'zod';

/** The longest name of a key, connection or organisation (the dashboard's forms say so too). */
export const NAME_MAX_LENGTH = 100;
/** The longest email address (RFC 5321's path limit, as the forms say). */
export const EMAIL_MAX_LENGTH = 254;
/** The longest one-line description (e.g. a webhook endpoint's). */
export const DESCRIPTION_MAX_LENGTH = 500;

/** Every character the rule refuses, in any kind of text; classified by `hiddenKind`. */
const HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u;
/** What free text of several lines may hold of the above. */
const LINE_BREAKS_AND_TABS = new Set(['\t', '\r', '\n']);
const ODD_SPACE = /[^\P{Zs} ]/u;

/** Bidi embeddings, overrides and isolates, and the marks (U+061C, U+200E, U+200F): they reorder what is shown. */
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;
/** Zero-width spaces, joiners, the word joiner and the byte order mark. */
const ZERO_WIDTH = /[\u200b-\u200d\u2060\ufeff]/u;

/** How a message names a refused character's kind. */
function hiddenKind(char: string): string {
  if (/\p{Cc}/u.test(char)) return 'a control character';
  if (BIDI.test(char)) return 'a bidirectional control character';
  if (ZERO_WIDTH.test(char)) return 'a zero-width character';
  if (/\p{Cs}/u.test(char)) return 'an unpaired surrogate';
  if (/[\p{Zl}\p{Zp}]/u.test(char)) return 'a line or paragraph separator';
  return 'an invisible formatting character';
}

/** `U+001B`: a code point as Unicode writes it. */
export function codePointName(char: string): string {
  return `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** What may stand before a joiner in an emoji sequence: a pictograph, a skin tone, or the emoji presentation selector. */
const EMOJI_BEFORE_JOINER = /^[\p{Extended_Pictographic}\p{Emoji_Modifier}\ufe0f]$/u;
const EMOJI = /^\p{Extended_Pictographic}$/u;

/**
 * The first character of `text` that `refused` matches, with its position (from 1, in characters).
 * A zero-width joiner between two emoji (👩‍💻, 🏳️‍🌈) is how Unicode writes one emoji, not a hidden
 * character, and passes (UTS #51's emoji ZWJ sequences); anywhere else it is refused.
 */
function firstRefused(text: string, refused: (char: string) => boolean): { char: string; position: number } | null {
  if (!HIDDEN.test(text)) return null;
  // Spreading a string walks code points: an emoji or a CJK extension character counts once; a lone surrogate is one.
  const chars = [...text];
  for (const [i, char] of chars.entries()) {
    if (!refused(char)) continue;
    const joinsEmoji = char === '\u200d' && EMOJI_BEFORE_JOINER.test(chars[i - 1] ?? '') && EMOJI.test(chars[i + 1] ?? '');
    if (!joinsEmoji) return { char, position: i + 1 };
  }
  return null;
}

function describe(found: { char: string; position: number }): string {
  return `contains ${hiddenKind(found.char)} (${codePointName(found.char)}) at position ${found.position}`;
}

/** Why `text` is refused as one-line text (a name, a description), or null when it is not. */
export function textProblem(text: string): string | null {
  const found = firstRefused(text, (char) => HIDDEN.test(char));
  return found && describe(found);
}

/** Why `text` is refused as free text of several lines (notes, comments): as textProblem, but tab, CR and LF are allowed. */
export function multilineTextProblem(text: string): string | null {
  const found = firstRefused(text, (char) => HIDDEN.test(char) && !LINE_BREAKS_AND_TABS.has(char));
  return found && describe(found);
}

/** Why `text` is refused as an id or a code, or null when it is not: the text rule, and no space but U+0020. */
export function idProblem(text: string): string | null {
  const hidden = textProblem(text);
  if (hidden !== null) return hidden;
  const odd = ODD_SPACE.exec(text);
  if (!odd) return null;
  const position = [...text.slice(0, odd.index)].length + 1;
  return `must not contain spaces other than the ASCII space: ${codePointName(odd[0])} at position ${position}`;
}

/** Why `text` is too long for `max` characters (counted as code points, as the positions are), or null. */
export function lengthProblem(text: string, max: number): string | null {
  // text.length counts UTF-16 units, at least the characters: only a long text is counted again.
  if (text.length <= max) return null;
  const length = [...text].length;
  return length > max ? `must be at most ${max.toLocaleString('en')} characters (it has ${length.toLocaleString('en')})` : null;
}

/**
 * Why a name (of a key, connection, organisation; a webhook endpoint's description with
 * DESCRIPTION_MAX_LENGTH) is refused, or null: one line, the text rule, at most `max` characters.
 * Give it the name as it will be stored (trimmed by the caller, if it trims).
 */
export function nameProblem(text: string, max: number = NAME_MAX_LENGTH): string | null {
  return textProblem(text) ?? lengthProblem(text, max);
}

/** The rule as a zod refinement: `z.string().superRefine(textRule(idProblem))` adds its issue, if any. */
export function textRule(problem: (text: string) => string | null) {
  return (value: string, ctx: z.RefinementCtx) => {
    const found = problem(value);
    if (found !== null) ctx.addIssue({ code: 'custom', message: found });
  };
}

const HIDDEN_ALL = new RegExp(HIDDEN.source, 'gu');

/**
 * `text` with every character the rule refuses written out as an escape (`\x1b`, `\u202e`,
 * `\u{e0001}`), so that printing it can neither move a terminal's cursor, clear its screen, start
 * a line nor reorder what follows: for text stored before the rule existed, or received from
 * elsewhere, on its way to a terminal or a log read by people.
 */
export function escapeHidden(text: string): string {
  return text.replace(HIDDEN_ALL, (char) => {
    const code = char.codePointAt(0)!;
    if (code <= 0xff) return `\\x${code.toString(16).padStart(2, '0')}`;
    if (code <= 0xffff) return `\\u${code.toString(16).padStart(4, '0')}`;
    return `\\u{${code.toString(16)}}`;
  });
}
