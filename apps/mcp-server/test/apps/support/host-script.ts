import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
const ENTRY = join(here, 'host-page.browser.ts');

/*
 * The host page's script for the browser: host-page.browser.ts with the extension's AppBridge,
 * the MCP SDK and zod bundled in by esbuild. Kept in the system's temporary folder under the
 * hash of the entry and of this package's manifest (which pins the versions it bundles), so a run
 * reuses the last build until either changes.
 */
export async function hostPageScript(): Promise<string> {
  const manifest = await readFile(join(here, '../../../package.json'), 'utf8');
  const key = createHash('sha256').update(await readFile(ENTRY)).update(manifest).digest('hex').slice(0, 16);
  const cached = join(tmpdir(), 'cp-mcp-app-host', `host-page.${key}.js`);
  try {
    return await readFile(cached, 'utf8');
  } catch {
    const result = await build({
      entryPoints: [ENTRY],
      bundle: true,
      format: 'esm',
      target: 'es2022',
      minify: true,
      write: false,
      logLevel: 'silent',
      conditions: ['browser', 'import'],
    });
    const code = result.outputFiles[0]!.text;
    await mkdir(dirname(cached), { recursive: true });
    await writeFile(cached, code);
    return code;
  }
}
