import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

export interface Child {
  readonly pid: number;
  readonly process: ChildProcess;
  /** The first line it printed on stdout (the ready line), when waited for. */
  readonly firstLine: string;
  /** SIGTERM, then waits for the exit (a --cpu-prof profile is written on exit). */
  stop(): Promise<void>;
}

/**
 * Starts `node <args>` in `cwd` (its own process, so its CPU is its own) and
 * resolves once it prints a line on stdout matching `ready` (default: any).
 * Its stderr goes to ours, prefixed by `name`. `wrapper`: a command node runs
 * under (`valgrind --tool=callgrind …`).
 */
export function startNode(
  name: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; ready?: RegExp; timeoutMs?: number; wrapper?: readonly string[] },
): Promise<Child> {
  // A wrapper (valgrind) runs node in the same process, so the pid stays the server's.
  const [command, ...rest] = [...(options.wrapper ?? []), process.execPath, ...args];
  const child = spawn(command!, rest, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
  createInterface({ input: child.stderr! }).on('line', (line) => process.stderr.write(`[${name}] ${line}\n`));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${name} was not ready within ${options.timeoutMs ?? 180_000} ms`));
    }, options.timeoutMs ?? 180_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited with ${code} before it was ready`));
    });
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      if (options.ready && !options.ready.test(line)) return;
      clearTimeout(timer);
      lines.removeAllListeners('line');
      child.stdout!.resume();
      resolve({ pid: child.pid!, process: child, firstLine: line, stop });
    });
  });
}

/** Polls `url` until it answers 200 (the cache is then warm). */
export async function waitFor200(url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const status = await fetch(url).then(
      async (res) => {
        await res.arrayBuffer();
        return res.status;
      },
      () => 0,
    );
    if (status === 200) return;
    if (Date.now() > deadline) throw new Error(`${url} answered ${status}, not 200, for ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
