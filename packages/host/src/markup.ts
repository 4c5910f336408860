/*
 * Markup the SDK builds in the browser and renderComponent (./server) writes on
 * a server alike, so that the browser takes a server-rendered element as its own.
 */

/** The element's shadow root: its styles, the host's loading and error slots, the content. */
export const ELEMENT_SHADOW =
  '<style>:host{display:block}[hidden]{display:none!important}</style><slot name="loading" hidden></slot><slot name="error" hidden></slot><div></div>';

/** The element holding a shadow component's root resets inherited styles, so neither direction leaks, as in a frame. */
export const SHADOW_HOST_STYLE = 'all:initial;display:block';

/** On a server-rendered element: the variant rendered, and the data it was given (JSON). */
export const SSR_VARIANT = 'ssr-variant';
export const SSR_DATA = 'ssr-data';

/**
 * A parser runs the scripts of a declarative shadow root at once, before the SDK
 * could bind the contract: the server writes them as data blocks with their type
 * in this attribute, and the SDK restores it when it runs them.
 */
export const INERT_TYPE = 'cp-type';
