import { createRateLimiter, type RateDecision, type Redis } from '@cp/http-runtime/rate-limit';
import type { RpcMessageSummary } from '../auth/scopes.js';
import type { RateLimitConfig } from '../config.js';

export type { RateDecision } from '@cp/http-runtime/rate-limit';

/** What the endpoint needs of a budget (the shared limiter in packages/http-runtime satisfies it). */
export interface RateLimiter {
  /** Takes `points` (default one) atomically, or refuses them all. */
  consume(key: string, points?: number): Promise<RateDecision>;
}

/** A budget per user that a tool may pay on top of the request budget (ToolDefinition.budget). */
export type ToolBudget = 'upload';

/** What a refusal says was too many, per tool budget: "Rate limit exceeded: too many <what>." */
export const TOOL_BUDGET_WHAT: Readonly<Record<ToolBudget, string>> = { upload: 'uploads started' };

/** The tool budgets a request pays, with their points: one per call that declares the budget, so a batch pays as its calls would one by one. */
export function toolBudgetsOf(messages: readonly RpcMessageSummary[], tools: ReadonlyMap<string, { readonly budget?: ToolBudget }>): Map<ToolBudget, number> {
  const points = new Map<ToolBudget, number>();
  for (const message of messages) {
    const budget = message.toolName === undefined ? undefined : tools.get(message.toolName)?.budget;
    if (budget !== undefined) points.set(budget, (points.get(budget) ?? 0) + 1);
  }
  return points;
}

/** The budgets: per user with a token, per IP without one, and each tool budget per user. */
export interface RateLimits extends Readonly<Record<ToolBudget, RateLimiter>> {
  readonly user: RateLimiter;
  readonly ip: RateLimiter;
}

/**
 * With a Redis client, counters are shared by every instance; if Redis fails,
 * each instance falls back to its own memory counters (the insurance limiter)
 * rather than refusing or waving through all traffic.
 */
export function createRateLimits(config: RateLimitConfig, options: { redis?: Redis | null; keyPrefix?: string } = {}): RateLimits {
  const prefix = options.keyPrefix ?? 'mcp-rl';
  const make = (name: string, points: number, windowSeconds: number): RateLimiter =>
    createRateLimiter({ keyPrefix: `${prefix}:${name}`, points, windowSeconds, redis: options.redis ?? null, onStoreFailure: 'memory' });
  return {
    user: make('user', config.userPoints, config.windowSeconds),
    ip: make('ip', config.ipPoints, config.windowSeconds),
    upload: make('upload', config.uploadPoints, config.uploadWindowSeconds),
  };
}
