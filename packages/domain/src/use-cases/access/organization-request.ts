import type { Actor } from '../../entities/user.js';

/** Who asks, about which organization: what a use case scoped to one organization is given first. */
export interface OrganizationRequest {
  readonly actor: Actor;
  readonly organizationId: string;
}
