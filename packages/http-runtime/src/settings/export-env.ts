import { z } from 'zod';
import { httpUrl, type Parsed } from './pieces.js';

/*
 * The static export for CDNs (docs/static-export.md): which bucket of the S3
 * endpoint the services already use (S3_*) it writes, under which prefix, and the public
 * URL a CDN serves that bucket at. The worker writes; the dashboard shows the URL.
 */
export const exportEnvShape = {
  // Its own bucket: a CDN (or a public-read policy) can open it without exposing the variants' bucket.
  EXPORT_BUCKET: z.string().min(3).default('components-export'),
  EXPORT_PREFIX: z
    .string()
    .regex(
      /^(?:[a-z0-9._-]+\/)*$/,
      'empty, or lower-case path segments each ending with "/", e.g. exports/',
    )
    .default(''),
  EXPORT_PUBLIC_URL: httpUrl.optional(),
};

export interface ExportSettings {
  readonly bucket: string;
  /** Empty or ending with `/`. */
  readonly prefix: string;
  /** Where the bucket's root is served (no trailing slash); null when not given. */
  readonly publicUrl: string | null;
}

export function exportSettings(env: Parsed<typeof exportEnvShape>): ExportSettings {
  return {
    bucket: env.EXPORT_BUCKET,
    prefix: env.EXPORT_PREFIX,
    publicUrl: env.EXPORT_PUBLIC_URL?.replace(/\/+$/, '') ?? null,
  };
}
