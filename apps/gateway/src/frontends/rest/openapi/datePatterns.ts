/**
 * The date and date-time filters as JSON Schema patterns that accept exactly what the protocol's
 * parser accepts (packages/protocol/src/filters.ts), so a tool that generates requests from the
 * document neither sends a "valid" value the gateway refuses nor expects a refusal it does not get.
 * datePatterns.test.ts compares them with the parser.
 */

/** A real calendar date of years 1900 to 9999, leap days included. */
const YEAR = '(?:19\\d\\d|[2-9]\\d{3})';
const LEAP_YEAR = '(?:(?:19|[2-9]\\d)(?:0[48]|[2468][048]|[13579][26])|(?:[2468][048]|[3579][26])00)';
const CALENDAR_DATE =
  `(?:${YEAR}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|02-(?:0[1-9]|1\\d|2[0-8]))` +
  `|${LEAP_YEAR}-02-29)`;

/**
 * The time and offset of a date-time must be real ones (24:00 is the end of the day, as JavaScript
 * reads it; offsets run from -14:00 to +14:00, as real zones do), for date filters too, which then
 * read only its date. Not expressible here: an `updatedSince` instant that falls outside years
 * 1900 to 9999 only once converted to UTC (`1900-01-01T00:30+01:00`), which is refused.
 */
const TIME = '(?:(?:[01]\\d|2[0-3]):[0-5]\\d(?::[0-5]\\d(?:\\.\\d{1,9})?)?|24:00(?::00(?:\\.0{1,9})?)?)';
const OFFSET = '(?:Z|[+-](?:0\\d|1[0-3]):[0-5]\\d|[+-]14:00)';
export const DATE_FILTER_PATTERN = `^${CALENDAR_DATE}(?:T${TIME}${OFFSET})?$`;
/** The same shape: only what is done with a valid value differs (`updatedSince` converts it to UTC). */
export const TIMESTAMP_FILTER_PATTERN = DATE_FILTER_PATTERN;
