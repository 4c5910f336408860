import { cpComponentClass } from './element.js';

export type { CpActionDetail, CpErrorDetail, CpLoadDetail, CpProblem, Isolation, MountHandle, MountOptions } from './types.js';
export { CpError } from './errors.js';
export { mount } from './mount.js';
export { consent, droppedEvents } from './usage/queue.js';

// Only in a browser, and once per page (two copies of the SDK must not throw on the second define).
if (typeof customElements !== 'undefined' && !customElements.get('cp-component')) customElements.define('cp-component', cpComponentClass());
