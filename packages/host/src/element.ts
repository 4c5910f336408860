import { ELEMENT_SHADOW, SSR_DATA, SSR_VARIANT } from './markup.js';
import { start } from './mount.js';
import type { MountHandle, MountOptions } from './types.js';

const TEXT = 0;
/** Present and not "false". */
const FLAG = 1;
/** A number; present but empty is NaN (refused by the option's check). */
const NUMBER = 2;
/** JSON; text that is not JSON is passed on as it is, which the option's check refuses, naming it. */
const OBJECT = 3;

const parsed = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

/**
 * Every attribute is an option (its camelCase name), read as text, a flag, a number or JSON: a change remounts with
 * all of them. `nonce` too, read at each mount but not observed (browsers blank the attribute once the element is in the document).
 */
const ATTRIBUTES: Record<string, typeof TEXT | typeof FLAG | typeof NUMBER | typeof OBJECT> = {
  'component-id': TEXT,
  env: TEXT,
  preview: FLAG,
  'flow-id': TEXT,
  'base-url': TEXT,
  isolation: TEXT,
  'shadow-root-mode': TEXT,
  sandbox: TEXT,
  'auto-height': FLAG,
  'max-height': NUMBER,
  live: FLAG,
  'preview-key': TEXT,
  source: TEXT,
  analytics: TEXT,
  'sample-rate': NUMBER,
  'events-url': TEXT,
  key: TEXT,
  attributes: OBJECT,
};

/**
 * The `<cp-component>` class, made on demand: `HTMLElement` does not exist
 * where the module may be imported (a server, a test in Node).
 */
export function cpComponentClass(): CustomElementConstructor {
  return class CpComponent extends HTMLElement {
    static get observedAttributes(): string[] {
      return Object.keys(ATTRIBUTES);
    }

    // Assigned in the constructor, not class fields: the targets the SDK is built for would get a helper for those.
    declare private handle: MountHandle | null;
    declare private value: unknown;
    declare private queued: boolean;
    declare private readonly parts: [loading: HTMLElement, error: HTMLElement, content: HTMLElement];

    constructor() {
      super();
      this.handle = null;
      this.queued = false;
      // A server-rendered element (renderComponent, Declarative Shadow DOM) arrives with its root: kept, not replaced.
      let root = this.shadowRoot;
      if (!root) (root = this.attachShadow({ mode: 'open' })).innerHTML = ELEMENT_SHADOW;
      this.parts = [...root.children].slice(1) as CpComponent['parts'];
      const data = this.getAttribute(SSR_DATA);
      try {
        if (data) this.value = JSON.parse(data);
      } catch {
        // Only renderComponent writes it; an edited one must not break the element, which still renders without data.
        console.error(`<cp-component>: ${SSR_DATA} is not JSON; the component gets no data until \`data\` is set.`);
      }
    }

    /** Passed to the component (`cpReceive`); setting it sends it now and to every later variant. */
    get data(): unknown {
      return this.value;
    }
    set data(value: unknown) {
      this.value = value;
      this.handle?.update(value);
    }

    /** The current mount's `ready` (undefined while not in the document). */
    get ready(): Promise<void> | undefined {
      return this.handle?.ready;
    }

    connectedCallback(): void {
      // A framework may have set `data` before the element was defined: take it over from the instance.
      if (Object.prototype.hasOwnProperty.call(this, 'data')) {
        const value: unknown = this.data;
        delete (this as { data?: unknown }).data;
        this.data = value;
      }
      if (!this.handle) this.remount();
    }

    disconnectedCallback(): void {
      this.handle?.unmount();
      this.handle = null;
    }

    attributeChangedCallback(_name: string, before: string | null, after: string | null): void {
      if (!this.handle || before === after || this.queued) return;
      // Several attributes set in one task remount once.
      this.queued = true;
      queueMicrotask(() => {
        this.queued = false;
        if (this.handle) this.remount();
      });
    }

    private remount(): void {
      this.handle?.unmount();
      const [loading, error, content] = this.parts;
      // What the server rendered stays in view; the SDK adopts it once /consume names the same variant.
      const box = content.firstElementChild as HTMLElement | null;
      const variantId = this.getAttribute(SSR_VARIANT);
      const prerendered = box && variantId ? { variantId, box } : undefined;
      loading.hidden = !!prerendered;
      error.hidden = true;
      this.handle = start(
        this,
        content,
        this.options(),
        (state) => {
          loading.hidden = true;
          error.hidden = state === 'ready';
        },
        prerendered,
      );
    }

    private options(): MountOptions {
      const options: Record<string, unknown> = {
        // The IDL property: browsers hide a nonce attribute's value from the DOM once the element is in the document.
        nonce: this.nonce || undefined,
        data: this.value,
      };
      for (const [name, kind] of Object.entries(ATTRIBUTES)) {
        const value = this.getAttribute(name);
        options[name.replace(/-./g, (dash) => dash[1]!.toUpperCase())] = value === null ? undefined : kind === FLAG ? value !== 'false' : kind === NUMBER ? Number(value || NaN) : kind === OBJECT ? parsed(value) : value;
      }
      options.componentId ??= '';
      return options as unknown as MountOptions;
    }
  };
}
