import { fileURLToPath } from 'node:url';
import { buildOpenApiDocument } from './document.ts';

/** Where the committed document lives: docs/openapi.json at the repository's root. */
export const DOCUMENT_PATH = fileURLToPath(new URL('../../../../../../docs/openapi.json', import.meta.url));

/** The document as committed: two-space JSON with a final newline, so diffs of it read well. */
export function documentText(): string {
  return `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`;
}
