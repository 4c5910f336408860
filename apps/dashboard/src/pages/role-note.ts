import { can, rolesWith, type Permission, type Role } from '@cp/domain';
import { html, type SafeHtml } from '@cp/web-forms';

/**
 * For forms a role cannot use: the controls stay visible but disabled, pointing at a note that says
 * why (the server refuses them anyway, with the same words). `role` undefined: not a member.
 */
export interface RoleGate {
  readonly allowed: boolean;
  /** ` disabled aria-describedby="…"` on each control of a refused form; nothing when allowed. */
  readonly disabled: SafeHtml | '';
  /** The note the disabled controls point at; nothing when allowed. */
  readonly note: SafeHtml | '';
}

export function roleGate(
  role: Role | undefined,
  permission: Permission,
  what: string,
  id: string,
): RoleGate {
  if (role !== undefined && can(role, permission)) return { allowed: true, disabled: '', note: '' };
  const names = rolesWith(permission).map((r) => `${r}s`);
  const who =
    names.length > 1
      ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`
      : (names[0] ?? 'nobody');
  return {
    allowed: false,
    disabled: html` disabled aria-describedby="${id}"`,
    note: html`<p class="hint" id="${id}">
      Your role here is ${role ?? 'none'}: only ${who} can ${what}.
    </p>`,
  };
}
