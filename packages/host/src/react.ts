import { createElement, useEffect, useRef, type CSSProperties, type ReactElement } from 'react';
import { mount } from './index.js';
import type { CpErrorDetail, CpLoadDetail, MountHandle, MountOptions } from './types.js';

export type { CpActionDetail, CpErrorDetail, CpLoadDetail, CpProblem, MountOptions } from './types.js';

export interface CpComponentProps extends Omit<MountOptions, 'key'> {
  /** mount()'s `key` (React keeps `key` for itself): the user's stable id that picks their arm, never sent. */
  readonly userKey?: string;
  /** After each render (the first and every live switch). */
  readonly onLoad?: (detail: CpLoadDetail) => void;
  /** A failed attempt (`retrying`: the SDK tries again by itself). */
  readonly onError?: (detail: CpErrorDetail) => void;
  readonly className?: string;
  readonly style?: CSSProperties;
}

/**
 * A released component in a React tree: the same options as `mount`, as props.
 * A change of what identifies the component remounts it; a new `data` is sent
 * to the mounted one (`update`). Hooks both React 18 and 19 have, nothing else.
 */
export function CpComponent(props: CpComponentProps): ReactElement {
  const { componentId, env, preview, flowId, baseUrl, source, isolation, shadowRootMode, sandbox, autoHeight, maxHeight, live, previewKey, nonce, analytics, sampleRate, eventsUrl, userKey, data } = props;
  // Compared by value: an object literal in the JSX is a new one each render, which must not remount.
  const attributes = JSON.stringify(props.attributes);
  const element = useRef<HTMLDivElement>(null);
  const handle = useRef<MountHandle | null>(null);
  const sent = useRef<unknown>(undefined);
  // Callbacks are read when called, so a new function each render does not remount.
  const latest = useRef(props);
  latest.current = props;

  useEffect(() => {
    const target = element.current;
    if (!target) return;
    const onLoad = (event: Event): void => latest.current.onLoad?.((event as CustomEvent<CpLoadDetail>).detail);
    const onError = (event: Event): void => latest.current.onError?.((event as CustomEvent<CpErrorDetail>).detail);
    target.addEventListener('cp-load', onLoad);
    target.addEventListener('cp-error', onError);
    sent.current = latest.current.data;
    // Every option of mount but the two handled here: a new option left out of this list does not compile.
    const options = {
      componentId, env, preview, flowId, baseUrl, source, isolation, shadowRootMode, sandbox, autoHeight, maxHeight, live, previewKey, nonce, analytics, sampleRate, eventsUrl,
      key: userKey,
      attributes: latest.current.attributes,
    } satisfies Record<
      Exclude<keyof MountOptions, 'data' | 'onAction'>,
      unknown
    >;
    const mounted = (handle.current = mount(target, {
      ...options,
      data: sent.current,
      onAction: (action, payload) => latest.current.onAction?.(action, payload),
    }));
    return () => {
      mounted.unmount();
      handle.current = null;
      target.removeEventListener('cp-load', onLoad);
      target.removeEventListener('cp-error', onError);
    };
  }, [componentId, env, preview, flowId, baseUrl, source, isolation, shadowRootMode, sandbox, autoHeight, maxHeight, live, previewKey, nonce, analytics, sampleRate, eventsUrl, userKey, attributes]);

  useEffect(() => {
    if (!handle.current || sent.current === data) return;
    sent.current = data;
    handle.current.update(data);
  }, [data]);

  return createElement('div', { ref: element, className: props.className, style: props.style });
}
