import {
  clientId,
  databaseEnvShape,
  defineSettings,
  flag,
  host,
  httpUrl,
  keyList,
  port,
  positiveInt,
  redisEnvShape,
  secret,
  serviceEnvShape,
  trustProxy,
} from '@cp/http-runtime';
import { z } from 'zod';
import { developmentIssuersSetting } from './ci/issuers.js';
import { defaultThrottle } from './config.js';

/**
 * Every variable the auth server reads, with its default and what it accepts
 * (docs/settings.md; docker/check.mjs checks that docker/.env.example lists
 * `authSettings.names`). env.ts checks what spans several and shapes the result.
 */
export const authSettings = defineSettings({
  ...serviceEnvShape,
  AUTH_PORT: port(4000),
  AUTH_HOST: host,
  AUTH_ISSUER: httpUrl.default('http://localhost:4000'),
  MCP_PUBLIC_URL: httpUrl.default('http://localhost:4100/mcp'),
  AUTH_SIGNING_KEYS: z.string().optional(),
  AUTH_SIGNING_KEYS_FILE: z.string().min(1).optional(),
  AUTH_COOKIE_KEYS: keyList.optional(),
  AUTH_SECRETS_FILE: z.string().min(1).default('.data/auth/secrets.json'),
  AUTH_SIGNUP_ENABLED: flag(true),
  AUTH_TRUST_PROXY: trustProxy,
  AUTH_LOGIN_ACCOUNT_ATTEMPTS: positiveInt(defaultThrottle.loginPerAccountNetwork.attempts),
  AUTH_LOGIN_IP_ATTEMPTS: positiveInt(defaultThrottle.loginPerNetwork.attempts),
  AUTH_SIGNUP_IP_ATTEMPTS: positiveInt(defaultThrottle.signupPerNetwork.attempts),
  AUTH_REGISTRATION_IP_ATTEMPTS: positiveInt(defaultThrottle.registrationPerNetwork.attempts),
  AUTH_PURGE_INTERVAL_SECONDS: positiveInt(600),
  AUTH_CIMD_ALLOW_LOOPBACK: flag(false),
  AUTH_CI_DEV_ISSUERS: developmentIssuersSetting.optional(),
  ...redisEnvShape,
  DASHBOARD_CLIENT_ID: clientId.optional(),
  DASHBOARD_CLIENT_SECRET: secret.optional(),
  DASHBOARD_URL: httpUrl.optional(),
  ...databaseEnvShape,
});

export type AuthSettings = ReturnType<typeof authSettings.parse>;
