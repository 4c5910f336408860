import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startStack } from '../src/stack.js';
import { startOnFreePorts } from './topology/stack-settings.js';

// `pnpm start` listens on loopback unless STACK_HOST says otherwise. Probed with TCP
// connections to this machine's own non-loopback address, when it has one.

const outsideAddress = Object.values(networkInterfaces())
  .flat()
  .find(
    (address) => address !== undefined && address.family === 'IPv4' && !address.internal,
  )?.address;
if (outsideAddress === undefined)
  console.log(
    'stack-host: this machine has no non-loopback IPv4 address; the reachability tests are skipped',
  );
const withOutsideAddress = outsideAddress === undefined ? test.skip : test;

const accepts = (host: string, port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect({ host, port });
    socket.setTimeout(2_000, () => socket.destroy());
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('close', () => resolve(false));
  });

async function startWith(extra: Record<string, string>) {
  const root = await mkdtemp(join(tmpdir(), 'cp-stack-host-'));
  // The stack's default, not the test helper's explicit loopback hosts.
  const withoutHosts = (settings: Record<string, string>) =>
    Object.fromEntries(Object.entries(settings).filter(([name]) => !name.endsWith('_HOST')));
  const { free, started: stack } = await startOnFreePorts((free) =>
    startStack({ root, s3Port: free.s3Port, source: { ...withoutHosts(free.settings), ...extra } }),
  );
  const ports = [...Object.values(free.urls).map((url) => Number(new URL(url).port)), free.s3Port];
  return {
    ports,
    async close() {
      await stack.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}

describe('where the embedded stack listens', () => {
  let running: { ports: number[]; close(): Promise<void> } | undefined;
  afterEach(async () => {
    await running?.close();
    running = undefined;
  });

  withOutsideAddress(
    'by default: on loopback only, every service and the S3 server',
    async () => {
      running = await startWith({});
      expect(await Promise.all(running.ports.map((port) => accepts('127.0.0.1', port)))).toEqual(
        running.ports.map(() => true),
      );
      expect(
        await Promise.all(running.ports.map((port) => accepts(outsideAddress!, port))),
      ).toEqual(running.ports.map(() => false));
    },
    120_000,
  );

  withOutsideAddress(
    'STACK_HOST=0.0.0.0: on every interface',
    async () => {
      running = await startWith({ STACK_HOST: '0.0.0.0' });
      expect(
        await Promise.all(running.ports.map((port) => accepts(outsideAddress!, port))),
      ).toEqual(running.ports.map(() => true));
    },
    120_000,
  );

  withOutsideAddress(
    "a service's own *_HOST still wins over STACK_HOST",
    async () => {
      running = await startWith({ STACK_HOST: '0.0.0.0', DASHBOARD_HOST: '127.0.0.1' });
      const [auth, , , dashboard] = running.ports;
      expect(await accepts(outsideAddress!, auth!)).toBe(true);
      expect(await accepts(outsideAddress!, dashboard!)).toBe(false);
    },
    120_000,
  );
});
