export { createApp, type AppDeps } from './app.js';
export { type AuthConfig, type DashboardClient, makeConfig, defaultLifetimes, defaultThrottle, dashboardRedirectUri, DASHBOARD_CLIENT_NAME } from './config.js';
export { parseEnv, loadEnv, type Env, DEVELOPMENT_DASHBOARD } from './env.js';
export { createThrottles } from './security/throttle.js';
export { loadOrCreateLocalSecrets } from './keys/local-secrets.js';
export { generateSigningKey, parseSigningKeys, type SigningKey } from './keys/signing-keys.js';
export { SERVER_NAME } from './version.js';
export { serveAuth, type ServeAuthOptions } from './serve.js';
