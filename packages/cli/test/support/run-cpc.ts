import { spawn } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** dist/cpc.js, built by the run's global setup (global-setup.js): the tests run what `npm i -g` installs. */
export const CPC = join(packageDir, 'dist', 'cpc.js');

export interface CpcRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** stdout as the --json envelope. */
  readonly envelope: { ok: boolean; command: string; data?: any; error?: { code: string; message: string; exitCode: number } }; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON, checked by assertions
  /** stderr's NDJSON events (with --json). */
  readonly events: Record<string, unknown>[];
}

/** A `cpc` still running: its stderr events as they come, and the finished run. */
export interface CpcProcess {
  /** The first event named `name` (waiting for it if need be); rejects if the process ends without one. */
  event(name: string): Promise<Record<string, unknown>>;
  readonly done: Promise<CpcRun>;
}

/**
 * `node dist/cpc.js <args>` as a child process with only the environment given (no CI variables of
 * the machine running the tests). stdin is a pipe left open: a prompt would wait on it forever.
 */
export function startCpc(args: readonly string[], env: Record<string, string>, cwd = packageDir): CpcProcess {
  const child = spawn(process.execPath, [CPC, ...args], { cwd, env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  const events: Record<string, unknown>[] = [];
  const waiting: (() => void)[] = [];
  let ended = false;
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  // Whole lines only, until the process ends.
  const readEvents = (lines: string[]) =>
    events.splice(0, events.length, ...lines.filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as Record<string, unknown>));
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    readEvents(stderr.split('\n').slice(0, -1));
    for (const wake of waiting.splice(0)) wake();
  });
  const done = new Promise<CpcRun>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      let envelope = { ok: false, command: '' };
      try {
        envelope = JSON.parse(stdout);
      } catch {
        // Not JSON: the test did not ask for --json, or the run failed; the assertions say which.
      }
      readEvents(stderr.split('\n'));
      ended = true;
      for (const wake of waiting.splice(0)) wake();
      resolve({ code, stdout, stderr, envelope, events: [...events] });
    });
  });
  return {
    done,
    async event(name) {
      for (;;) {
        const found = events.find((event) => event.event === name);
        if (found !== undefined) return found;
        if (ended) throw new Error(`cpc ended without a ${name} event: ${stdout}${stderr}`);
        await new Promise<void>((wake) => waiting.push(wake));
      }
    },
  };
}

export const runCpc = (args: readonly string[], env: Record<string, string>, cwd = packageDir): Promise<CpcRun> => startCpc(args, env, cwd).done;

/** A config dir of its own (0700), with a saved login when given one, written as `cpc login` writes it. */
export async function aConfigDir(login?: Record<string, unknown>): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'cpc-test-'));
  const dir = join(root, 'cpc');
  await mkdir(dir, { mode: 0o700 });
  if (login !== undefined) {
    await writeFile(join(dir, 'credentials.json'), JSON.stringify(login), { mode: 0o600 });
    await chmod(join(dir, 'credentials.json'), 0o600);
  }
  return dir;
}

export const readCredentials = async (dir: string): Promise<Record<string, unknown>> => JSON.parse(await readFile(join(dir, 'credentials.json'), 'utf8')) as Record<string, unknown>;

/** A folder holding a built component. */
export async function aProject(html: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'cpc-project-'));
  await mkdir(join(dir, 'dist'));
  await writeFile(join(dir, 'dist', 'index.html'), html);
  return dir;
}

export const componentHtml = (text: string): string => `<!doctype html><html><body><p>${text}</p></body></html>`;
