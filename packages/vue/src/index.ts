export { CpComponent } from './cp-component.js';
export { CpError } from '@component-platform/host';
export type { CpActionDetail, CpErrorDetail, CpLoadDetail, CpProblem, Isolation, MountOptions } from '@component-platform/host';
