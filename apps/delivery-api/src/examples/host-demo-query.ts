import { isUuid } from '@cp/domain';
import { z } from 'zod';
import { environmentName } from '../api/query-schemas.js';

/** What the demo page renders: the `<cp-component>` attributes, or only the form (`componentId` null). */
export interface HostDemo {
  readonly componentId: string | null;
  readonly env: string;
  readonly preview: boolean;
  readonly isolation: 'iframe' | 'shadow' | null;
  readonly live: boolean;
}

const flag = (name: string) => z.enum(['true', 'false'], { error: `${name} must be "true" or "false".` }).optional();

export const HostDemoQuery = z.strictObject({
  component: z
    .string()
    .refine(isUuid, 'component must be a component id (a UUID, from confirm_upload).')
    .optional()
    .meta({ description: 'Component id; without it the page shows only the form.' }),
  env: environmentName
    .optional()
    .meta({ description: 'Environment (default `prod`).' }),
  preview: flag('preview').meta({ description: '`true`: the latest variant (the `preview` attribute) instead of `env`.' }),
  isolation: z
    .enum(['iframe', 'shadow'], { error: 'isolation must be "iframe" or "shadow".' })
    .optional()
    .meta({ description: 'The `isolation` attribute; default: the loader\'s.' }),
  live: flag('live').meta({ description: '`true`: the `live` attribute (switches to a new release without a reload).' }),
});

export type HostDemoParse = { readonly ok: true; readonly demo: HostDemo } | { readonly ok: false; readonly message: string };

/**
 * The page's query, as its own form submits it: empty fields count as absent;
 * each parameter once; unknown ones are refused like everywhere in the API.
 */
export function parseHostDemoQuery(params: URLSearchParams): HostDemoParse {
  const values: Record<string, string> = {};
  for (const [name, value] of params) {
    if (Object.hasOwn(values, name)) return { ok: false, message: `Parameter "${name.slice(0, 40)}" was given more than once; give each parameter once.` };
    if (value !== '') values[name] = value;
  }
  const parsed = HostDemoQuery.safeParse(values);
  if (!parsed.success) {
    const messages = parsed.error.issues.map((issue) =>
      issue.code === 'unrecognized_keys'
        ? `Unknown parameter ${issue.keys.map((key) => `"${key.slice(0, 40)}"`).join(', ')}: the page takes component, env, preview, isolation and live.`
        : issue.message,
    );
    return { ok: false, message: messages.join(' ') };
  }
  const query = parsed.data;
  return {
    ok: true,
    demo: {
      componentId: query.component?.toLowerCase() ?? null,
      env: query.env ?? 'prod',
      preview: query.preview === 'true',
      isolation: query.isolation ?? null,
      live: query.live === 'true',
    },
  };
}
