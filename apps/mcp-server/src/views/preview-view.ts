import { readFileSync } from 'node:fs';
import { escapeHtml } from '../guide/escape-html.js';
import type { ToolUi } from '../tools/define.js';
import { MCP_APP_MIME_TYPE, type UiResource } from './ui-resources.js';

/** The view of confirm_upload, publish_component, get_component and list_variants (docs/mcp-apps.md, section 1). */
export const PREVIEW_VIEW_URI = 'ui://components/preview-v1.html';

/** What the four tools declare. */
export const PREVIEW_VIEW_UI: ToolUi = { resourceUri: PREVIEW_VIEW_URI };

/**
 * Outside src/: the deployed image keeps `views/` and drops `src/` (docker/prune-deploy.mjs);
 * this path resolves the same from src/views and dist/views.
 */
const TEMPLATE_URL = new URL('../../views/preview-v1.html', import.meta.url);
const DELIVERY_PLACEHOLDER = '{{DELIVERY_URL}}';

/** The view's HTML with the delivery API it loads the host SDK from. */
export function previewViewHtml(deliveryUrl: string): string {
  const template = readFileSync(TEMPLATE_URL, 'utf8');
  if (!template.includes(DELIVERY_PLACEHOLDER)) throw new Error(`views/preview-v1.html lacks ${DELIVERY_PLACEHOLDER}`);
  return template.replaceAll(DELIVERY_PLACEHOLDER, escapeHtml(deliveryUrl.replace(/\/+$/, '')));
}

/**
 * The preview view, rendered once at start. The delivery API's origin is all it reaches:
 * the SDK script, /consume, and the SDK's isolating frame.
 */
export function previewViewResource(deliveryUrl: string): UiResource {
  const html = previewViewHtml(deliveryUrl);
  const origin = new URL(deliveryUrl).origin;
  return {
    uri: PREVIEW_VIEW_URI,
    name: 'component-preview',
    title: 'Component preview',
    description: 'Renders the component a tool result names through the host SDK, with its version, environment and release state.',
    mimeType: MCP_APP_MIME_TYPE,
    meta: { csp: { connectDomains: [origin], resourceDomains: [origin], frameDomains: [origin] }, prefersBorder: true },
    read: () => Promise.resolve(html),
  };
}
