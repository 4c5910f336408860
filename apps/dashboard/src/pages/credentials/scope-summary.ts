import type { CredentialScope } from '@cp/domain';

/** A credential's narrowing in one line: "write · staging, prod (protected too) · all components". */
export function scopeSummary(scope: CredentialScope, componentNames: ReadonlyMap<string, string>): string {
  const environments =
    scope.environments.length === 0 ? 'no environment' : `${scope.environments.join(', ')}${scope.protectedEnvironments ? ' (protected too)' : ''}`;
  const components =
    scope.componentIds === null
      ? 'all components'
      : scope.componentIds.map((id) => componentNames.get(id) ?? 'a removed component').join(', ');
  return [scope.access, environments, components].join(' · ');
}
