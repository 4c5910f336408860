import { z } from 'zod';
import { EnvError } from './env-error.js';
import type { Parsed } from './pieces.js';

/**
 * One service's settings: the variables it reads (`names`, a plain list that
 * docker/check.mjs checks against docker/.env.example) and their parser. `parse`
 * drops empty values first (they mean "unset", as in most .env tooling) and throws
 * an `EnvError` naming every variable zod refused.
 */
export interface Settings<Shape extends z.ZodRawShape> {
  readonly names: readonly string[];
  parse(source: Readonly<Record<string, string | undefined>>): Parsed<Shape>;
}

export function defineSettings<Shape extends z.ZodRawShape>(shape: Shape): Settings<Shape> {
  const schema = z.object(shape);
  return {
    names: Object.keys(shape),
    parse(source) {
      const cleaned = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ''));
      const parsed = schema.safeParse(cleaned);
      if (!parsed.success) throw new EnvError(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
      return parsed.data;
    },
  };
}
