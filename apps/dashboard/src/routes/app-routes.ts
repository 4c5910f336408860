import { ErrorCode, httpStatusOf, isDomainError, removeComponentApp, saveComponentApp, type DomainError } from '@cp/domain';
import express, { Router } from 'express';
import { defineAction } from '../kit/define-action.js';
import { mountActions } from '../kit/mount-actions.js';
import { componentPage } from '../pages/component-page.js';
import { appFormInput, appSettingsOf, type AppForm } from './app-form.js';
import { componentPageContent } from './component-page-content.js';
import type { RouteContext, Visitor } from './context.js';

const PATH = '/component/:id/app';
const LATEST = { variant: null, variantsBefore: undefined, releasesBefore: undefined, releasesAfter: undefined };

/**
 * A refusal the form can answer: bad settings, a role that may not, an environment that does not
 * exist or serves nothing. Anything else (the component not found, an outage) is the usual page.
 */
const answeredByForm = (error: unknown): error is DomainError =>
  isDomainError(error) &&
  (error.code === ErrorCode.InvalidInput ||
    error.code === ErrorCode.Conflict ||
    error.code === ErrorCode.Forbidden ||
    (error.code === ErrorCode.NotFound && error.details?.resource === 'Environment'));

/** The component page again, its app form showing what was typed (null: the saved settings) and the domain's message. */
const refusedPage = async (visitor: Visitor, componentId: string, form: AppForm | null, error: DomainError, ctx: RouteContext) => ({
  status: httpStatusOf(error.code),
  page: componentPage(await componentPageContent(visitor, componentId, LATEST, ctx, { notice: null, refused: { form, error: error.message } })),
});

const appActions = [
  defineAction({
    path: PATH,
    input: appFormInput,
    run: async ({ actor, params, input }, ctx) => {
      try {
        await saveComponentApp({ actor, componentId: params.id, settings: appSettingsOf(input) }, ctx.domain);
        return null;
      } catch (error) {
        if (answeredByForm(error)) return error;
        throw error;
      }
    },
    done: async (refusal, { visitor, params, input }, ctx) =>
      refusal === null ? { to: `/component/${params.id}`, notice: 'app-saved' } : refusedPage(visitor, params.id, input, refusal, ctx),
  }),
  defineAction({
    path: `${PATH}/remove`,
    run: async ({ actor, params }, ctx) => {
      try {
        await removeComponentApp({ actor, componentId: params.id }, ctx.domain);
        return null;
      } catch (error) {
        // Stopped meanwhile (another tab, another admin): what was asked for holds.
        if (isDomainError(error) && error.code === ErrorCode.NotFound && error.details?.resource === 'App of component') return null;
        if (answeredByForm(error)) return error;
        throw error;
      }
    },
    done: async (refusal, { visitor, params }, ctx) =>
      refusal === null ? { to: `/component/${params.id}`, notice: 'app-removed' } : refusedPage(visitor, params.id, null, refusal, ctx),
  }),
];

/** The form carries a JSON Schema of up to 16 KB, which URL-encoding can triple. */
const appFormBody = express.urlencoded({ extended: false, limit: '96kb', parameterLimit: 20 });

/** "In AI assistants" on the component page: offer the component as an app, change it, stop. */
export function appRoutes(ctx: RouteContext): Router {
  return mountActions(Router(), ctx, appActions, appFormBody);
}
