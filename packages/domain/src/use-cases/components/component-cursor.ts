import { invalidInput } from '../../errors/factories.js';
import type { ComponentCursor } from '../../ports/components.js';

/** Cursors are opaque to clients: base64url JSON of the last row's sort key. */
export const encodeCursor = (cursor: ComponentCursor): string =>
  Buffer.from(JSON.stringify([cursor.nameKey, cursor.id])).toString('base64url');

export function decodeCursor(value: string): ComponentCursor {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
    if (Array.isArray(parsed) && parsed.length === 2 && parsed.every((part) => typeof part === 'string')) {
      const [nameKey, id] = parsed as [string, string];
      return { nameKey, id };
    }
  } catch {
    // fall through to the error below
  }
  throw invalidInput('cursor', 'this is not a cursor returned by list_components; start again without a cursor.');
}
