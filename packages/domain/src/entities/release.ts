export interface Environment {
  readonly id: string;
  readonly organizationId: string;
  readonly name: string;
  /** Only owners and admins publish to a protected environment (rules/roles.ts). */
  readonly protected: boolean;
  readonly createdAt: Date;
}

/** Which variant of a component is live in an environment right now. */
export interface Release {
  readonly componentId: string;
  readonly environmentId: string;
  readonly environmentName: string;
  readonly variantId: string;
  readonly releasedBy: string;
  readonly releasedAt: Date;
}

/** One line of the append-only release history. */
export interface ReleaseEvent {
  readonly id: string;
  readonly componentId: string;
  readonly environmentId: string;
  readonly environmentName: string;
  readonly variantId: string;
  readonly previousVariantId: string | null;
  readonly releasedBy: string;
  readonly releasedAt: Date;
}

/** How many release events (publishes and roll backs, in any environment) a component had in one week. */
export interface WeeklyReleaseCount {
  /** Monday 00:00 UTC. */
  readonly weekStart: Date;
  readonly count: number;
}

/** The environments every new organization starts with: `prod` protected, `staging` open to every member. */
export const DEFAULT_ENVIRONMENTS: readonly {
  readonly name: string;
  readonly protected: boolean;
}[] = [
  { name: 'staging', protected: false },
  { name: 'prod', protected: true },
];
