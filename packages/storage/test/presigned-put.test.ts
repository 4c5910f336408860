import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { curlUploadCommand } from '@cp/domain';

import { createObjectStore } from '../src/index.js';
import { runShell } from './support/run-shell.js';
import { startS3Target, type S3Target } from './support/s3-target.js';

const HTML = '<!doctype html><html><head><title>t</title></head><body>héllo ✓</body></html>\n';

let target: S3Target;
let workDir: string;

beforeAll(async () => {
  target = await startS3Target();
  // The upload command reads ./dist/index.html, relative to where the user runs it.
  workDir = await mkdtemp(join(tmpdir(), 'cp-storage-curl-'));
  await mkdir(join(workDir, 'dist'));
  await writeFile(join(workDir, 'dist', 'index.html'), HTML);
});

afterAll(async () => {
  await target?.close();
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

const presign = (key: string, expiresInSeconds = 300) =>
  target.store.presignPut(key, { expiresInSeconds, contentType: 'text/html' });

/** Replaces the last hex digit of the signature with another one. */
const tamperSignature = (url: string): string =>
  url.replace(
    /(X-Amz-Signature=[0-9a-f]*)([0-9a-f])$/,
    (_all, head: string, last: string) => `${head}${last === '0' ? '1' : '0'}`,
  );

describe.each(['sh', 'bash'] as const)('the upload command run with %s -c', (shell) => {
  it('stores ./dist/index.html, so stat and read return its bytes', async () => {
    const key = target.newKey();
    const url = await presign(key);

    const result = await runShell(shell, curlUploadCommand(url), { cwd: workDir });

    expect(result).toMatchObject({ exitCode: 0, stderr: '' });
    expect(await target.store.stat(key)).toEqual({ size: Buffer.byteLength(HTML) });
    expect(Buffer.from(await target.store.read(key)).toString('utf8')).toBe(HTML);
  });

  it('is refused when the signature was altered: curl exits non-zero and nothing is stored', async () => {
    const key = target.newKey();
    const url = tamperSignature(await presign(key));

    const result = await runShell(shell, curlUploadCommand(url), { cwd: workDir });

    expect(result).toMatchObject({ exitCode: 22, stderr: expect.stringContaining('returned error: 403') });
    expect(await refusalReason(url)).toBe('SignatureDoesNotMatch');
    expect(await target.store.stat(key)).toBeNull();
  });

  it('survives shell metacharacters and quotes in the key, the URL and the file path', async () => {
    const key = target.newKey(`it's "q" $(touch pwned) \`touch pwned\`; a&b=c+d,(e)!*~ é.html`);
    const encoded = await presign(key);
    // The same URL with RFC 3986 sub-delimiters written raw in the path, so the command
    // line really contains ', $, (, ), ;, &, !, * and = where the shell would act on them.
    const [path = '', query = ''] = encoded.split('?');
    const raw = `${path.replace(/%(27|24|28|29|3B|26|21|2A|3D|2B|2C)/g, (escape) =>
      decodeURIComponent(escape),
    )}?${query}`;
    expect(raw).toContain("it's");
    const file = "./it's dist/$(touch pwned).html";
    await mkdir(join(workDir, "it's dist"), { recursive: true });
    await writeFile(join(workDir, file), HTML);

    for (const url of [encoded, raw]) {
      await target.store.remove(key);
      const result = await runShell(shell, curlUploadCommand(url, file), { cwd: workDir });
      expect(result).toMatchObject({ exitCode: 0, stderr: '' });
      expect(await target.store.stat(key)).toEqual({ size: Buffer.byteLength(HTML) });
    }
    expect((await readdir(workDir)).sort()).toEqual(['dist', "it's dist"]);
    // Removed here: listing such keys back (for cleanup) is unreliable on s3rver.
    await target.store.remove(key);
  });
});

describe('a presigned PUT URL', () => {
  it('is refused once expired (1 s expiry, then a wait)', async () => {
    const key = target.newKey();
    const url = await presign(key, 1);
    // X-Amz-Date has whole seconds, so the URL is dead at most 2 s after signing.
    await new Promise((resolve) => setTimeout(resolve, 2_200));

    const result = await runShell('sh', curlUploadCommand(url), { cwd: workDir });

    expect(result).toMatchObject({ exitCode: 22, stderr: expect.stringContaining('returned error: 403') });
    expect(await refusalReason(url)).toMatch(/AccessDenied|expired/i);
    expect(await target.store.stat(key)).toBeNull();
  }, 15_000);

  it('is refused when it was signed an hour ago for an hour (clock injected)', async () => {
    const past = new Date(Date.now() - 3_601_000);
    const store = createObjectStore(target.config, { clock: { now: () => past } });
    const key = target.newKey();

    const url = await store.presignPut(key, { expiresInSeconds: 3600, contentType: 'text/html' });

    const result = await runShell('sh', curlUploadCommand(url), { cwd: workDir });

    expect(result.exitCode).not.toBe(0);
    expect(await target.store.stat(key)).toBeNull();
  });

  it('signs the Content-Type: a PUT announcing another type is refused', async () => {
    const key = target.newKey();
    const url = await presign(key);
    const command = curlUploadCommand(url).replace(
      "'Content-Type: text/html'",
      "'Content-Type: text/plain'",
    );

    const result = await runShell('sh', command, { cwd: workDir });

    expect(result).toMatchObject({ exitCode: 22, stderr: expect.stringContaining('returned error: 403') });
    expect(await refusalReason(url, 'text/plain')).toBe('SignatureDoesNotMatch');
    expect(await target.store.stat(key)).toBeNull();
  });

  it('signs the expiry and the key: a longer expiry or another key is refused', async () => {
    const key = target.newKey();
    const url = await presign(key, 60);
    const otherKey = target.newKey();
    const longer = url.replace('X-Amz-Expires=60', 'X-Amz-Expires=600');
    const elsewhere = url.replace(
      key.split('/').slice(0, -1).join('/'),
      otherKey.split('/').slice(0, -1).join('/'),
    );
    expect(longer).not.toBe(url);
    expect(elsewhere).not.toBe(url);

    for (const altered of [longer, elsewhere]) {
      const result = await runShell('sh', curlUploadCommand(altered), { cwd: workDir });
      expect(result.exitCode).not.toBe(0);
    }
    expect(await target.store.stat(key)).toBeNull();
    expect(await target.store.stat(otherKey)).toBeNull();
  });

  it('is needed: the same PUT without its query (unsigned) is refused with 403 AccessDenied', async () => {
    const key = target.newKey();
    const unsigned = (await presign(key)).split('?')[0]!;

    expect(await refusalReason(unsigned)).toBe('AccessDenied');
    expect(await target.store.stat(key)).toBeNull();
  });

  it('names the public endpoint when it differs from the internal one, and works there', async () => {
    const internal = new URL(target.config.endpoint);
    const aliases: Record<string, string> = { '127.0.0.1': 'localhost', localhost: '127.0.0.1' };
    const alias = aliases[internal.hostname];
    const publicUrl = new URL(internal);
    publicUrl.hostname = alias ?? 'files.example.test';
    const publicEndpoint = publicUrl.origin;
    const store = createObjectStore({ ...target.config, publicEndpoint });
    const key = target.newKey();

    const url = await store.presignPut(key, { expiresInSeconds: 60, contentType: 'text/html' });

    expect(url.startsWith(`${publicEndpoint}/${target.config.bucket}/`)).toBe(true);
    expect(url).not.toContain(internal.host);
    if (alias === undefined) return; // no second name for that host on this machine
    const result = await runShell('sh', curlUploadCommand(url), { cwd: workDir });
    expect(result).toMatchObject({ exitCode: 0, stderr: '' });
    expect(await store.stat(key)).toEqual({ size: Buffer.byteLength(HTML) });
  });
});

/** The S3 error code of a refused PUT (curl --fail hides the body, so ask directly). */
async function refusalReason(url: string, contentType = 'text/html'): Promise<string> {
  const response = await fetch(url, { method: 'PUT', headers: { 'content-type': contentType }, body: '<p>x</p>' });
  const body = await response.text();
  return /<Code>([^<]+)<\/Code>/.exec(body)?.[1] ?? `HTTP ${response.status}: ${body.slice(0, 200)}`;
}
