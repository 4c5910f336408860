import { DomainError, ErrorCode } from '../../errors/domain-error.js';

/** How many of a kind of record an organization may have, and what the refusal tells a person to do. */
export interface OrganizationLimit {
  readonly limit: number;
  /** The records, plural: 'preview keys'. */
  readonly things: string;
  /** What to do instead: 'revoke one it no longer uses, then create this one'. */
  readonly advice: string;
}

/**
 * What `create` made, or LIMIT_REACHED when the organization already had `limit` of `things`.
 * The port counts in the write that creates, so parallel creations cannot pass the limit.
 */
export async function createWithinLimit<T>(
  { limit, things, advice }: OrganizationLimit,
  create: (limit: number) => Promise<T | 'limit-reached'>,
): Promise<T> {
  const created = await create(limit);
  if (created !== 'limit-reached') return created;
  throw new DomainError(
    ErrorCode.LimitReached,
    `The organization already has ${limit} ${things}: ${advice}.`,
    { limit },
  );
}
