import { defaultBaseUrl } from './base-url.js';
import { flowUrl, variantInFlow } from './flow.js';
import { sdkError } from './problem.js';
import type { MountOptions } from './types.js';
import { consumedVariant, type Variant } from './variant.js';

/** Where a mounted component comes from: the URL to read, the ids to watch live, how to find the variant. */
export interface Source {
  readonly base: string;
  readonly url: string;
  readonly watch: readonly string[];
  readonly pick: (body: unknown) => Variant;
  /** The preview key header, on preview reads with a key (then a live component polls). */
  readonly headers: Record<string, string>;
  /** Where the arm of an experience or a rollout is read, as the descriptor of `revision` names it (never with the key or attributes). */
  readonly arm?: (arm: string, revision: number) => string;
  /** A static export: no change stream there, so a live component polls; what a 403/404 without a problem means. */
  readonly missing?: string;
}

const invalid = (detail: string) => sdkError('INVALID_OPTIONS', detail);

/** INVALID_OPTIONS unless the option `name` (its `value`) is left out or one of `allowed` ('isolation must be "iframe" or "shadow", not "x".'). */
function oneOf(name: string, value: string | undefined, allowed: readonly string[]): void {
  if (value !== undefined && !allowed.includes(value)) {
    throw invalid(`${name} must be ${allowed.map((a) => `"${a}"`).join(', ').replace(/, (?=[^,]*$)/, ' or ')}, not "${String(value)}".`);
  }
}

function check(o: MountOptions): void {
  if (typeof o?.componentId !== 'string' || !o.componentId) throw invalid('componentId is required: the id of the component to render.');
  oneOf('isolation', o.isolation, ['iframe', 'shadow']);
  oneOf('shadowRootMode', o.shadowRootMode, ['open', 'closed']);
  if (o.sandbox !== undefined) {
    if (o.isolation === 'shadow') throw invalid('sandbox applies to iframe isolation only.');
    for (const token of String(o.sandbox).split(/\s+/).filter(Boolean)) {
      // With allow-scripts, allow-same-origin would let the component remove its own sandbox.
      if (!/^allow-[a-z-]+$/.test(token) || token === 'allow-same-origin') throw invalid(`sandbox token "${token}" is not allowed.`);
    }
  }
  if (o.maxHeight !== undefined && !(typeof o.maxHeight === 'number' && o.maxHeight > 0 && o.maxHeight < Infinity)) {
    throw invalid(`maxHeight must be a positive number of CSS pixels (max-height="600" on the element), not ${String(o.maxHeight)}.`);
  }
  if (o.nonce !== undefined && typeof o.nonce !== 'string') throw invalid('nonce must be the page\'s CSP nonce (a string), or left out.');
  if (o.preview === false && !o.env) throw invalid('preview: false needs env: name the environment whose released variant you want.');
  if (o.flowId !== undefined && (typeof o.flowId !== 'string' || !o.flowId || o.env !== undefined || o.preview !== undefined)) {
    throw invalid('flowId (deprecated) takes neither env nor preview: the flow serves its own environment. Prefer env.');
  }
  if (o.previewKey !== undefined && (typeof o.previewKey !== 'string' || !o.previewKey.trim())) {
    throw invalid('previewKey must be a preview key from the dashboard (organization page), or left out.');
  }
  oneOf('source', o.source, ['api', 'export']);
  if (o.source === 'export' && (!o.env || o.preview || o.flowId !== undefined || o.previewKey !== undefined)) {
    throw invalid('source "export" serves released environments only: give env, and no preview, previewKey or flowId (previews are not exported; read them from the delivery API).');
  }
  if (o.baseUrl !== undefined) requireAbsoluteUrl('baseUrl', o.baseUrl);
  oneOf('analytics', o.analytics, ['on', 'off', 'consent']);
  if (o.sampleRate !== undefined && !(typeof o.sampleRate === 'number' && o.sampleRate >= 0 && o.sampleRate <= 1)) {
    throw invalid(`sampleRate must be a number from 0 to 1, not ${String(o.sampleRate)}.`);
  }
  if (o.eventsUrl !== undefined) requireAbsoluteUrl('eventsUrl', o.eventsUrl);
  if (o.key !== undefined && !(typeof o.key === 'string' && o.key.length <= 256)) throw invalid('key must be a string of at most 256 characters.');
  const { attributes } = o;
  if (attributes !== undefined) {
    const entries = attributes && typeof attributes === 'object' && !Array.isArray(attributes) ? Object.entries(attributes) : null;
    if (!entries || entries.length > 20 || entries.some(([name, value]) => !/^[a-z][\w.-]{0,63}$/i.test(name) || typeof value !== 'string' || value.length > 128)) {
      throw invalid(`attributes must be an object of at most 20 names (a letter, then letters, digits, _ . -) to strings of at most 128 characters, not ${JSON.stringify(attributes)}.`);
    }
  }
}

/** INVALID_OPTIONS unless `url` (the option `name`) is an absolute URL. */
export function requireAbsoluteUrl(name: string, url: unknown): void {
  try {
    new URL(url as string);
  } catch {
    throw invalid(`${name} "${String(url)}" is not an absolute URL.`);
  }
}

/** Checks the host's options (INVALID_OPTIONS) and says where the component comes from. */
export function sourceOf(o: MountOptions): Source {
  check(o);
  const base = (o.baseUrl ?? defaultBaseUrl()).replace(/\/+$/, '');
  const { componentId, flowId } = o;
  if (o.source === 'export') {
    const url = `${base}/components/${encodeURIComponent(componentId.toLowerCase())}/${encodeURIComponent(o.env!)}.json`;
    const missing = `Nothing is exported at ${url}: the component is not released to "${o.env!}", its organization's export is off, or baseUrl is not the export's URL.`;
    return { base, url, watch: [], pick: consumedVariant, headers: {}, missing, arm: (arm) => url.replace(/\.json$/, `/arms/${encodeURIComponent(arm)}.json`) };
  }
  if (flowId) {
    return { base, url: flowUrl(base, flowId), watch: [flowId, componentId], pick: (body) => variantInFlow(body, flowId, componentId), headers: {} };
  }
  const query = new URLSearchParams({ id: componentId });
  if (o.env) query.set('env', o.env);
  if (o.preview) query.set('preview', 'true');
  // Released reads never carry the key: they are public, and shared caches keep them.
  const headers: Record<string, string> = o.previewKey && (o.preview || !o.env) ? { 'Cp-Preview-Key': o.previewKey.trim() } : {};
  const url = `${base}/consume?${query}`;
  return { base, url, watch: [componentId], pick: consumedVariant, headers, arm: (arm, rev) => `${url}&${new URLSearchParams({ arm, rev: String(rev) })}` };
}
