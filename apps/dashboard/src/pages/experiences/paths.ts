/** The pages of a component environment's experience and rollout (the environment by name, as hosts ask for it). */
export const experiencePath = (componentId: string, environment: string): string => `/component/${componentId}/env/${encodeURIComponent(environment)}/experience`;

export const rolloutPath = (componentId: string, environment: string): string => `/component/${componentId}/env/${encodeURIComponent(environment)}/rollout`;
