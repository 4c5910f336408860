/**
 * How long a fetched document is kept, in seconds: its `Cache-Control: max-age`, held
 * within [min, max]. No max-age, `no-cache` or `no-store` mean the floor: the document
 * is needed again at the token endpoint moments after the authorization request, and
 * refetching it on every request would let anyone make us fetch on demand.
 */
export function cacheSeconds(
  cacheControl: string | undefined,
  bounds: { readonly min: number; readonly max: number },
): number {
  const directives = (cacheControl ?? '')
    .toLowerCase()
    .split(',')
    .map((directive) => directive.trim());
  if (directives.includes('no-store') || directives.includes('no-cache')) return bounds.min;
  const maxAge = directives
    .map((directive) => /^max-age\s*=\s*"?(\d+)"?$/.exec(directive)?.[1])
    .find((value) => value !== undefined);
  if (maxAge === undefined) return bounds.min;
  return Math.min(bounds.max, Math.max(bounds.min, Number(maxAge)));
}
