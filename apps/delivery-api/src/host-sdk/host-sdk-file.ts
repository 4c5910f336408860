import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { frameDocumentOf } from '@cp/consume';

/** A file of the host SDK as built by packages/host (`pnpm --filter @component-platform/host build`): the SDK or its frame document. */
export interface HostSdkFile {
  readonly code: Buffer;
  /** First 16 hex digits of the SHA-256: names the immutable URL. */
  readonly hash: string;
  /** SRI of the file (`sha384-…`), for a `<script integrity>` on the immutable URL. */
  readonly integrity: string;
}

/** Major version in the stable URL (`/host/v1.js`); a breaking change of the SDK's API gets v2 beside it. */
export const HOST_SDK_MAJOR = 'v1';

export const hostSdkPaths = (file: HostSdkFile) => ({
  stable: `/host/${HOST_SDK_MAJOR}.js`,
  immutable: `/host/${HOST_SDK_MAJOR}.${file.hash}.js`,
});

/**
 * The frame document of iframe isolation, named as the SDK's build and the static export name it
 * (by its hash), so the SDK file and the document it loads always match.
 */
export const hostFramePath = (file: HostSdkFile) => `/${frameDocumentOf(file.code).path}`;

/** Any frame document name of this major: an SDK file pinned before a deploy asks for its own build's hash. */
export const ANY_HOST_FRAME_PATH = new RegExp(`^/host/frame/${HOST_SDK_MAJOR}\\.[0-9a-f]{16}\\.html$`);

export function hostSdkFileOf(code: Buffer): HostSdkFile {
  return {
    code,
    hash: createHash('sha256').update(code).digest('hex').slice(0, 16),
    integrity: `sha384-${createHash('sha384').update(code).digest('base64')}`,
  };
}

const built = (file: string) => createRequire(import.meta.url).resolve(`@component-platform/host/dist/${file}`);

/** Reads the built SDK once at start; a missing build stops the service with the command that makes it. */
export function readHostSdkFile(path: string = built('cp-host.js')): HostSdkFile {
  let code: Buffer;
  try {
    code = readFileSync(path);
  } catch {
    throw new Error(`The host SDK is not built (${path} is missing): run \`pnpm --filter @component-platform/host build\`.`);
  }
  if (code.length === 0) throw new Error(`The host SDK file ${path} is empty: run \`pnpm --filter @component-platform/host build\`.`);
  return hostSdkFileOf(code);
}

/** Reads the built frame document once at start, as `readHostSdkFile`. */
export const readHostFrameFile = (path: string = built('frame.html')): HostSdkFile => readHostSdkFile(path);
