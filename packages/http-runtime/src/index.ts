export { drainable, exitOnSignal, listen, type Drainable, type ShutdownLog } from './shutdown.js';
export { serveHttp, type HttpServer, type RunningService, type ServeHttpOptions } from './serve-http.js';
export { createReadiness, storeChecks, type CheckResult, type OperabilityDeps, type ReadinessCheck, type ReadinessReport } from './readiness.js';
export { createMetrics, expressMetrics, secondsSince, timeResponse, type Metrics } from './metrics.js';
export { DURATION_BUCKETS, HttpMetrics, Tally, type RouteRecorder } from './http-metrics.js';
export { clientNetwork } from './client-network.js';
export { createLogger, silentLogger, type Logger, type LoggerOptions } from './log.js';
export type { Counter, Registry } from 'prom-client';
export * from './settings/index.js';
