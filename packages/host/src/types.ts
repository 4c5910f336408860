/** How the component is kept apart from the host page. */
export type Isolation = 'iframe' | 'shadow';

/** What the host asks for: one component, released to an environment or as its preview. */
export interface MountOptions {
  readonly componentId: string;
  /** The variant released to this environment (`/consume?env=`). Without it, the preview. */
  readonly env?: string;
  /** `true`: the latest variant, even when `env` is given (`/consume?preview=true`). */
  readonly preview?: boolean;
  /** @deprecated Legacy flows: the component is looked up in this flow (`/flow?resolve=components`). Use `env` instead. */
  readonly flowId?: string;
  /** The delivery API, or with `source: 'export'` the organization's static export. Default: the origin and path the SDK file was loaded from. */
  readonly baseUrl?: string;
  /**
   * `api` (default): the delivery API's `/consume`. `export`: an organization's static export
   * (docs/static-export.md) at `baseUrl`, read as `components/<id>/<env>.json`: released
   * environments only (`env` required, no preview), and `live` polls it every few seconds.
   */
  readonly source?: 'api' | 'export';
  /** Default `iframe`. */
  readonly isolation?: Isolation;
  /** Shadow isolation only: the shadow root's mode. Default: the loader's `shadowRootMode`. */
  readonly shadowRootMode?: 'open' | 'closed';
  /** Iframe isolation only: sandbox tokens added to `allow-scripts` (for example `allow-forms allow-popups`). */
  readonly sandbox?: string;
  /**
   * Shadow isolation under a Content-Security-Policy with nonces (docs/host-sdk.md): the page's
   * nonce, put on every script the SDK inserts for the component. Iframe isolation needs none.
   */
  readonly nonce?: string;
  /** Follow the component's height. Default: the loader's `autoHeight`. */
  readonly autoHeight?: boolean;
  /** The most height the SDK gives the component (measured or asked for with `cp:size`), in CSS pixels; past it the component scrolls. */
  readonly maxHeight?: number;
  /** Passed to the component's `cpReceive` once it is ready; structured-cloned. */
  readonly data?: unknown;
  /** Each `cpSend(action, payload)` of the component. */
  readonly onAction?: (action: string, payload: unknown) => void;
  /** Switch to a newly released variant (or a new preview) without a reload. */
  readonly live?: boolean;
  /**
   * The host's stable id for the user (an account id, a hashed one, a device id the page keeps), at most 256
   * characters: with `attributes`, it picks the user's arm of an experience or a rollout, in the page. Never sent.
   * Without it, a split serves the release.
   */
  readonly key?: string;
  /**
   * What an experience's segments test (`{ country: 'DE', plan: 'pro' }`): at most 20 names (a letter, then
   * letters, digits, `_`, `.` or `-`) to strings of at most 128 characters. Never sent.
   */
  readonly attributes?: Readonly<Record<string, string>>;
  /**
   * A preview key of the component's organization, for previews it keeps private: sent as the
   * `Cp-Preview-Key` header on preview reads only. Live previews with a key are polled (the
   * change stream does not announce private previews).
   */
  readonly previewKey?: string;
  /**
   * Usage events (docs/host-sdk.md, "Usage analytics"): `on` (default), `off` (none), or
   * `consent`: held in memory and sent only once the page calls `consent(true)`.
   */
  readonly analytics?: 'on' | 'off' | 'consent';
  /** The share of mounts that send usage events, from 0 to 1 (default 1), decided once per mount. */
  readonly sampleRate?: number;
  /**
   * The delivery API that receives usage events (`POST <eventsUrl>/v1/events`). Default: `baseUrl`
   * with `source: 'api'`; with `source: 'export'` none are sent unless it is given.
   */
  readonly eventsUrl?: string;
}

export interface MountHandle {
  /** Settles once the first variant is rendered; rejects with a `CpError` when it cannot be (after retries give up). */
  readonly ready: Promise<void>;
  /** New data for the component (`cpReceive(data)`), kept across live switches. */
  update(data: unknown): void;
  /** Removes the frame or shadow content, every listener, observer, timer and stream subscription. */
  unmount(): void;
}

/** RFC 9457 problem details as the delivery API sends them, or one the SDK makes (`status` 0 when no answer came). */
export interface CpProblem {
  readonly type: string;
  readonly title: string;
  readonly status: number;
  readonly detail: string;
  readonly code: string;
  readonly resource?: string;
}

/** Event details. */
export interface CpLoadDetail {
  readonly variantId: string;
  readonly variantName: string;
}
export interface CpErrorDetail {
  readonly problem: CpProblem;
  /** True when the SDK tries again by itself (network errors, 5xx, or `live` waiting for a release). */
  readonly retrying: boolean;
}
export interface CpActionDetail {
  readonly action: string;
  readonly payload: unknown;
}

/** The loader of one variant, as `/consume` returns it (apps/delivery-api `HtmlLoader`). */
export interface HtmlLoader {
  readonly type: 'HTMLLoader';
  readonly HTML: string;
  readonly shadowRootMode: 'open' | 'closed';
  readonly autoHeight: boolean;
  readonly integrity: string;
  readonly styles: readonly LoaderStyle[];
  readonly scripts: readonly LoaderScript[];
}
export type LoaderStyle =
  | { readonly type: 'url'; readonly url: string; readonly media: string | null; readonly integrity: string | null; readonly crossOrigin: string | null }
  | { readonly type: 'inline'; readonly content: string; readonly media: string | null };
export type LoaderScript =
  | {
      readonly type: 'url';
      readonly url: string;
      readonly module: boolean;
      readonly async: boolean;
      readonly defer: boolean;
      readonly integrity: string | null;
      readonly crossOrigin: string | null;
    }
  | { readonly type: 'inline'; readonly content: string; readonly module: boolean };
