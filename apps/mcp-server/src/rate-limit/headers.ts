import type { Response } from 'express';
import type { RateDecision } from './limiter.js';

/**
 * RateLimit header fields (IETF draft-ietf-httpapi-ratelimit-headers, the widely
 * deployed `RateLimit-Limit/-Remaining/-Reset` form) plus `Retry-After` when refused.
 */
export function setRateLimitHeaders(res: Response, decision: RateDecision): void {
  res.setHeader('RateLimit-Limit', String(decision.limit));
  res.setHeader('RateLimit-Remaining', String(decision.remaining));
  res.setHeader('RateLimit-Reset', String(decision.resetSeconds));
  res.setHeader('RateLimit-Policy', `${decision.limit};w=${decision.windowSeconds}`);
  if (!decision.allowed) res.setHeader('Retry-After', String(decision.resetSeconds));
}
