import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { frameDocumentOf } from '@cp/consume';
import { DevServerError } from './errors.js';

/** The built host SDK, as the delivery API serves it: the module and its frame document. */
export interface HostSdkFiles {
  readonly sdk: Buffer;
  readonly frame: {
    /** `/host/frame/v1.<hash>.html`: the name the SDK was built to load. */
    readonly path: string;
    readonly html: Buffer;
  };
}

const SDK = 'cp-host.js';
const FRAME = 'frame.html';

/**
 * Where the built SDK files are: beside the CLI's bundle (its build copies them into dist/, and
 * an installed CLI has nothing else), else in the workspace's @component-platform/host (running
 * from source). Null when neither has them.
 */
export function hostSdkDirectory(moduleUrl: string = import.meta.url): string | null {
  const beside = dirname(fileURLToPath(moduleUrl));
  if (existsSync(join(beside, SDK)) && existsSync(join(beside, FRAME))) return beside;
  try {
    return dirname(createRequire(moduleUrl).resolve(`@component-platform/host/dist/${SDK}`));
  } catch {
    return null;
  }
}

/** Reads the SDK files once at start; missing ones stop the server with the command that builds them. */
export function readHostSdkFiles(directory: string | null = hostSdkDirectory()): HostSdkFiles {
  const missing = new DevServerError(
    'HOST_SDK_MISSING',
    'The host SDK is not built: run `pnpm --filter @component-platform/host build` (an installed cpc carries it in its dist folder).',
  );
  if (directory === null) throw missing;
  try {
    const sdk = readFileSync(join(directory, SDK));
    const html = readFileSync(join(directory, FRAME));
    return { sdk, frame: { path: `/${frameDocumentOf(html).path}`, html } };
  } catch {
    throw missing;
  }
}
