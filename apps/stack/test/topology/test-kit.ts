import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

/** What the production-topology test files share: the PostgreSQL gate, a page, the upload's curl. */

export const DATABASE_URL = process.env.DATABASE_URL;

/** `describe` when DATABASE_URL names a PostgreSQL server, else `describe.skip` with a line saying how to run it. */
export function describeWithPostgres(testName: string, settings = '(S3_* for an external S3 server)'): jest.Describe {
  if (DATABASE_URL) return describe;
  console.log(`${testName}: skipped. Set DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres ${settings} to run it.`);
  return describe.skip;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `condition` holds (checked every 50 ms), rather than a fixed time a loaded machine may need more of. */
export async function until(condition: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms: ${what}`);
    await sleep(50);
  }
}

export const page = (title: string) => `<!doctype html><html><head><title>${title}</title></head><body><p>${title}</p></body></html>`;

const exec = promisify(execFile);

/** Runs upload_component's curlCommand as an assistant would: in a project whose dist/index.html is `page(title)`. */
export async function putThroughCurl(curlCommand: string, title: string): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'cp-topology-upload-'));
  await mkdir(join(dir, 'dist'));
  await writeFile(join(dir, 'dist', 'index.html'), page(title));
  await exec('sh', ['-c', curlCommand], { cwd: dir, timeout: 15_000 });
}
