/*
 * @component-platform/host/server: renders a released component on a server, as
 * HTML to put in a page (Declarative Shadow DOM), for the browser SDK to adopt.
 * Node-safe: no DOM.
 */
export type { CpProblem } from '../types.js';
export { CpError } from '../errors.js';
export { renderComponent, type RenderComponentOptions } from './render-component.js';
