import { z } from 'zod';
import 'zod-openapi';

/*
 * The /consume body's schemas: they type the loaders, generate the delivery API's
 * OpenAPI document, and describe the static export's objects, which are the same bytes.
 */

const nullableString = (description: string) => z.string().nullable().meta({ description });

/** A stylesheet's or a script's URL, as its attribute holds it. */
const pageUrl = (attribute: 'href' | 'src') =>
  z.string().meta({
    description: `\`${attribute}\` as written in the page; a relative URL resolves against the host page.`,
  });

export const LoaderStyle = z
  .discriminatedUnion('type', [
    z.object({
      type: z.literal('url'),
      url: pageUrl('href'),
      media: nullableString('`media` attribute.'),
      integrity: nullableString(
        '`integrity` attribute (SRI), to copy onto the `<link>` the host creates.',
      ),
      crossOrigin: nullableString('`crossorigin` attribute.'),
    }),
    z.object({
      type: z.literal('inline'),
      content: z.string().meta({ description: 'Text of a `<style>` element.' }),
      media: nullableString('`media` attribute.'),
    }),
  ])
  .meta({
    id: 'LoaderStyle',
    description:
      'A stylesheet of the page: `<link rel="stylesheet">` or `<style>`, in document order.',
  });

export const LoaderScript = z
  .discriminatedUnion('type', [
    z.object({
      type: z.literal('url'),
      url: pageUrl('src'),
      module: z.boolean().meta({ description: '`type="module"`.' }),
      async: z.boolean(),
      defer: z
        .boolean()
        .meta({ description: 'Also true for modules, which are deferred by default.' }),
      integrity: nullableString('`integrity` attribute (SRI).'),
      crossOrigin: nullableString('`crossorigin` attribute.'),
    }),
    z.object({
      type: z.literal('inline'),
      content: z.string().meta({ description: 'Text of an inline `<script>`.' }),
      module: z.boolean().meta({ description: '`type="module"`.' }),
    }),
  ])
  .meta({
    id: 'LoaderScript',
    description:
      'A script the page runs, in document order. Data blocks (JSON, templates, import maps) are not listed; they stay in `HTML`.',
  });

export const HtmlLoader = z
  .object({
    type: z.literal('HTMLLoader').meta({ description: 'Loader kind; the only one so far.' }),
    HTML: z
      .string()
      .meta({ description: "The variant's `index.html`, exactly as uploaded (UTF-8)." }),
    shadowRootMode: z.literal('open').meta({
      description:
        'Mode of the shadow root the host attaches to render `HTML` in isolation (`attachShadow({ mode })`).',
    }),
    autoHeight: z.literal(true).meta({
      description:
        "The host sizes the container to the content's height (for example with a ResizeObserver) instead of a fixed height.",
    }),
    integrity: z.string().meta({
      description:
        'Subresource Integrity of the `HTML` bytes (`sha384-<base64>`); a host can verify what it renders.',
      example: 'sha384-oqVuAfXRKap7fdgcCY5uykM6+R9GqQ8K/uxy9rx7HNQlGYl1kPzQho1wx4JwY8wC',
    }),
    styles: z.array(LoaderStyle),
    scripts: z.array(LoaderScript),
  })
  .meta({
    id: 'HtmlLoader',
    description:
      'Everything a host needs to render one variant. Scripts inside `HTML` do not run when it is assigned to `innerHTML`; a host that wants them runs `scripts`.',
  });

export const ConsumeVariant = z
  .object({
    id: z.string().meta({ description: 'Variant id.' }),
    name: z
      .string()
      .meta({
        description: '`v<sequence>`: the upload number within the component (v1, v2, …).',
        example: 'v3',
      }),
    loader: HtmlLoader,
  })
  .meta({ id: 'ConsumeVariant' });

export const ConsumeItem = z
  .object({
    id: z.string().meta({ description: 'Component id.' }),
    name: z.string(),
    organizationId: z.string(),
    consume_variant: z.array(ConsumeVariant).meta({
      description:
        'The variant served: exactly one from /consume; in /flow, empty when nothing is released to the flow environment.',
    }),
  })
  .meta({ id: 'ConsumeItem' });

const armName = z.string().meta({
  description: '`release` (the fallback: the environment\'s release), or the variant\'s name (`v7`): what `/consume?arm=` takes.',
  example: 'v7',
});

export const AssignmentRule = z
  .object({
    attribute: z.string().meta({ description: 'Name of a host attribute (`country`, `plan`, ...).', example: 'country' }),
    operator: z.enum(['equals', 'in', 'not_in', 'prefix']).meta({
      description:
        '`equals`: exactly the one value; `in`: one of the values; `not_in`: present and none of the values; `prefix`: starts with the one value. A missing attribute satisfies no rule.',
    }),
    values: z.array(z.string()),
  })
  .meta({ id: 'AssignmentRule' });

export const AssignmentSegment = z
  .object({
    rules: z.array(AssignmentRule).meta({ description: 'All must hold; none: everyone.' }),
    salt: z.string().meta({ description: 'Salt of the bucket hash: `salt + ":" + key`.', example: '9f2c4b1e0a7d3c55' }),
    arms: z
      .array(z.object({ arm: armName, upTo: z.number().int().meta({ description: 'Exclusive upper bound of the arm\'s buckets, in [1, 100000]: it owns the buckets from the previous arm\'s `upTo` (or 0).', example: 5000 }) }))
      .meta({ description: 'In bucket order; the last ends at 100000. One arm takes everyone without a key; a split needs one (no key: the fallback).' }),
  })
  .meta({ id: 'AssignmentSegment' });

export const Assignment = z
  .object({
    revision: z.number().int().meta({
      description: 'Unique and increasing across every change (publish, stage change, stop, promote): `rev` of arm requests.',
      example: 41,
    }),
    kind: z.enum(['experience', 'rollout']),
    arm: armName.meta({ description: 'Which arm this body is: `release` for the fallback, else the arm asked for.' }),
    segments: z.array(AssignmentSegment).meta({ description: 'Tried in order; the first whose rules all hold decides (no segment: the fallback).' }),
  })
  .meta({
    id: 'Assignment',
    description:
      'What picks the variant of a user while an experience or a rollout is live in the environment (docs/experiences.md): bucket = floor(murmur3_x86_32(utf8(salt + ":" + key), seed 0) × 100000 / 2^32). No variant bodies: fetch an arm with `?arm=<arm>&rev=<revision>`.',
  });

export const ConsumeResponse = z
  .object({
    item: ConsumeItem,
    assignment: Assignment.optional().meta({ description: 'Only while an experience or a rollout is live in the environment (never on previews).' }),
  })
  .meta({ id: 'ConsumeResponse' });

export type ConsumeResponse = z.infer<typeof ConsumeResponse>;
export type ConsumeItem = z.infer<typeof ConsumeItem>;
export type Assignment = z.infer<typeof Assignment>;
export type ConsumeVariant = z.infer<typeof ConsumeVariant>;
export type HtmlLoader = z.infer<typeof HtmlLoader>;
export type LoaderStyle = z.infer<typeof LoaderStyle>;
export type LoaderScript = z.infer<typeof LoaderScript>;
