import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { CPC, aProject, componentHtml, runCpc } from './support/run-cpc.js';

// `cpc dev` as the binary runs it: the wiring of src/dev's server into the envelope, the events and Ctrl+C.

test('cpc dev serves the page until SIGINT, then answers the envelope with its URL', async () => {
  const project = await aProject(componentHtml('dev'));
  const file = join(project, 'dist', 'index.html');
  const child = spawn(process.execPath, [CPC, 'dev', file, '--port', '0', '--json'], { env: { PATH: process.env.PATH ?? '' }, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const ready = new Promise<{ url: string }>((resolve) => {
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const line = stderr.split('\n').find((text) => text.includes('"event":"dev.ready"'));
      if (line !== undefined) resolve(JSON.parse(line) as { url: string });
    });
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  const { url } = await ready;
  expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
  const page = await fetch(url);
  expect(page.status).toBe(200);
  child.kill('SIGINT');
  expect(await exited).toBe(0);
  expect(JSON.parse(stdout)).toEqual({ ok: true, command: 'dev', data: { file, url } });
});

test('cpc dev on a file that is not there: exit 2, FILE_NOT_FOUND', async () => {
  const run = await runCpc(['dev', 'no-such-file.html', '--json'], {});
  expect(run.code).toBe(2);
  expect(run.envelope.error).toMatchObject({ code: 'FILE_NOT_FOUND', exitCode: 2 });
});

test('cpc dev --port takes a port number only: exit 2', async () => {
  const run = await runCpc(['dev', 'index.html', '--port', '80a', '--json'], {});
  expect(run.code).toBe(2);
  expect(run.envelope.error).toMatchObject({ code: 'USAGE', message: expect.stringContaining('--port must be a port number'), exitCode: 2 });
});
