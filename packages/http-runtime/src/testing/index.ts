export { startFaultProxy, type FaultMode, type FaultProxy } from './fault-proxy.js';
export { freePort } from './free-port.js';
