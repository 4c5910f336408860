import { DomainError, ErrorCode } from './domain-error.js';
import { Dependency, UnavailableError } from './unavailable-error.js';

/** Ids outside the actor's organizations and ids that do not exist answer the same. */
export const notFound = (what: string, id: string): DomainError =>
  new DomainError(ErrorCode.NotFound, `${what} "${id}" was not found, or you do not have access to it.`, {
    resource: what,
  });

export const invalidInput = (field: string, problem: string): DomainError =>
  new DomainError(ErrorCode.InvalidInput, `${field}: ${problem}`, { field });

/** A release refused at the moment of writing (Releases.publish); publishVariant words the full answer. */
export const protectedEnvironment = (environment: string): DomainError =>
  new DomainError(
    ErrorCode.EnvironmentProtected,
    `${environment} is protected: only owners and admins of the organization can publish to it.`,
    { environment },
  );

/** A release or a decision refused at the moment of writing because the role (read then) does not allow it. */
export const roleRefused = (what: string): DomainError =>
  new DomainError(
    ErrorCode.Forbidden,
    `Your role in this organization does not let you ${what}. Ask an owner or admin for a role that can.`,
  );

/** The database did not answer (packages/db recognises it); `cause` stays for the log, never for the client. */
export const databaseUnavailable = (cause?: unknown): UnavailableError => new UnavailableError(Dependency.Database, { cause });
