import { spawn } from 'node:child_process';
import { homedir, hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { runCli } from './cli/run.js';

/** The system's URL opener; a failure to start one only means the person opens the printed URL. */
function openBrowser(url: string): void {
  const [command, args]: [string, string[]] =
    process.platform === 'darwin' ? ['open', [url]] : process.platform === 'win32' ? ['cmd', ['/c', 'start', '""', url]] : ['xdg-open', [url]];
  const child = spawn(command, args, { stdio: 'ignore', detached: true });
  child.on('error', () => undefined);
  child.unref();
}

const code = await runCli(process.argv.slice(2), {
  env: process.env,
  streams: { stdout: process.stdout, stderr: process.stderr },
  stdinIsTTY: process.stdin.isTTY === true,
  fetch: globalThis.fetch,
  openBrowser,
  hostname,
  homedir,
  sleep: (ms) => sleep(ms),
  now: () => Date.now(),
  untilInterrupted: () =>
    new Promise((resolve) => {
      process.once('SIGINT', () => resolve());
      process.once('SIGTERM', () => resolve());
    }),
});
process.exitCode = code;
