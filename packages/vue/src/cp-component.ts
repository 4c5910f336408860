import { mount, type CpErrorDetail, type CpLoadDetail, type Isolation, type MountHandle, type MountOptions } from '@component-platform/host';
import { defineComponent, h, onBeforeUnmount, onMounted, ref, toRaw, watch, type PropType } from 'vue';

/** The options that identify what is rendered: a change of any of them remounts. */
const IDENTITY = ['componentId', 'env', 'preview', 'flowId', 'baseUrl', 'source', 'isolation', 'shadowRootMode', 'sandbox', 'autoHeight', 'maxHeight', 'live', 'previewKey', 'nonce', 'analytics', 'sampleRate', 'eventsUrl'] as const;
// Every option of mount but `data`, `onAction` and the two that pick the arm: a new option left out of the list above does not compile.
const everyOption: Exclude<keyof MountOptions, 'data' | 'onAction' | 'key' | 'attributes' | (typeof IDENTITY)[number]> extends never ? true : never = true;
void everyOption;

// Absent booleans stay undefined (Vue would make them false): `autoHeight` then follows the loader's setting.
const flag = { type: Boolean, default: undefined } as const;

/**
 * A released component in a Vue 3 tree: the same options as `mount`, as props.
 * A change of what identifies the component remounts it; a new `data` (or a
 * change inside a reactive one) is sent to the mounted one (`update`).
 * Emits `load`, `error` and `action` (`(action, payload)`, like `onAction`).
 */
export const CpComponent = defineComponent({
  name: 'CpComponent',
  props: {
    componentId: { type: String, required: true },
    env: String,
    preview: flag,
    /** @deprecated Legacy flows; use `env`. */
    flowId: String,
    baseUrl: String,
    source: String as PropType<MountOptions['source']>,
    isolation: String as PropType<Isolation>,
    shadowRootMode: String as PropType<MountOptions['shadowRootMode']>,
    sandbox: String,
    autoHeight: flag,
    maxHeight: Number,
    live: flag,
    previewKey: String,
    /** Shadow isolation under a CSP with nonces: the page's nonce, put on the scripts the SDK inserts. */
    nonce: String,
    /** Usage events: `on` (default), `off`, or `consent` (sent once the page calls `consent(true)`). */
    analytics: String as PropType<MountOptions['analytics']>,
    /** The share of mounts that send usage events, 0 to 1. */
    sampleRate: Number,
    /** The delivery API that receives usage events (default: `baseUrl`; required for them with `source: 'export'`). */
    eventsUrl: String,
    /** mount()'s `key` (Vue keeps `key` for itself): the user's stable id that picks their arm, never sent. */
    userKey: String,
    /** What an experience's segments test (`{ country: 'DE' }`), never sent. */
    attributes: Object as PropType<Readonly<Record<string, string>>>,
    /** Any structured-cloneable value; a reactive one is sent as its plain object. */
    data: { type: null as unknown as PropType<unknown>, required: false },
  },
  // Types of the listeners (`onLoad`, `@load`); the SDK is what emits, so nothing to validate at run time.
  emits: {
    /** After each render (the first and every live switch). */
    load: (_detail: CpLoadDetail) => true,
    /** A failed attempt (`retrying`: the SDK tries again by itself). */
    error: (_detail: CpErrorDetail) => true,
    /** Each `cpSend(action, payload)` of the component. */
    action: (_action: string, _payload: unknown) => true,
  },
  setup(props, { emit }) {
    const element = ref<HTMLDivElement | null>(null);
    let handle: MountHandle | null = null;
    const onLoad = (event: Event): void => emit('load', (event as CustomEvent<CpLoadDetail>).detail);
    const onError = (event: Event): void => emit('error', (event as CustomEvent<CpErrorDetail>).detail);

    const start = (target: HTMLElement): void => {
      const options = Object.fromEntries(IDENTITY.map((key) => [key, props[key]])) as Omit<MountOptions, 'data' | 'onAction' | 'key' | 'attributes'>;
      // Structured clone refuses Vue's proxies: the component gets the plain object behind one.
      handle = mount(target, {
        ...options,
        key: props.userKey,
        attributes: toRaw(props.attributes),
        data: toRaw(props.data),
        onAction: (action, payload) => emit('action', action, payload),
      });
    };
    const stop = (): void => {
      handle?.unmount();
      handle = null;
    };

    onMounted(() => {
      const target = element.value!;
      target.addEventListener('cp-load', onLoad);
      target.addEventListener('cp-error', onError);
      start(target);
    });
    onBeforeUnmount(() => {
      stop();
      element.value?.removeEventListener('cp-load', onLoad);
      element.value?.removeEventListener('cp-error', onError);
    });
    watch(
      // Attributes by value: an object literal in the template is a new one each render, which must not remount.
      [...IDENTITY.map((key) => () => props[key]), () => props.userKey, () => JSON.stringify(props.attributes)],
      () => {
        stop();
        if (element.value) start(element.value);
      },
    );
    watch(
      () => props.data,
      (data) => handle?.update(toRaw(data)),
      { deep: true },
    );

    // `class`, `style` and other attributes fall through to this element.
    return () => h('div', { ref: element });
  },
});
