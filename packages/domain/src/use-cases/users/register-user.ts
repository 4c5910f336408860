import type { User } from '../../entities/user.js';
import { invalidInput } from '../../errors/factories.js';
import type { DomainDeps } from '../../ports/deps.js';
import { personalOrganization } from '../organizations/new-organization.js';
import { auditNote } from '../access/audit-note.js';

// Deliberately loose: the address is proven by whoever signs the user up, not by a regex.
const EMAIL = /^[^\s@]+@[^\s@]+$/;
const EMAIL_MAX_LENGTH = 254;

/**
 * Creates a user with a personal organization (environments `staging` and
 * `prod`) that becomes the default. Password handling belongs to the auth server:
 * it passes the hash, which is stored with the user in one write, so a failure
 * never leaves an account without its password.
 */
export async function registerUser(
  { email, displayName, passwordHash }: { email: string; displayName?: string | null; passwordHash?: string },
  deps: Pick<DomainDeps, 'repos' | 'ids' | 'clock'>,
): Promise<User> {
  const address = email.trim();
  if (address.length > EMAIL_MAX_LENGTH || !EMAIL.test(address)) {
    throw invalidInput('email', 'enter an email address such as name@example.com.');
  }
  const name = displayName?.trim() || null;
  const userId = deps.ids.newId();
  return deps.repos.users.createWithOrganization({
    user: { id: userId, email: address, displayName: name },
    organization: personalOrganization({ email: address, displayName: name }, deps),
    passwordHash,
    now: deps.clock.now(),
    audit: auditNote({ userId }, deps),
  });
}
