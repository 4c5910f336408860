import {
  clientId,
  databaseEnvShape,
  defineSettings,
  exportEnvShape,
  host,
  httpUrl,
  keyList,
  objectStoreEnvShape,
  port,
  secret,
  serviceEnvShape,
  webhooksEnvShape,
  trustProxy,
} from '@cp/http-runtime';
import { z } from 'zod';

/**
 * Every variable the dashboard reads, with its default and what it accepts
 * (docs/settings.md; docker/check.mjs checks that docker/.env.example lists
 * `dashboardSettings.names`). Development defaults match the auth server's
 * (DASHBOARD_CLIENT_ID/SECRET), so `pnpm start` needs no setting.
 */
export const dashboardSettings = defineSettings({
  ...serviceEnvShape,
  DASHBOARD_PORT: port(4300),
  DASHBOARD_HOST: host,
  DASHBOARD_URL: httpUrl.default('http://localhost:4300'),
  DASHBOARD_CLIENT_ID: clientId.default('dashboard'),
  DASHBOARD_CLIENT_SECRET: secret.optional(),
  DASHBOARD_SESSION_KEYS: keyList.optional(),
  // Without DASHBOARD_SESSION_KEYS (development only): where this installation's generated key is kept.
  DASHBOARD_SECRETS_FILE: z.string().min(1).default('.data/dashboard/secrets.json'),
  DASHBOARD_SESSION_HOURS: z.coerce.number().int().min(1).max(24 * 30).default(12),
  DASHBOARD_TRUST_PROXY: trustProxy,
  AUTH_ISSUER: httpUrl.default('http://localhost:4000'),
  MCP_PUBLIC_URL: httpUrl.default('http://localhost:4100/mcp'),
  DELIVERY_PUBLIC_URL: httpUrl.default('http://localhost:4200'),
  // Invitations: how long a link works, and (optional) the SMTP server that also emails it.
  INVITATION_TTL_HOURS: z.coerce.number().int().min(1).max(24 * 90).default(7 * 24),
  SMTP_URL: z
    .url({ protocol: /^smtps?$/, error: 'an smtp:// or smtps:// URL, e.g. smtp://user:password@mail.example.com:587' })
    .optional(),
  MAIL_FROM: z.string().trim().min(3).max(320).optional(),
  // No S3_PUBLIC_ENDPOINT: the dashboard reads objects itself and presigns no URL.
  ...databaseEnvShape,
  ...webhooksEnvShape,
  ...objectStoreEnvShape,
  // The static export's page shows each organization's URL (EXPORT_PUBLIC_URL, EXPORT_PREFIX).
  ...exportEnvShape,
});
