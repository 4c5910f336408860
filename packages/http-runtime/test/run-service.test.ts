import { Writable } from 'node:stream';
import { runService } from '../src/index.js';

/** The log's lines as `<level> <msg>` (pino's numeric levels: 60 fatal). */
const recordingLog = () => {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) {
        const { level, msg } = JSON.parse(line) as { level: number; msg: string };
        lines.push(`${level === 60 ? 'fatal' : level} ${msg}`);
      }
      done();
    },
  });
  return { destination, lines };
};

const settings = { logLevel: 'info', shutdownGraceSeconds: 1 };

const realExit = process.exit;

/** process.exit recorded instead of exiting: resolves with the first code. */
const exitCode = (): Promise<number> =>
  new Promise<number>((resolve) => {
    process.exit = ((code?: number) => resolve(code ?? 0)) as typeof process.exit;
  });

afterEach(() => {
  process.exit = realExit;
  process.removeAllListeners('SIGTERM');
  process.removeAllListeners('SIGINT');
});

test('a failed start is logged as fatal and exits 1', async () => {
  const { destination, lines } = recordingLog();
  const code = exitCode();
  await runService({ service: 'test', name: 'the test service', settings, destination, start: () => Promise.reject(new Error('no database')) });
  await expect(code).resolves.toBe(1);
  expect(lines).toEqual(['fatal cannot start the test service']);
});

test('on SIGTERM what start returned is closed in its order, then the process exits 0', async () => {
  const { destination } = recordingLog();
  const code = exitCode();
  const closed: string[] = [];
  const closable = (name: string) => ({ close: async () => void closed.push(name) });
  await runService({ service: 'test', name: 'the test service', settings, destination, start: async () => [closable('service'), closable('pool')] });
  expect(closed).toEqual([]);
  process.emit('SIGTERM');
  await expect(code).resolves.toBe(0);
  expect(closed).toEqual(['service', 'pool']);
});
