import { ErrorCode } from '@cp/domain';
import type { z } from 'zod';
import { ACCEPTED_VERSIONS, MAX_BODY_BYTES, MAX_EVENTS, UsageBatch, type UsageEventWire } from '../api/event-schema.js';
import { HttpErrorCode, problem, type Problem } from '../http/problem.js';

export type BatchResult = { readonly ok: true; readonly events: readonly UsageEventWire[] } | { readonly ok: false; readonly problem: Problem; readonly reason: 'invalid' | 'too_large' };

const SHAPE = '{"v":1,"events":[…]}';
const accepted = ACCEPTED_VERSIONS.join(', ');

export const bodyTooLarge = (): Problem =>
  problem(HttpErrorCode.PayloadTooLarge, `The body is larger than ${MAX_BODY_BYTES} bytes: send at most ${MAX_EVENTS} events, in at most ${MAX_BODY_BYTES / 1024} KiB, per request.`);

const invalid = (detail: string): BatchResult => ({ ok: false, reason: 'invalid', problem: problem(ErrorCode.InvalidInput, detail) });

const shown = (value: unknown): string => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
};

/** `events[3].ms` */
const pathOf = (path: readonly PropertyKey[]): string =>
  path.map((part, i) => (typeof part === 'number' ? `[${part}]` : `${i === 0 ? '' : '.'}${String(part)}`)).join('');

function describe(issue: z.core.$ZodIssue): string {
  const at = pathOf(issue.path);
  if (issue.code === 'unrecognized_keys') {
    const fields = issue.keys.map((key) => `"${key.slice(0, 40)}"`).join(', ');
    const known = issue.path.length === 0 ? 'v, events' : issue.path.length === 2 ? Object.keys(UsageBatch.shape.events.element.shape).join(', ') : 'class, message, stack';
    return `${at === '' ? '' : `${at}: `}unknown field ${fields}; version 1 accepts ${known}`;
  }
  return `${at}: ${issue.message}`;
}

/**
 * A request body as a batch of wire format v1, or the problem that refuses it: not JSON,
 * not a batch, another version (400), too many events (413), or the first field that breaks
 * the schema, named by its path (400).
 */
export function readBatch(body: Buffer): BatchResult {
  let value: unknown;
  try {
    value = JSON.parse(body.toString('utf8'));
  } catch {
    return invalid(`The body is not JSON: send ${SHAPE}.`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return invalid(`The body must be a JSON object: ${SHAPE}.`);
  const { v, events } = value as { v?: unknown; events?: unknown };
  if (v === undefined) return invalid(`v: required; this server accepts version ${accepted}.`);
  if (!(ACCEPTED_VERSIONS as readonly unknown[]).includes(v)) return invalid(`v: version ${shown(v)} is not accepted; this server accepts version ${accepted}.`);
  if (Array.isArray(events) && events.length > MAX_EVENTS) {
    return {
      ok: false,
      reason: 'too_large',
      problem: problem(HttpErrorCode.PayloadTooLarge, `${events.length} events in one batch: send at most ${MAX_EVENTS} per request.`),
    };
  }
  const parsed = UsageBatch.safeParse(value);
  if (!parsed.success) return invalid(describe(parsed.error.issues[0]!));
  return { ok: true, events: parsed.data.events };
}
