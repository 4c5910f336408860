import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const exec = promisify(execFile);

/** A project directory with dist/index.html, as the upload command expects. */
export async function aProject(html: string | Uint8Array): Promise<{ dir: string; write(content: string | Uint8Array): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'mcp-project-'));
  await mkdir(join(dir, 'dist'));
  const write = (content: string | Uint8Array) => writeFile(join(dir, 'dist', 'index.html'), content);
  await write(html);
  return { dir, write };
}

/** Runs the command exactly as handed out, with a real shell and curl, from the project root. */
export async function runInShell(shell: 'sh' | 'bash', command: string, cwd: string): Promise<{ stdout: string; stderr: string }> {
  return exec(shell, ['-c', command], { cwd, timeout: 15_000 });
}

export const html = (title: string, body = `<p>${title}</p>`): string =>
  `<!doctype html><html><head><title>${title}</title><style>p{color:red}</style></head><body>${body}<script>console.log(1)</script></body></html>`;
