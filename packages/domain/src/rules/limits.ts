/** Documented limits (docs/rules.md). Changing one changes the public contract. */
export const Limits = {
  componentNameMaxLength: 100,
  descriptionMaxLength: 1000,
  tagMaxLength: 50,
  tagsPerComponent: 50,
  /** Tags one edit may name, across add, remove and set. */
  tagsPerEdit: 100,
  listDefault: 50,
  listMax: 200,
  environmentNameMaxLength: 32,
  flowComponentsMax: 100,
  /** Unrevoked preview keys an organization may hold at once. */
  previewKeysPerOrganization: 20,
  previewKeyNameMaxLength: 60,
  /** Webhook endpoints an organization may register. */
  webhookEndpointsPerOrganization: 10,
  webhookUrlMaxLength: 2000,
  /** Recent delivery attempts an endpoint's page lists. */
  webhookAttemptsShown: 50,
  /** Components the organization usage report lists as the busiest. */
  usageBusiestComponents: 10,
  /**
   * Components the organization usage report checks for an error rate rise (one release read
   * each), the busiest of those that served two variants in an environment first.
   */
  usageRiseCandidates: 50,
} as const;
