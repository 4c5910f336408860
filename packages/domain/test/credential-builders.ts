import type { Role } from '../src/entities/organization.js';
import type { Actor } from '../src/entities/user.js';
import { inMemoryDeps } from '../src/testing/test-deps.js';
import type { CredentialScopeInput } from '../src/use-cases/credentials/credential-scope-input.js';
import { createApiToken } from '../src/use-cases/credentials/create-api-token.js';
import { exchangeApiToken } from '../src/use-cases/credentials/exchange-api-token.js';
import { aUser, anUploadedComponent } from './builders.js';

export const WRITE_STAGING: CredentialScopeInput = { componentIds: null, environments: ['staging'], access: 'write', protectedEnvironments: false };

/** Alice's organization with two components, and a person per role; `tokenActor` acts as one of them through a new API token. */
export async function anOrganizationWithTokens() {
  const { deps, repos, objects, clock } = inMemoryDeps();
  const alice = await aUser(deps, 'alice@example.com');
  const organizationId = alice.organizationId;
  const join = async (email: string, role: Role) => {
    const person = await aUser(deps, email);
    repos.state.memberships.push({ userId: person.user.id, organizationId, role });
    return person;
  };
  const admin = await join('ada@example.com', 'admin');
  const member = await join('mo@example.com', 'member');
  const viewer = await join('vi@example.com', 'viewer');
  const banner = (await anUploadedComponent(deps, objects, alice.actor, { name: 'Banner' })).componentId;
  const footer = (await anUploadedComponent(deps, objects, alice.actor, { name: 'Footer' })).componentId;
  /** The actor an access token from a new API token of `person` stands for (the exchange's answer). */
  const tokenActor = async (person: { actor: Actor }, scope: CredentialScopeInput = WRITE_STAGING, name = 'nightly'): Promise<Actor> => {
    const { secret } = await createApiToken({ actor: person.actor, organizationId, name, scope }, deps);
    const exchanged = await exchangeApiToken({ secret }, deps);
    return { userId: exchanged.userId, credential: exchanged.credential };
  };
  return { deps, repos, objects, clock, alice, admin, member, viewer, organizationId, banner, footer, join, tokenActor };
}

export const codeOf = (promise: Promise<unknown>): Promise<string> =>
  promise.then(
    () => 'resolved',
    (error: unknown) => (error as { code?: string }).code ?? `not a coded error: ${String(error)}`,
  );
