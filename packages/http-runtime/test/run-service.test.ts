import { runService, type ServiceLog } from '../src/index.js';

const recordingLog = () => {
  const lines: string[] = [];
  const log: ServiceLog = {
    info: (_obj, msg) => lines.push(`info ${msg}`),
    error: (_obj, msg) => lines.push(`error ${msg}`),
    fatal: (_obj, msg) => lines.push(`fatal ${msg}`),
  };
  return { log, lines };
};

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
  const { log, lines } = recordingLog();
  const code = exitCode();
  await runService({ log, name: 'the test service', graceSeconds: 1, start: () => Promise.reject(new Error('no database')) });
  await expect(code).resolves.toBe(1);
  expect(lines).toEqual(['fatal cannot start the test service']);
});

test('on SIGTERM what start returned is closed in its order, then the process exits 0', async () => {
  const { log } = recordingLog();
  const code = exitCode();
  const closed: string[] = [];
  const closable = (name: string) => ({ close: async () => void closed.push(name) });
  await runService({ log, name: 'the test service', graceSeconds: 1, start: async () => [closable('service'), closable('pool')] });
  expect(closed).toEqual([]);
  process.emit('SIGTERM');
  await expect(code).resolves.toBe(0);
  expect(closed).toEqual(['service', 'pool']);
});
