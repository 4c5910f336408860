import { countReleasesPerWeek, getComponentApp, getComponentPage, getExperience, listComponentReleaseRequests, listMemberAppTools } from '@cp/domain';
import { RELEASE_CHART_WEEKS } from '../pages/charts/releases-per-week.js';
import type { ComponentPageContent } from '../pages/component-page.js';
import { appFormOf, type AppForm } from './app-form.js';
import { componentPageLinks, type ComponentPageQuery } from './component-page-query.js';
import type { RouteContext, Visitor } from './context.js';
import { hostLinks } from './host-links.js';

/** The app form as a refusal left it: what was typed (null: the saved settings), and the domain's message. */
export interface RefusedAppForm {
  readonly form: AppForm | null;
  readonly error: string;
}

/**
 * Everything the component page shows, read for `visitor`. `refused`: the app form shows what was
 * typed and why it was refused instead of the saved settings.
 */
export async function componentPageContent(
  visitor: Visitor,
  componentId: string,
  state: ComponentPageQuery,
  ctx: RouteContext,
  shown: { notice: string | null; refused?: RefusedAppForm },
): Promise<ComponentPageContent> {
  const { actor } = visitor;
  const { variant: variantId, variantsBefore, releasesBefore, releasesAfter } = state;
  const view = await getComponentPage({ actor, componentId, variantId, variantsBefore, releasesBefore, releasesAfter, pageSizes: ctx.config.componentPageSizes }, ctx.domain);
  const id = view.component.id;
  const [requests, releasesPerWeek, experiences, app, tools] = await Promise.all([
    listComponentReleaseRequests({ actor, componentId: id }, ctx.domain),
    countReleasesPerWeek({ actor, componentId: id, weeks: RELEASE_CHART_WEEKS }, ctx.domain),
    // Each environment's live experience revision and live rollout, for its row.
    Promise.all(view.environments.map(({ environment }) => getExperience({ actor, componentId: id, environment: environment.name }, ctx.domain))),
    getComponentApp({ actor, componentId: id }, ctx.domain),
    // The visitor's own tool list: the name their assistant shows (one query).
    listMemberAppTools({ actor }, ctx.domain),
  ]);
  return {
    view,
    requests,
    releasesPerWeek,
    experiences: new Map(experiences.map((e) => [e.environment.id, e])),
    app: {
      app,
      tool: tools.find((tool) => tool.live.app.componentId === id) ?? null,
      form: shown.refused?.form ?? appFormOf(app, view.environments.find((env) => env.current !== null)?.environment.name ?? ''),
      error: shown.refused?.error ?? null,
      guideUrl: new URL('/guide#apps', ctx.config.mcpUrl).href,
    },
    chrome: visitor.chrome(view.component.organizationId),
    notice: shown.notice,
    consumeUrl: `${ctx.config.deliveryUrl}/consume?id=${id}`,
    host: hostLinks(ctx.config.deliveryUrl, id),
    links: componentPageLinks(view, state),
  };
}
