import {
  ErrorCode,
  getComponent,
  getExperience,
  isDomainError,
  Limits,
  listVariants,
  movedUsers,
  publishExperience,
  saveExperienceDraft,
  type Actor,
} from '@cp/domain';
import express, { Router } from 'express';
import { z } from 'zod';
import { defineAction } from '../kit/define-action.js';
import { definePage, mountPages } from '../kit/define-page.js';
import { choice, text } from '../kit/form-input.js';
import { mountActions } from '../kit/mount-actions.js';
import { experiencePage, type PublishedNotice } from '../pages/experiences/experience-page.js';
import { experiencePath } from '../pages/experiences/paths.js';
import type { RouteContext, Visitor } from './context.js';
import { applyOp, definitionOf, editorOf, editorOp, readEditor, type EditorSegment } from './experience-editor-form.js';

const PATH = '/component/:id/env/:environment/experience';

interface Target {
  readonly actor: Actor;
  readonly visitor: Visitor;
  readonly componentId: string;
  readonly environment: string;
}

/**
 * The experience page of a component environment. `editor` and `error`: a refused save or an add /
 * remove shows what was sent; otherwise the draft, else the live revision. After a publish the notice
 * reports the newest revision, and with the salt kept the users each segment moved.
 */
async function renderExperience(
  t: Target,
  ctx: RouteContext,
  shown: { notice?: string | null; published?: boolean; editor?: readonly EditorSegment[]; error?: string | null } = {},
): Promise<string> {
  const input = { actor: t.actor, componentId: t.componentId, environment: t.environment };
  const [view, { component }, { variants }] = await Promise.all([
    getExperience(input, ctx.domain),
    getComponent({ actor: t.actor, componentId: t.componentId, includeContent: false }, ctx.domain),
    listVariants({ actor: t.actor, componentId: t.componentId, limit: Limits.listMax }, ctx.domain),
  ]);
  const releaseId = variants.find((v) => v.environments.includes(view.environment.name))?.variant.id ?? null;
  const [newest, before] = view.revisions;
  const published: PublishedNotice | null =
    shown.published === true && newest !== undefined
      ? { revision: newest, moved: before !== undefined && before.salt === newest.salt ? movedUsers(before.definition, newest.definition) : null }
      : null;
  return experiencePage({
    component,
    view,
    variants: variants.map((v) => v.variant),
    releaseId,
    role: t.visitor.organizations.find((o) => o.id === component.organizationId)?.role ?? 'viewer',
    chrome: t.visitor.chrome(component.organizationId),
    notice: shown.notice ?? null,
    published,
    editor: shown.editor ?? editorOf((view.draft ?? view.live)?.definition ?? { segments: [] }),
    error: shown.error ?? null,
  });
}

const targetOf = (args: { actor: Actor; visitor: Visitor; params: { id: string; environment: string } }): Target => ({
  actor: args.actor,
  visitor: args.visitor,
  componentId: args.params.id,
  environment: args.params.environment,
});

/** `expectedLive` as the page sent it: empty is "nothing live", else the revision number it showed. */
const expectedLive = text.transform((value, context) => {
  if (value === '') return null;
  if (/^[1-9][0-9]{0,8}$/.test(value)) return Number(value);
  context.addIssue({ code: 'custom', message: 'must be the live revision the page showed: reload the page.' });
  return z.NEVER;
});

const experienceActions = [
  /** The editor's one form: Save draft, or an add / remove button (answered with the change, nothing saved). */
  defineAction({
    path: PATH,
    input: z.record(z.string(), z.unknown()),
    run: async ({ actor, params, input }, ctx) => {
      const op = editorOp(typeof input.op === 'string' ? input.op : '');
      const segments = readEditor(input);
      if (op.kind !== 'save') return { kind: 'edited' as const, segments: applyOp(segments, op) };
      try {
        await saveExperienceDraft({ actor, componentId: params.id, environment: params.environment, definition: definitionOf(segments) }, ctx.domain);
        return { kind: 'saved' as const };
      } catch (error) {
        // Refused content is answered with the same form, the typed values kept, the domain's message naming the part.
        if (isDomainError(error) && error.code === ErrorCode.InvalidInput) return { kind: 'invalid' as const, segments, message: error.message };
        throw error;
      }
    },
    done: async (result, args, ctx) =>
      result.kind === 'saved'
        ? { to: experiencePath(args.params.id, args.params.environment), notice: 'experience-saved' }
        : {
            status: result.kind === 'invalid' ? 422 : 200,
            page: await renderExperience(targetOf(args), ctx, { editor: result.segments, error: result.kind === 'invalid' ? result.message : null }),
          },
  }),
  /** Publish the draft, or re-publish a revision of the history (`revision`). */
  defineAction({
    path: `${PATH}/publish`,
    input: z.object({
      phase: choice({ keep: 'keep', new: 'new' } as const, 'choose "keep" (users keep their buckets) or "new" (a new phase).'),
      revision: text,
      expectedLive,
    }),
    run: ({ actor, params, input }, ctx) =>
      publishExperience(
        {
          actor,
          componentId: params.id,
          environment: params.environment,
          phase: input.phase,
          revision: input.revision === '' ? undefined : Number(input.revision),
          expectedLive: input.expectedLive,
        },
        ctx.domain,
      ),
    done: ({ outcome }, { params }) => ({
      to: experiencePath(params.id, params.environment),
      notice: outcome === 'requested' ? 'experience-requested' : 'experience-published',
    }),
  }),
];

const experiencePages = [
  definePage({
    path: PATH,
    view: (args, ctx) => renderExperience(targetOf(args), ctx, { notice: args.notice, published: args.query('notice') === 'experience-published' }),
  }),
];

/** The editor sends a field per rule and arm: up to 20 segments of 10 rules and 10 arms. */
const editorBody = express.urlencoded({ extended: false, limit: '256kb', parameterLimit: 1200 });

/** Experiences: a component environment's editor, publish and revisions. */
export function experienceRoutes(ctx: RouteContext): Router {
  return mountActions(mountPages(Router(), ctx, experiencePages), ctx, experienceActions, editorBody);
}
