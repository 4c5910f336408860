import { z } from 'zod';
import { EnvError } from './env-error.js';
import type { Parsed } from './pieces.js';
import { namesWithPlaceholder, placeholderProblem } from './placeholders.js';

/**
 * One service's settings: the variables it reads (`names`, a plain list that
 * docker/check.mjs checks against docker/.env.example) and their parser. `parse`
 * drops empty values first (they mean "unset", as in most .env tooling) and throws
 * an `EnvError` naming every variable zod refused, and every one still holding the
 * REPLACE-ME placeholder (placeholders.ts).
 */
export interface Settings<Shape extends z.ZodRawShape> {
  readonly names: readonly string[];
  parse(source: Readonly<Record<string, string | undefined>>): Parsed<Shape>;
}

export function defineSettings<Shape extends z.ZodRawShape>(shape: Shape): Settings<Shape> {
  const schema = z.object(shape);
  const names = Object.keys(shape);
  return {
    names,
    parse(source) {
      const placeholders = namesWithPlaceholder(source, names);
      const cleaned = Object.fromEntries(
        Object.entries(source).filter(([, value]) => value !== ''),
      );
      const parsed = schema.safeParse(cleaned);
      // A placeholder is reported as such, not also as whatever zod finds wrong with it.
      const issues = parsed.success
        ? []
        : parsed.error.issues.filter((issue) => !placeholders.includes(String(issue.path[0])));
      const problems = [
        ...placeholders.map(placeholderProblem),
        ...issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`),
      ];
      if (problems.length > 0 || !parsed.success) throw new EnvError(problems);
      return parsed.data;
    },
  };
}
