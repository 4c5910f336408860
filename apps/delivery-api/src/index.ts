export { createApp, SERVER_NAME, type AppDeps, type DeliveryApp } from './app.js';
export { type AppConfig, makeConfig } from './config.js';
export { buildOpenApiDocument } from './api/openapi.js';
export { parseEnv, loadEnv, type Env } from './env.js';
export { serveDelivery } from './serve.js';
export type { ChangeFeed } from './changes/change-feed.js';
export { createPostgresChangeFeed } from './changes/postgres-change-feed.js';
export { createPGliteChangeFeed } from './changes/pglite-change-feed.js';
export { hostSdkPaths, readHostFrameFile, readHostSdkFile, type HostSdkFile } from './host-sdk/host-sdk-file.js';
