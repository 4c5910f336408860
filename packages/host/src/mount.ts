import { CpError } from './errors.js';
import { defaultBaseUrl } from './base-url.js';
import { render } from './render/render.js';
import type { CpProblem, HtmlLoader, MountHandle, MountOptions } from './types.js';

/*
 * PLACEHOLDER lifecycle (fetch once, render, no retries, no live updates) until
 * the SDK shell lands; its signature is the public one.
 */
export function mount(element: HTMLElement, options: MountOptions): MountHandle {
  const base = options.baseUrl ?? defaultBaseUrl();
  const query = new URLSearchParams({ id: options.componentId });
  if (options.env) query.set('env', options.env);
  if (options.preview) query.set('preview', 'true');
  let current: { update(data: unknown): void; destroy(): void } | null = null;
  let data = options.data;
  const ready = (async () => {
    const response = await fetch(`${base}/consume?${query}`);
    const body = await response.json();
    if (!response.ok) throw new CpError(body as CpProblem);
    const loader = body.item.consume_variant[0].loader as HtmlLoader;
    current = await render(element, loader, {
      isolation: options.isolation ?? 'iframe',
      shadowRootMode: options.shadowRootMode ?? loader.shadowRootMode,
      sandbox: options.sandbox ?? '',
      autoHeight: options.autoHeight ?? loader.autoHeight,
      data,
      onAction: (action, payload) => options.onAction?.(action, payload),
    });
  })();
  return {
    ready,
    update(next) {
      data = next;
      current?.update(next);
    },
    unmount() {
      current?.destroy();
    },
  };
}
