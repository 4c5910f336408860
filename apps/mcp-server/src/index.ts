export { createApp, type AppDeps } from './app.js';
export { type AppConfig, makeConfig } from './config.js';
export { parseEnv, loadEnv, type Env } from './env.js';
export { createRateLimits } from './rate-limit/limiter.js';
export { SERVER_NAME } from './mcp/server.js';
export { serveMcp } from './serve.js';
export { openInfrastructure, type Infrastructure } from './infrastructure.js';
