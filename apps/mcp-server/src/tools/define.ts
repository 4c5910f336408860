import type { Actor, DomainDeps } from '@cp/domain';
import type { z } from 'zod';
import type { Principal } from '../auth/principal.js';
import type { Requirement } from '../auth/scopes.js';
import type { AppConfig } from '../config.js';
import type { Logger } from '../log.js';

/** What a tool may use while it runs: the caller, the domain, and settings. */
export interface ToolContext {
  /** Null only for the public tool. */
  readonly principal: Principal | null;
  readonly domain: DomainDeps;
  readonly config: AppConfig;
  readonly log: Logger;
  readonly requestId: string;
  /** Rendered once at start (guide/guide-html.ts). */
  readonly guideHtml: string;
}

export interface ToolAnnotations {
  readonly readOnlyHint: boolean;
  readonly destructiveHint: boolean;
  readonly idempotentHint: boolean;
  readonly openWorldHint: boolean;
}

export interface ToolDefinition<I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject> {
  readonly name: string;
  readonly title: string;
  /** Says when to use the tool and what to do next. */
  readonly description: string;
  readonly requirement: Requirement;
  readonly annotations: ToolAnnotations;
  readonly input: I;
  /** The success shape, without `success` (added for every tool). */
  readonly output: O;
  run(args: z.output<I>, ctx: ToolContext): Promise<z.input<O>>;
}

/** Identity helper that keeps the input and output types tied together. */
export const defineTool = <I extends z.ZodObject, O extends z.ZodObject>(tool: ToolDefinition<I, O>): ToolDefinition<I, O> => tool;

/** The acting user of an authenticated tool (the scope gate guarantees one). */
export function actorOf(ctx: ToolContext): Actor {
  if (ctx.principal === null) throw new Error('authenticated tool called without a principal');
  return { userId: ctx.principal.userId };
}

export const isoTime = (date: Date): string => date.toISOString();
