import {
  ErrorRateRiseRule,
  errorRateRise,
  getComponentUsage as getComponentUsageUseCase,
  NO_VARIANT,
  USAGE_WINDOWS,
  type UsageFigures,
  type UsageSlice,
} from '@cp/domain';
import { z } from 'zod';
import { Scope } from '../auth/scopes.js';
import { actorOf, defineTool, isoTime } from './define.js';
import { componentId, environmentName } from './params.js';

const WINDOW_ERROR = `window must be one of ${USAGE_WINDOWS.map((w) => `"${w}"`).join(', ')}.`;

const percentilesShape = z.object({ p50: z.number().nullable(), p75: z.number().nullable(), p99: z.number().nullable() });

const figuresShape = z.object({
  served: z.int().describe('Responses the delivery API sent (hosts without the SDK count here too).'),
  loads: z.int(),
  renders: z.int(),
  errors: z.int(),
  errorRate: z.number().nullable().describe('errors / (renders + errors); null without either.'),
  render: percentilesShape.describe('Render time in ms, estimated from histograms (within one bucket, about 41 %); null when nothing was measured.'),
  load: percentilesShape.describe('Load time in ms, estimated the same way.'),
});

const environmentDescription = 'Environment name; "" for previews.';

const toFigures = (f: UsageFigures): z.infer<typeof figuresShape> => ({
  served: f.served,
  loads: f.loads,
  renders: f.renders,
  errors: f.errors,
  errorRate: f.errorRate,
  render: { ...f.render },
  load: { ...f.load },
});

const percent = (rate: number | null): string => (rate === null ? 'n/a' : `${(rate * 100).toFixed(2)} %`);
const ms = (value: number | null): string => (value === null ? 'n/a' : `${Math.round(value)} ms`);
const environmentLabel = (environment: string): string => (environment === '' ? 'previews' : environment);

/**
 * One sentence per environment with two variants or more: the newest variant measured there
 * against the one before it, judged by the error rate rise rule (docs/rules.md).
 */
function summarize(byVariant: readonly UsageSlice[], windowName: string): string {
  const lines: string[] = [];
  const environments = [...new Set(byVariant.map((slice) => slice.environment))];
  for (const environment of environments) {
    // byVariant lists each environment's variants newest first; errors raised before any variant loaded compare with none.
    const [newest, before] = byVariant.filter((slice) => slice.environment === environment && slice.variantId !== NO_VARIANT);
    const where = environmentLabel(environment);
    if (!newest) continue;
    if (!before) {
      lines.push(`${where}: only ${newest.variantLabel} was measured in the last ${windowName} (error rate ${percent(newest.errorRate)}, render p75 ${ms(newest.render.p75)}).`);
      continue;
    }
    const figures = `error rate ${percent(newest.errorRate)} vs ${percent(before.errorRate)}, render p75 ${ms(newest.render.p75)} vs ${ms(before.render.p75)}`;
    const minimum = ErrorRateRiseRule.minimumSample;
    const verdict =
      newest.renders + newest.errors < minimum || before.renders + before.errors < minimum
        ? `too few renders to judge (each needs ${minimum} renders + errors)`
        : errorRateRise(newest, before) !== null
          ? 'yes, it is doing worse: its error rate rose'
          : 'no, its error rate did not rise';
    lines.push(`${where}: is ${newest.variantLabel} doing worse than ${before.variantLabel}? ${verdict}; ${figures}.`);
  }
  return lines.length === 0 ? `No usage was recorded in the last ${windowName}.` : lines.join('\n');
}

export const getComponentUsage = defineTool({
  name: 'get_component_usage',
  title: 'Get component usage',
  description:
    'Reads how a component is used and how it behaves in production over the last 24h, 7d (default) or 30d: responses served, loads, renders, errors, ' +
    'error rate and p50/p75/p99 render and load times, by environment and by version (variant), with the releases in the window and the most frequent errors. ' +
    '"summary" says, per environment, whether the newest version is doing worse than the one before it. ' +
    'Next: list_variants to see the versions, publish_component with an earlier variantId to roll back.',
  scope: Scope.Read,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({
    componentId,
    window: z
      .enum(USAGE_WINDOWS, { error: WINDOW_ERROR })
      .optional()
      .describe('How far back: "24h", "7d" (default) or "30d".'),
    environment: environmentName.optional().describe('Only this environment (for example "prod").'),
  }),
  output: z.object({
    componentId: z.string(),
    componentName: z.string(),
    window: z.enum(USAGE_WINDOWS),
    from: z.string().describe('ISO 8601 UTC, included.'),
    to: z.string().describe('ISO 8601 UTC, excluded (the end of the current minute).'),
    summary: z.string().describe('Per environment: is the newest version doing worse than the one before it.'),
    total: figuresShape,
    byEnvironment: z.array(figuresShape.extend({ environment: z.string().describe(environmentDescription) })),
    byVariant: z
      .array(figuresShape.extend({ environment: z.string().describe(environmentDescription), variantId: z.string(), variantLabel: z.string().describe('"v" and the sequence.') }))
      .describe('Newest version first within each environment.'),
    releases: z
      .array(z.object({ at: z.string(), environment: z.string(), variantId: z.string(), previousVariantId: z.string().nullable(), rollback: z.boolean() }))
      .describe('Publishes and roll backs in the window, oldest first.'),
    topErrors: z
      .array(
        z.object({
          errorClass: z.string(),
          message: z.string(),
          count: z.int().describe('Since first seen.'),
          firstSeen: z.string(),
          lastSeen: z.string(),
          environment: z.string(),
          variantId: z.string(),
        }),
      )
      .describe('Most counted first, grouped by stack.'),
  }),
  async run(args, ctx) {
    const window = args.window ?? '7d';
    const report = await getComponentUsageUseCase(
      { actor: actorOf(ctx), componentId: args.componentId, window, environment: args.environment },
      { repos: ctx.domain.repos, clock: ctx.domain.clock, usage: ctx.usage },
    );
    return {
      componentId: report.component.id,
      componentName: report.component.name,
      window: report.window,
      from: isoTime(report.from),
      to: isoTime(report.to),
      summary: summarize(report.byVariant, window),
      total: toFigures(report.total),
      byEnvironment: report.byEnvironment.map((slice) => ({ environment: slice.environment, ...toFigures(slice) })),
      byVariant: report.byVariant.map((slice) => ({
        environment: slice.environment,
        variantId: slice.variantId!,
        variantLabel: slice.variantLabel!,
        ...toFigures(slice),
      })),
      releases: report.releases.map((marker) => ({ ...marker, at: isoTime(marker.at) })),
      topErrors: report.topErrors.map((group) => ({
        errorClass: group.errorClass,
        message: group.message,
        count: group.count,
        firstSeen: isoTime(group.firstSeen),
        lastSeen: isoTime(group.lastSeen),
        environment: group.environment,
        variantId: group.variantId,
      })),
    };
  },
});
