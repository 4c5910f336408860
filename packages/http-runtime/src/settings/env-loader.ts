import { EnvError } from './env-error.js';

/**
 * `process.env`, parsed once by `parse`. An `EnvError` (its message names every bad
 * variable) is printed and the process exits with status 78 (EX_CONFIG): a bad
 * setting stops the start, never a request.
 */
export function envLoader<T>(parse: (source: NodeJS.ProcessEnv) => T): () => T {
  let cached: T | undefined;
  return () => {
    if (cached !== undefined) return cached;
    try {
      cached = parse(process.env);
      return cached;
    } catch (error) {
      if (error instanceof EnvError) {
        process.stderr.write(`${error.message}\n`);
        process.exit(78);
      }
      throw error;
    }
  };
}
