import { isUuid } from '@cp/domain';
import { z } from 'zod';
import 'zod-openapi';

/*
 * Wire format v1 of `POST /v1/events` (docs/delivery-api.md "Usage events"): what the host SDK
 * sends. It validates every batch and generates the OpenAPI body schema. Strict: a field v1
 * does not define is refused (400 naming it), so a client that sends more than v1 learns it at
 * once instead of having it silently dropped.
 */

/** The versions this server accepts, for the message that refuses another. */
export const ACCEPTED_VERSIONS = [1] as const;
/** Events in one batch (more: 413). */
export const MAX_EVENTS = 200;
/** Bytes of one body (more: 413, and the rest is not read). */
export const MAX_BODY_BYTES = 64 * 1024;
/** The largest duration taken: an hour (longer is a clock or a tab asleep, not a load). */
export const MAX_MS = 3_600_000;
/** `seq` is stored as a 32-bit integer. */
const MAX_SEQ = 2_147_483_647;

export const ERROR_NAMES = ['sdk', 'uncaught', 'rejection'] as const;
export const VITAL_NAMES = ['LCP', 'INP', 'CLS'] as const;
/** The one name of each type whose name is fixed. */
const FIXED_NAME = { load: 'consume', render: 'ready' } as const;
/** Control characters and lone surrogates (a name cut in the middle of a pair): PostgreSQL refuses NUL and broken UTF-16 in text. */
const UNSTORABLE = /[\p{Cc}\p{Cs}]/gu;
/**
 * Free text from the page (action names, error classes and messages) is made storable rather than refused:
 * one odd character must not cost the batch it came in (the SDK cuts these to a length, which may split a pair).
 */
const text = (max: number, what: string) =>
  z
    .string({ error: 'must be a string' })
    .min(1, `must not be empty`)
    .max(max, `must be at most ${max} characters`)
    .transform((value) => value.replace(UNSTORABLE, '\uFFFD'))
    .meta({ description: what });

const uuid = (what: string) =>
  z
    .string({ error: `must be a ${what} id (a UUID)` })
    .refine(isUuid, `must be a ${what} id (a UUID)`)
    .meta({ description: `The ${what} id (a UUID), as /consume returned it.`, example: '3f1c2a9e-8d4b-4c6f-9a71-2b5e0d7c4e11' });

const oneOf = <const T extends readonly [string, ...string[]]>(values: T) => z.enum(values, { error: `must be one of ${values.join(', ')}` });

const HOST_NAME = /^(?:[A-Za-z0-9.-]{1,253}|\[[0-9A-Fa-f:.]{2,45}\])$/;

export const UsageEventWire = z
  .strictObject({
    type: oneOf(['load', 'render', 'error', 'interaction', 'vital']).meta({ description: 'What happened.' }),
    component: uuid('component'),
    env: z
      .string({ error: 'must be an environment name, or null for a preview' })
      .regex(/^[a-z][a-z0-9-]{0,31}$/, 'must be an environment name (1-32 lower-case letters, digits or "-"), or null for a preview')
      .nullable()
      .meta({ description: 'The environment the variant was released to, or null for a preview.', example: 'prod' }),
    variant: uuid('variant')
      .nullable()
      .meta({ description: 'The variant id (a UUID) as /consume returned it; null only for an SDK error raised before any variant was loaded.' }),
    isolation: oneOf(['iframe', 'shadow']),
    sdk: z
      .string({ error: 'must be the SDK version, such as 1.0.0' })
      .max(32, 'must be at most 32 characters')
      .regex(/^\d+\.\d+\.\d+[0-9A-Za-z.+-]*$/, 'must be the SDK version, such as 1.0.0')
      .meta({ description: 'The SDK version (semver).', example: '1.0.0' }),
    host: z
      .string({ error: 'must be the page\'s host name, such as shop.example.com' })
      .max(253, 'must be at most 253 characters')
      .regex(HOST_NAME, 'must be the page\'s host name, such as shop.example.com (no scheme, port or path)')
      .meta({ description: 'The host page\'s host name (`location.hostname`), never its path.', example: 'shop.example.com' }),
    session: z
      .string({ error: 'must be 22 base64url characters' })
      .regex(/^[A-Za-z0-9_-]{22}$/, 'must be 22 base64url characters')
      .meta({ description: 'Random per page and day, made by the SDK: never derived from the host\'s user.' }),
    seq: z
      .number({ error: 'must be an integer from 0' })
      .int('must be an integer from 0')
      .min(0, 'must be an integer from 0')
      .max(MAX_SEQ, `must be at most ${MAX_SEQ}`)
      .meta({ description: 'The event\'s number in its session.' }),
    rate: z
      .number({ error: 'must be a number in (0, 1]' })
      .gt(0, 'must be a number in (0, 1]')
      .max(1, 'must be a number in (0, 1]')
      .meta({ description: 'The sampling rate the host page applied.' }),
    name: text(
      64,
      `load "${FIXED_NAME.load}", render "${FIXED_NAME.render}", error ${ERROR_NAMES.map((n) => `"${n}"`).join(' | ')}, interaction: the action (1-64 characters; control characters and broken pairs become U+FFFD), vital ${VITAL_NAMES.map((n) => `"${n}"`).join(' | ')}.`,
    ),
    ms: z
      .number({ error: `must be a number of milliseconds from 0 to ${MAX_MS}` })
      .min(0, `must be a number of milliseconds from 0 to ${MAX_MS}`)
      .max(MAX_MS, `must be a number of milliseconds from 0 to ${MAX_MS}`)
      .optional()
      .meta({ description: 'Milliseconds (CLS x 1000): required for load, render and vital, absent otherwise.' }),
    cache: z.boolean({ error: 'must be true or false' }).optional().meta({ description: 'load only: whether the browser\'s HTTP cache answered.' }),
    error: z
      .strictObject({
        // Empty (a frame may send anything): stored as "Error" rather than costing the batch.
        class: z
          .string({ error: 'must be a string' })
          .max(64, 'must be at most 64 characters')
          .transform((value) => value.replace(UNSTORABLE, '\uFFFD') || 'Error')
          .meta({ description: 'The error\'s constructor name or the SDK\'s problem code ("Error" when empty).' }),
        message: z
          .string({ error: 'must be a string' })
          .max(200, 'must be at most 200 characters')
          .transform((value) => value.replace(UNSTORABLE, '\uFFFD')),
        stack: z.string({ error: 'must be 8 lower-case hex digits' }).regex(/^[0-9a-f]{8}$/, 'must be 8 lower-case hex digits'),
      })
      .optional()
      .meta({ description: 'error only (required there): the error\'s class or code, its message, and the SDK\'s hash of its stack.' }),
  })
  .superRefine((event, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    const { type } = event;
    if (type === 'load' || type === 'render') {
      if (event.name !== FIXED_NAME[type]) issue('name', `a ${type} event's name is "${FIXED_NAME[type]}"`);
    } else if (type === 'error') {
      if (!(ERROR_NAMES as readonly string[]).includes(event.name)) issue('name', `an error event's name is one of ${ERROR_NAMES.join(', ')}`);
    } else if (type === 'vital') {
      if (!(VITAL_NAMES as readonly string[]).includes(event.name)) issue('name', `a vital event's name is one of ${VITAL_NAMES.join(', ')}`);
    }
    const timed = type === 'load' || type === 'render' || type === 'vital';
    if (timed && event.ms === undefined) issue('ms', `required for ${type} events`);
    if (!timed && event.ms !== undefined) issue('ms', `${type} events carry no ms`);
    if (type !== 'load' && event.cache !== undefined) issue('cache', 'only load events carry cache');
    if (type === 'error' && event.error === undefined) issue('error', 'required for error events');
    if (type !== 'error' && event.error !== undefined) issue('error', 'only error events carry error');
    if (event.variant === null && !(type === 'error' && event.name === 'sdk')) issue('variant', 'may be null only for an error event named "sdk" (raised before any variant was loaded)');
  })
  .meta({ id: 'UsageEvent', description: 'One event, as the host SDK reports it. The server stamps the time itself.' });

export type UsageEventWire = z.output<typeof UsageEventWire>;

export const UsageBatch = z
  .strictObject({
    v: z.literal(1).meta({ description: 'The wire format\'s version.' }),
    events: z
      .array(UsageEventWire, { error: 'must be an array of events' })
      .min(1, 'must hold at least one event')
      .max(MAX_EVENTS, `must hold at most ${MAX_EVENTS} events`),
  })
  .meta({ id: 'UsageBatch', description: `A batch of at most ${MAX_EVENTS} events, in at most ${MAX_BODY_BYTES} bytes.` });
