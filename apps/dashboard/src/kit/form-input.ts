import { invalidInput } from '@cp/domain';
import { z } from 'zod';

/**
 * Form fields as zod schemas. A form arrives url-encoded: every value a string, a repeated name a
 * list. Most fields pass the text through and the use case validates it, so its messages stay the
 * domain's; a field the form itself decides (a switch, a checkbox) is read here, and a refusal says
 * exactly what the domain's INVALID_INPUT would (`<field>: <problem>`).
 */

/** A text field as `field()` reads it: '' when absent or not text (optional, else zod refuses an absent key). */
export const text = z.unknown().optional().transform((value) => (typeof value === 'string' ? value : ''));

/** A checkbox: ticked sends "on", unticked sends nothing. */
export const checked = text.transform((value) => value === 'on');

/** A checkbox group: one string or a list. */
export const list = z
  .unknown()
  .optional()
  .transform((value) =>
    Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : typeof value === 'string' ? [value] : [],
  );

/** One of a few exact values, each read as what it means; anything else is refused with `problem`. */
export const choice = <T>(meanings: Readonly<Record<string, T>>, problem: string) =>
  text.transform((value, context): T => {
    if (Object.hasOwn(meanings, value)) return meanings[value] as T;
    context.addIssue({ code: 'custom', message: problem });
    return z.NEVER;
  });

/** A switch sending "on" or "off". */
export const onOff = choice({ on: true, off: false }, 'send "on" or "off".');

/** The form's fields read by `schema`; the first refusal is the domain's INVALID_INPUT for that field. */
export function readForm<Schema extends z.ZodType>(schema: Schema, body: unknown): z.output<Schema> {
  const parsed = schema.safeParse(body ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw invalidInput(issue?.path.map(String).join('.') || 'form', issue?.message ?? 'the form could not be read.');
}
