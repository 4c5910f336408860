import { Limits, listComponents, listEnvironments, listMembers, type Actor, type Environment } from '@cp/domain';
import type { ComponentChoice } from '../pages/credentials/scope-fieldset.js';
import type { RouteContext } from './context.js';

/** What the narrowing of a token or a policy is chosen from, and whom the lists name. */
export interface CredentialChoices {
  readonly environments: Environment[];
  readonly components: ComponentChoice[];
  readonly moreComponents: boolean;
  readonly componentNames: ReadonlyMap<string, string>;
  readonly people: ReadonlyMap<string, string>;
}

export async function credentialChoices(actor: Actor, organizationId: string, ctx: RouteContext): Promise<CredentialChoices> {
  const request = { actor, organizationId };
  const [environments, page, members] = await Promise.all([
    listEnvironments(request, ctx.domain),
    listComponents({ ...request, limit: Limits.listMax }, ctx.domain),
    listMembers(request, ctx.domain),
  ]);
  const components = page.components.map((c) => ({ id: c.id, name: c.name }));
  return {
    environments,
    components,
    moreComponents: page.nextCursor !== null,
    componentNames: new Map(components.map((c) => [c.id, c.name])),
    people: new Map(members.map((m) => [m.userId, m.email])),
  };
}
