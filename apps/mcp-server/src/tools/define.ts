import type { Actor, DomainDeps, RolloutFigures, UsageReader } from '@cp/domain';
import type { z } from 'zod';
import { actorOfPrincipal, type Principal } from '../auth/principal.js';
import type { ToolScope } from '../auth/scopes.js';
import type { AppConfig } from '../config.js';
import type { Logger } from '@cp/http-runtime';
import type { ToolMetric } from '../metrics.js';
import type { ToolBudget } from '../rate-limit/limiter.js';

/** What a tool may use while it runs: the caller, the domain, and settings. */
export interface ToolContext {
  /** Null only for the public tool. */
  readonly principal: Principal | null;
  readonly domain: DomainDeps;
  /** The usage analytics store (get_component_usage). */
  readonly usage: UsageReader;
  /** Sessions per variant from usage analytics (get_rollout). */
  readonly figures: RolloutFigures;
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

/** Who may call a tool (MCP Apps): the model, the view of a result, or both (the default when absent). */
export type ToolVisibility = 'model' | 'app';

/**
 * The tool's part in MCP Apps (docs/mcp-apps.md): the view a host renders its result in, and who
 * may call it. Sent to every client, whatever capabilities it declared.
 */
export interface ToolUi {
  /** A `ui://` resource (views/ui-resources.ts); absent for a tool that only a view calls. */
  readonly resourceUri?: string;
  /** `['app']`: a tool the view needs and the model does not; hosts keep it from the model. */
  readonly visibility?: readonly ToolVisibility[];
}

export interface ToolDefinition<I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject> {
  readonly name: string;
  readonly title: string;
  /** Says when to use the tool and what to do next. */
  readonly description: string;
  /** Who may call it (auth/scopes.ts applies it before the MCP server runs): required, so no tool is left open by omission. */
  readonly scope: ToolScope;
  /** A budget per user each request calling it pays, on top of the request budget (rate-limit/limiter.ts). */
  readonly budget?: ToolBudget;
  /** What a successful call counts besides mcp_tool_calls_total (metrics.ts). */
  readonly metric?: ToolMetric;
  readonly annotations: ToolAnnotations;
  readonly ui?: ToolUi;
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
  return actorOfPrincipal(ctx.principal);
}

/** The component's page in the dashboard, where people review and release it. */
export const componentPageUrl = (ctx: ToolContext, componentId: string): string => `${ctx.config.dashboardUrl}/component/${componentId}`;

export const isoTime = (date: Date): string => date.toISOString();

/** What a tool that changes what users are served declares: not read-only, destructive (it replaces what is live), not idempotent. */
export const CHANGES_A_RELEASE = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false } as const;
