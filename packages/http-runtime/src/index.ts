export { drainable, exitOnSignal, listen, type Drainable, type ShutdownLog } from './shutdown.js';
export { createReadiness, type CheckResult, type ReadinessCheck, type ReadinessReport } from './readiness.js';
export { createMetrics, expressMetrics, secondsSince, timeResponse, type Metrics } from './metrics.js';
export { DURATION_BUCKETS, HttpMetrics, Tally, type RouteRecorder } from './http-metrics.js';
export type { Counter, Registry } from 'prom-client';
export * from './env-loader.js';
export * from './storage-env.js';
