import type { z } from 'zod';
import { ErrorCode } from '@cp/domain';
import { problem, type Problem } from './problem.js';

export type QueryResult<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly problem: Problem };

const shown = (value: string): string => (value.length > 40 ? `${value.slice(0, 40)}…` : value);

/**
 * Validates a raw query string against a strict zod object schema. Every
 * parameter must appear at most once (`?id=a&id=b` and `?id[]=a` are refused, not
 * guessed at), and unknown parameters are refused: a typo such as `?evn=prod`
 * would otherwise silently serve the unreleased preview.
 */
export function parseQuery<S extends z.ZodObject>(
  schema: S,
  raw: string,
  endpoint: string,
  /** What the refusal of an unknown parameter lists: the schema's, and any the endpoint set apart before. */
  accepts: readonly string[] = Object.keys(schema.shape),
): QueryResult<z.output<S>> {
  const params: Record<string, string> = {};
  const repeated = new Set<string>();
  for (const [name, value] of new URLSearchParams(raw)) {
    if (Object.hasOwn(params, name)) repeated.add(name);
    else params[name] = value;
  }
  if (repeated.size > 0) {
    const names = [...repeated].map((name) => `"${shown(name)}"`).join(', ');
    return { ok: false, problem: problem(ErrorCode.InvalidInput, `Parameter ${names} was given more than once; give each parameter once.`) };
  }
  const parsed = schema.safeParse(params);
  if (parsed.success) return { ok: true, value: parsed.data };
  const messages = parsed.error.issues.map((issue) =>
    issue.code === 'unrecognized_keys'
      ? `Unknown parameter ${issue.keys.map((key) => `"${shown(key)}"`).join(', ')}. ${endpoint} accepts ${accepts.join(', ')}.`
      : issue.message,
  );
  return { ok: false, problem: problem(ErrorCode.InvalidInput, messages.join(' ')) };
}

/**
 * Validation outcomes of recently seen raw query strings. Validation is a pure
 * function of the string, and hosts repeat the same few URLs, so a hit skips
 * URLSearchParams and zod. Bounded: short strings only, and cleared when full;
 * outcomes `keep` refuses (a query naming one user) are never kept, so they cannot
 * push the shared ones out.
 */
export class QueryMemo<T> {
  private readonly outcomes = new Map<string, T>();

  constructor(
    private readonly validate: (raw: string) => T,
    private readonly maxEntries = 10_000,
    private readonly maxLength = 256,
    private readonly keep: (outcome: T) => boolean = () => true,
  ) {}

  get(raw: string): T {
    let outcome = this.outcomes.get(raw);
    if (outcome === undefined) {
      outcome = this.validate(raw);
      if (raw.length <= this.maxLength && this.keep(outcome)) {
        if (this.outcomes.size >= this.maxEntries) this.outcomes.clear();
        this.outcomes.set(raw, outcome);
      }
    }
    return outcome;
  }
}

/** An id as shown in a message: never more than 64 characters of it. */
export const shownId = (id: string): string => (id.length > 64 ? `${id.slice(0, 64)}…` : id);
