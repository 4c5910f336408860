import { can, rolesWith, type Permission, type Role } from '@cp/domain';
import { disabledWithReason, type Gate } from './disabled-reason.js';

/**
 * The disabled-with-reason control for a permission: the reason names the visitor's role and the roles
 * that may `what`. Use it for forms a role cannot use; `role` undefined: not a member.
 */
export function roleGate(role: Role | undefined, permission: Permission, what: string, id: string): Gate {
  if (role !== undefined && can(role, permission)) return disabledWithReason(null, id);
  const names = rolesWith(permission).map((r) => `${r}s`);
  const who = names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : (names[0] ?? 'nobody');
  return disabledWithReason(`Your role here is ${role ?? 'none'}: only ${who} can ${what}.`, id);
}
