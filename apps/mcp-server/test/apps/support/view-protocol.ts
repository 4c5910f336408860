import type { Tool } from '@modelcontextprotocol/sdk/types.js';

/*
 * The extension's types the harness names, as the 2026-01-26 specification defines them. The
 * package's declaration files import their siblings without file extensions, which this
 * repository's NodeNext resolution does not follow, so its own type names do not resolve here.
 */

/** `_meta.ui.csp` of a view's resource: the origins it needs. */
export interface ResourceCsp {
  readonly connectDomains?: readonly string[];
  readonly resourceDomains?: readonly string[];
  readonly frameDomains?: readonly string[];
  readonly baseUriDomains?: readonly string[];
}

/** `_meta.ui` of a view's resource. */
export interface ResourceUiMeta {
  readonly csp?: ResourceCsp;
  readonly prefersBorder?: boolean;
  readonly domain?: string;
}

/** What the host tells the view about itself in the ui/initialize answer. */
export interface HostContext {
  readonly theme: 'light' | 'dark';
  readonly platform: 'web' | 'desktop' | 'mobile';
  readonly displayMode: 'inline' | 'fullscreen' | 'pip';
  readonly availableDisplayModes: readonly ('inline' | 'fullscreen' | 'pip')[];
  readonly locale: string;
  readonly toolInfo: { readonly tool: Tool };
  readonly containerDimensions: { readonly width: number; readonly maxHeight: number };
  /** The host's style variables (`--color-background-primary`, `--font-sans`, ...). */
  readonly styles: { readonly variables: Readonly<Record<string, string>> };
}
