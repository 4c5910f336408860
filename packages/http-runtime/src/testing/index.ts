export { startFaultProxy, type FaultMode, type FaultProxy } from './fault-proxy.js';
