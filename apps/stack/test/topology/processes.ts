import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root and apps/stack (whose node_modules hold tsx). */
export const STACK_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const REPO_ROOT = resolve(STACK_DIR, '..', '..');

/**
 * One service as production runs it: its own Node process, `main.ts` through tsx
 * with the `source` condition (what `node dist/main.js` runs, without a build),
 * configured only through its environment.
 */
export class ServiceProcess {
  private child: ChildProcess | null = null;
  private output = '';

  constructor(
    readonly name: string,
    readonly app: string,
    readonly url: string,
    private readonly env: Record<string, string>,
  ) {}

  /** The end of what the process wrote (stdout and stderr), for failure messages. */
  get recentOutput(): string {
    return this.output;
  }

  async start(readyWithinMs = 30_000): Promise<void> {
    const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', join(REPO_ROOT, 'apps', this.app, 'src', 'main.ts')], {
      cwd: STACK_DIR,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'warn', ...this.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    const keep = (chunk: Buffer) => {
      this.output = (this.output + chunk.toString()).slice(-4000);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    await this.waitReady(readyWithinMs);
  }

  /** Polls GET /ready until 200; fails with the process's output if it exits or times out. */
  async waitReady(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (this.child?.exitCode !== null && this.child?.exitCode !== undefined) {
        throw new Error(`${this.name} exited (${this.child.exitCode}):\n${this.output}`);
      }
      try {
        const res = await fetch(`${this.url}/ready`, { signal: AbortSignal.timeout(2000) });
        if (res.status === 200) return;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 150));
    }
    throw new Error(`${this.name} not ready after ${timeoutMs} ms:\n${this.output}`);
  }

  /** SIGKILL: no drain, no cleanup, as a crashed machine or an OOM kill. */
  async kill(): Promise<void> {
    await this.signal('SIGKILL');
  }

  /** SIGTERM and wait for the exit code. */
  async stop(): Promise<number | null> {
    return this.signal('SIGTERM');
  }

  private async signal(signal: NodeJS.Signals): Promise<number | null> {
    const child = this.child;
    if (child === null || child.exitCode !== null || child.signalCode !== null) return child?.exitCode ?? null;
    const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
    child.kill(signal);
    const code = await exited;
    this.child = null;
    return code;
  }
}
