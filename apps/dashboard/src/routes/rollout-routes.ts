import {
  changeRollout,
  ErrorCode,
  getComponent,
  getExperience,
  getRollout,
  isDomainError,
  Limits,
  listVariants,
  promoteRollout,
  startRollout,
  stopRollout,
  type Actor,
  type RolloutAction,
  type RolloutDeps,
  type RolloutView,
} from '@cp/domain';
import { Router } from 'express';
import { z } from 'zod';
import { defineAction } from '../kit/define-action.js';
import { definePage, mountPages } from '../kit/define-page.js';
import { text } from '../kit/form-input.js';
import { mountActions } from '../kit/mount-actions.js';
import { rolloutPath } from '../pages/experiences/paths.js';
import { rolloutPage } from '../pages/rollouts/rollout-page.js';
import type { RouteContext, Visitor } from './context.js';
import { defaultStartForm, readStartForm, startPlanOf, type StartForm } from './rollout-start-form.js';

const PATH = '/component/:id/env/:environment/rollout';

interface Target {
  readonly actor: Actor;
  readonly visitor: Visitor;
  readonly componentId: string;
  readonly environment: string;
}

const rolloutDeps = (ctx: RouteContext): RolloutDeps => ({ repos: ctx.domain.repos, ids: ctx.domain.ids, clock: ctx.domain.clock, figures: ctx.rolloutFigures });

/** The render chart's buckets: hours up to two days, then six hours up to two weeks, then days (the usage reader's widths). */
const bucketSecondsFor = (span: number): number => (span <= 2 * 86_400_000 ? 3600 : span <= 14 * 86_400_000 ? 21_600 : 86_400);

/** The environment's live or last rollout; null when it never had one (getRollout's NOT_FOUND of a rollout, not of the component). */
async function rolloutOrNone(t: Target, ctx: RouteContext): Promise<RolloutView | null> {
  try {
    return await getRollout({ actor: t.actor, componentId: t.componentId, environment: t.environment }, rolloutDeps(ctx));
  } catch (error) {
    if (isDomainError(error) && error.code === ErrorCode.NotFound && error.details?.resource === 'Rollout') return null;
    throw error;
  }
}

/** The rollout page, with a refused start's typed values or a change's conflict when given. */
async function renderRollout(t: Target, ctx: RouteContext, shown: { notice?: string | null; error?: string | null; startForm?: StartForm } = {}): Promise<string> {
  const input = { actor: t.actor, componentId: t.componentId, environment: t.environment };
  const [experience, view, { component }, { variants }] = await Promise.all([
    getExperience(input, ctx.domain),
    rolloutOrNone(t, ctx),
    getComponent({ actor: t.actor, componentId: t.componentId, includeContent: false }, ctx.domain),
    listVariants({ actor: t.actor, componentId: t.componentId, limit: Limits.listMax }, ctx.domain),
  ]);
  let renders = null;
  if (view !== null) {
    const from = view.rollout.startedAt;
    const to = view.rollout.endedAt ?? ctx.domain.clock.now();
    const bucketSeconds = bucketSecondsFor(to.getTime() - from.getTime());
    const buckets = await ctx.usage.series({ componentId: component.id, from, to, bucketSeconds });
    renders = { buckets, from, to, bucketSeconds };
  }
  return rolloutPage({
    component,
    experience,
    view,
    renders,
    variants: variants.map((v) => v.variant),
    releaseId: variants.find((v) => v.environments.includes(experience.environment.name))?.variant.id ?? null,
    role: t.visitor.organizations.find((o) => o.id === component.organizationId)?.role ?? 'viewer',
    chrome: t.visitor.chrome(component.organizationId),
    notice: shown.notice ?? null,
    error: shown.error ?? null,
    startForm: shown.startForm ?? defaultStartForm(),
  });
}

const targetOf = (args: { actor: Actor; visitor: Visitor; params: { id: string; environment: string } }): Target => ({
  actor: args.actor,
  visitor: args.visitor,
  componentId: args.params.id,
  environment: args.params.environment,
});

/** The revision the page showed; the domain refuses anything but a revision number, naming the field. */
const revisionField = z.object({ expectedRevision: text.transform((value) => (/^[0-9]{1,9}$/.test(value) ? Number(value) : Number.NaN)) });

/** A refusal answered on the page itself: `code`'s domain error becomes `status` with its message; anything else is thrown on. */
async function refusedAs<T>(code: ErrorCode, work: () => Promise<T>): Promise<{ done: T } | { refused: string }> {
  try {
    return { done: await work() };
  } catch (error) {
    if (isDomainError(error) && error.code === code) return { refused: error.message };
    throw error;
  }
}

/** Advance, pause and resume: one action each, a stale revision answered with the page as it is now (409). */
const change = (action: RolloutAction, notice: 'rollout-advanced' | 'rollout-paused' | 'rollout-resumed') =>
  defineAction({
    path: `${PATH}/${action}`,
    input: revisionField,
    run: ({ actor, params, input }, ctx) =>
      refusedAs(ErrorCode.Conflict, () =>
        changeRollout({ actor, componentId: params.id, environment: params.environment, action, expectedRevision: input.expectedRevision }, ctx.domain),
      ),
    done: async (result, args, ctx) =>
      'done' in result
        ? { to: rolloutPath(args.params.id, args.params.environment), notice }
        : { status: 409, page: await renderRollout(targetOf(args), ctx, { error: result.refused }) },
  });

const rolloutActions = [
  defineAction({
    path: `${PATH}/start`,
    input: z.record(z.string(), z.unknown()),
    run: async ({ actor, params, input }, ctx) => {
      const form = readStartForm(input);
      const result = await refusedAs(ErrorCode.InvalidInput, () =>
        startRollout({ actor, componentId: params.id, environment: params.environment, ...startPlanOf(form) }, ctx.domain),
      );
      return { form, result };
    },
    done: async ({ form, result }, args, ctx) =>
      'done' in result
        ? { to: rolloutPath(args.params.id, args.params.environment), notice: result.done.outcome === 'requested' ? 'rollout-requested' : 'rollout-started' }
        : { status: 422, page: await renderRollout(targetOf(args), ctx, { error: result.refused, startForm: form }) },
  }),
  change('advance', 'rollout-advanced'),
  change('pause', 'rollout-paused'),
  change('resume', 'rollout-resumed'),
  defineAction({
    path: `${PATH}/promote`,
    input: revisionField,
    run: ({ actor, params, input }, ctx) =>
      refusedAs(ErrorCode.Conflict, () =>
        promoteRollout({ actor, componentId: params.id, environment: params.environment, expectedRevision: input.expectedRevision }, ctx.domain),
      ),
    done: async (result, args, ctx) =>
      'done' in result
        ? { to: rolloutPath(args.params.id, args.params.environment), notice: result.done.outcome === 'requested' ? 'rollout-promote-requested' : 'rollout-promoted' }
        : { status: 409, page: await renderRollout(targetOf(args), ctx, { error: result.refused }) },
  }),
  /** The kill switch takes no revision: a stop must not fail because the guard just closed a window (stopRollout retries). */
  defineAction({
    path: `${PATH}/stop`,
    input: z.object({ reason: text }),
    run: ({ actor, params, input }, ctx) => stopRollout({ actor, componentId: params.id, environment: params.environment, reason: input.reason }, ctx.domain),
    done: (_, { params }) => ({ to: rolloutPath(params.id, params.environment), notice: 'rollout-stopped' }),
  }),
];

const rolloutPages = [
  definePage({
    path: PATH,
    view: (args, ctx) => renderRollout(targetOf(args), ctx, { notice: args.notice }),
  }),
];

/** Rollouts: a component environment's canary, its start form, its buttons and the guard's figures. */
export function rolloutRoutes(ctx: RouteContext): Router {
  return mountActions(mountPages(Router(), ctx, rolloutPages), ctx, rolloutActions);
}
