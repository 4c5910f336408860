export { createApp, type AppDeps } from './app.js';
export { type DashboardConfig, makeConfig } from './config.js';
export { parseEnv, loadEnv, type Env } from './env.js';
export { serveDashboard } from './serve.js';
export { loadOrCreateSessionKey, sessionKeysFor, SessionKeyFileError } from './session-key-file.js';
export { createSignIn, type SignIn } from './auth/sign-in.js';
