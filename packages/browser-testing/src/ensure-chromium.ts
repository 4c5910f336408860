import { chromiumPath, missingChromiumMessage } from './chromium.js';
import { installDebianPackage, type System } from './debian-package.js';

export interface EnsureChromiumDeps extends System {
  readonly env: Readonly<Record<string, string | undefined>>;
  isExecutable(path: string): boolean;
  log(line: string): void;
}

export type EnsureChromiumResult = { readonly ok: true; readonly path: string } | { readonly ok: false; readonly message: string };

/**
 * Makes sure the browser tests have their Chromium: present, or installed from
 * Debian's packages when this user can (root with apt-get). An explicit
 * CHROMIUM_PATH is never second-guessed: when it names nothing, the answer is
 * to fix it, not to install something else.
 */
export function ensureChromium(deps: EnsureChromiumDeps): EnsureChromiumResult {
  const path = chromiumPath(deps.env);
  if (deps.isExecutable(path)) return { ok: true, path };
  const missing = { ok: false, message: missingChromiumMessage(deps.env, deps.isRoot) } as const;
  if (deps.env.CHROMIUM_PATH || !deps.isRoot || !deps.has('apt-get')) return missing;

  deps.log(`Chromium is missing at ${path}: installing Debian's chromium for the browser tests (apt-get install -y chromium).`);
  return installDebianPackage('chromium', deps) && deps.isExecutable(path) ? { ok: true, path } : missing;
}
