export type { CpActionDetail, CpErrorDetail, CpLoadDetail, CpProblem, Isolation, MountHandle, MountOptions } from './types.js';
export { CpError } from './errors.js';
export { mount } from './mount.js';
