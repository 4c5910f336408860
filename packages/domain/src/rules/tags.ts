import { DomainError, ErrorCode } from '../errors/domain-error.js';
import { invalidInput } from '../errors/factories.js';
import type { TagEdit } from '../ports/components.js';
import { Limits } from './limits.js';
import { hasControlCharacters } from './text.js';

/**
 * Tags are trimmed, compared case-sensitively ("React" and "react" are two tags;
 * the tool contract promises only trimming and de-duplication), and kept in first-seen order.
 * Empty tags, tags over `Limits.tagMaxLength` characters and tags with control
 * characters are refused rather than silently dropped.
 */
export function normalizeTags(field: string, tags: readonly string[]): string[] {
  const seen = new Set<string>();
  for (const raw of tags) {
    const tag = raw.trim();
    if (tag.length === 0) throw invalidInput(field, 'tags must not be empty or only whitespace.');
    if ([...tag].length > Limits.tagMaxLength) {
      throw invalidInput(field, `tag "${tag.slice(0, 20)}…" is longer than ${Limits.tagMaxLength} characters.`);
    }
    if (hasControlCharacters(tag)) throw invalidInput(field, `tag "${tag}" contains control characters.`);
    seen.add(tag);
  }
  return [...seen];
}

export interface TagEditRequest {
  readonly add?: readonly string[] | undefined;
  readonly remove?: readonly string[] | undefined;
  readonly set?: readonly string[] | undefined;
}

/**
 * One mode per call: `set` alone, or `add` and/or `remove`. `add` and `remove`
 * together are applied as add-then-remove, but naming one tag in both is refused
 * as contradictory.
 */
export function toTagEdit(request: TagEditRequest): TagEdit {
  const { add, remove, set } = request;
  const named = (add?.length ?? 0) + (remove?.length ?? 0) + (set?.length ?? 0);
  if (named > Limits.tagsPerEdit) {
    throw invalidInput('tags', `one edit may name at most ${Limits.tagsPerEdit} tags.`);
  }
  if (set !== undefined) {
    if (add !== undefined || remove !== undefined) {
      throw invalidInput('set', '"set" replaces the whole list and cannot be combined with "add" or "remove". Send one mode per call.');
    }
    const tags = normalizeTags('set', set);
    if (tags.length > Limits.tagsPerComponent) {
      throw new DomainError(ErrorCode.TooManyTags, `A component can have at most ${Limits.tagsPerComponent} tags.`);
    }
    return { kind: 'set', tags };
  }
  if (add === undefined && remove === undefined) {
    throw invalidInput('tags', 'pass "add", "remove" or "set".');
  }
  const added = normalizeTags('add', add ?? []);
  const removed = normalizeTags('remove', remove ?? []);
  const both = added.filter((tag) => removed.includes(tag));
  if (both.length > 0) {
    throw invalidInput('tags', `"${both[0]}" is in both "add" and "remove"; name each tag in one of them.`);
  }
  return { kind: 'change', add: added, remove: removed };
}
