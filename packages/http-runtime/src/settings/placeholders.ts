/** What docker/.env.example writes where a secret must go; a file still holding it is not deployable. */
export const PLACEHOLDER = 'REPLACE-ME';

/**
 * The settings whose value still holds the placeholder (a password, a key, a URL
 * carrying a password...), so that a copied docker/.env.example never starts.
 * `defineSettings` applies it to every variable a service reads.
 */
export const namesWithPlaceholder = (
  source: Readonly<Record<string, string | undefined>>,
  names: readonly string[],
): string[] => names.filter((name) => source[name]?.includes(PLACEHOLDER) === true);

export const placeholderProblem = (name: string): string =>
  `${name}: still holds the ${PLACEHOLDER} placeholder of docker/.env.example; set a real value (\`node docker/generate-secrets.mjs\` prints fresh secrets and passwords)`;
