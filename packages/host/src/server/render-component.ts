import { getJson } from '../consume-client.js';
import { CpError } from '../errors.js';
import { SSR_DATA, SSR_VARIANT } from '../markup.js';
import { sdkError } from '../problem.js';
import { verifyHtml } from '../render/integrity.js';
import { requireAbsoluteUrl, sourceOf, type Source } from '../source.js';
import type { CpProblem, MountOptions } from '../types.js';
import type { Variant } from '../variant.js';
import { otherArm } from '../experience/arm.js';
import { elementHtml } from './element-html.js';

export type RenderComponentOptions = Pick<MountOptions, 'componentId' | 'env' | 'preview' | 'source' | 'previewKey' | 'live' | 'autoHeight' | 'maxHeight' | 'key' | 'attributes'> & {
  /** The delivery API (or with `source: 'export'` the static export), as the page's browsers reach it. */
  readonly baseUrl: string;
  /** Where this server reads it, when not at `baseUrl` (an address inside its network). Default: `baseUrl`. */
  readonly serverBaseUrl?: string;
  /** Sent to the component's `cpReceive` in the browser once the SDK adopts it; travels in the page as JSON. */
  readonly data?: unknown;
  /** A server-rendered component is shadow-isolated; nothing else is accepted. */
  readonly isolation?: 'shadow';
  /** How long the whole read of `/consume` may take, retries included. Default 3000. */
  readonly timeoutMs?: number;
};

const DEFAULT_TIMEOUT_MS = 3000;
const invalid = (detail: string): CpError => sdkError('INVALID_OPTIONS', detail);

/** Options of `mount` that a server-rendered component cannot take. */
const REFUSED = ['shadowRootMode', 'sandbox', 'flowId', 'onAction'];

/** JSON would drop functions and symbols silently (cycles and BigInt throw by themselves). */
function jsonOnly(_key: string, value: unknown): unknown {
  if (typeof value === 'function' || typeof value === 'symbol') throw new TypeError(`a ${typeof value} is not JSON`);
  return value;
}

function check(o: RenderComponentOptions): { source: Source; timeoutMs: number; data: string | undefined } {
  if (typeof o !== 'object' || o === null) throw invalid('renderComponent takes an options object: { componentId, env, baseUrl }.');
  if (o.baseUrl === undefined || o.baseUrl === '') throw invalid('baseUrl is required on a server: the delivery API\'s URL, as the page\'s browsers reach it.');
  requireAbsoluteUrl('baseUrl', o.baseUrl);
  if (o.serverBaseUrl !== undefined) requireAbsoluteUrl('serverBaseUrl', o.serverBaseUrl);
  const { timeoutMs = DEFAULT_TIMEOUT_MS } = o;
  if (typeof timeoutMs !== 'number' || !(timeoutMs > 0) || timeoutMs === Infinity) throw invalid(`timeoutMs must be a positive number of milliseconds, not ${String(timeoutMs)}.`);
  if (o.isolation !== undefined && o.isolation !== 'shadow') {
    throw invalid(`isolation "${String(o.isolation)}" cannot be rendered on a server: a server-rendered component is shadow-isolated (use mount or <cp-component> for iframes).`);
  }
  const refused = REFUSED.find((name) => (o as Record<string, unknown>)[name] !== undefined);
  if (refused) throw invalid(`${refused} is not an option of renderComponent: a server-rendered component is shadow-isolated in an open shadow root, read with env or preview.`);
  let data: string | undefined;
  try {
    if (o.data !== undefined) data = JSON.stringify(o.data, jsonOnly);
  } catch {
    throw invalid('data must be JSON-serializable (no functions, symbols, BigInt or cycles): it travels to the browser in the page.');
  }
  return { source: sourceOf({ ...o, baseUrl: o.serverBaseUrl ?? o.baseUrl, isolation: 'shadow' }), timeoutMs, data };
}

/**
 * The variant `/consume` names for the user, within `timeoutMs` (retries included); a timeout is the last failure, or
 * NETWORK. While an experience or a rollout is live, the user's arm is picked here as the browser SDK picks it, and read
 * by its name, so the SDK adopts what the server rendered.
 */
async function consume({ url, pick, headers, missing, arm: armUrl }: Source, options: RenderComponentOptions, timeoutMs: number): Promise<Variant> {
  let last: CpProblem | undefined;
  const signal = AbortSignal.timeout(timeoutMs);
  const get = (from: string) => getJson(from, { signal, etag: null, fresh: false, headers, missing, onRetry: (problem) => (last = problem) });
  try {
    let body = (await get(url))?.body;
    for (let tries = 0, other; armUrl && tries < 2 && (other = otherArm(body, options.key, options.attributes)); tries++) {
      body = (await get(armUrl(other.arm, other.revision)))?.body;
    }
    return pick(body);
  } catch (error) {
    if (error instanceof CpError) throw error;
    throw new CpError(last ?? sdkError('NETWORK', `The delivery API at ${new URL(url).origin} did not answer within ${timeoutMs} ms.`).problem);
  }
}

const flag = (value: boolean | undefined): string | undefined => (value === undefined ? undefined : value ? '' : 'false');

/**
 * Renders a released component (or its preview) on a server: a `<cp-component>`
 * element holding the component's markup and styles in Declarative Shadow DOM,
 * shown before any script runs. The browser SDK adopts it (same nodes, its
 * scripts run once) when `/consume` still names that variant, and renders a newer
 * one otherwise. Rejects with a `CpError`: the delivery API's problem, NETWORK
 * (unreachable, or no answer within `timeoutMs`), BAD_RESPONSE, INTEGRITY_MISMATCH
 * or INVALID_OPTIONS.
 */
export async function renderComponent(options: RenderComponentOptions): Promise<string> {
  const { source, timeoutMs, data } = check(options);
  const variant = await consume(source, options, timeoutMs);
  await verifyHtml(variant.loader);
  const attributes: Record<string, string | undefined> = {
    'component-id': options.componentId,
    env: options.env,
    preview: flag(options.preview),
    'base-url': options.baseUrl,
    source: options.source,
    'preview-key': options.previewKey,
    live: flag(options.live),
    'auto-height': flag(options.autoHeight),
    'max-height': options.maxHeight === undefined ? undefined : String(options.maxHeight),
    key: options.key,
    attributes: options.attributes === undefined ? undefined : JSON.stringify(options.attributes),
    isolation: 'shadow',
    'shadow-root-mode': 'open',
    [SSR_VARIANT]: variant.id,
    [SSR_DATA]: data,
  };
  return elementHtml(Object.fromEntries(Object.entries(attributes).filter((entry): entry is [string, string] => entry[1] !== undefined)), variant.loader.HTML);
}
