import { spawn } from 'node:child_process';

/** Opens `url` in the person's browser; a failure is only logged: the URL is printed anyway. */
export function openBrowser(url: string, onError: (error: Error) => void): void {
  const [command, args] =
    process.platform === 'darwin' ? ['open', [url]] : process.platform === 'win32' ? ['cmd', ['/c', 'start', '""', url]] : ['xdg-open', [url]];
  const child = spawn(command, args, { stdio: 'ignore', detached: true });
  child.on('error', onError);
  child.unref();
}
