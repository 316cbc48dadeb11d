import { DEFAULT_LIMIT, MAX_CURSOR_LENGTH, MAX_LIMIT } from '@gp-gateway/protocol';

/**
 * The two query parameters of every cursor-paged list (docs/api.md#lists-and-paging): `items` names what a
 * page holds, `repeated` what the request for the next page sends again with its cursor.
 */
export function pagingParameters(
  items: string,
  repeated = 'the same filters',
): [limit: Record<string, unknown>, cursor: Record<string, unknown>] {
  return [
    {
      name: 'limit',
      in: 'query',
      description: `${items} per page, 1 to ${MAX_LIMIT}.`,
      schema: { type: 'integer', minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT },
    },
    {
      name: 'cursor',
      in: 'query',
      description: `The previous page's nextCursor, unchanged, with ${repeated}.`,
      schema: { type: 'string', minLength: 1, maxLength: MAX_CURSOR_LENGTH },
    },
  ];
}
