import { connect, createServer, type Server, type Socket } from 'node:net';
import { startFaultProxy, type FaultProxy } from '../src/testing/index.js';

// The fault proxy that the outage tests rely on, against a real TCP echo server.

let echo: Server;
let proxy: FaultProxy;

beforeAll(async () => {
  echo = createServer((socket) => socket.on('error', () => {}).pipe(socket));
  await new Promise<void>((done) => echo.listen(0, '127.0.0.1', done));
  const address = echo.address();
  proxy = await startFaultProxy({ host: '127.0.0.1', port: typeof address === 'object' && address ? address.port : 0 });
});
afterAll(async () => {
  await proxy.close();
  await new Promise((done) => echo.close(done));
});

const open = (): Promise<Socket> =>
  new Promise((done, fail) => {
    const socket = connect(proxy.port, '127.0.0.1', () => done(socket));
    socket.once('error', fail);
  });
const nextData = (socket: Socket, ms: number): Promise<string | null> =>
  new Promise((done) => {
    const timer = setTimeout(() => done(null), ms);
    socket.once('data', (chunk) => {
      clearTimeout(timer);
      done(chunk.toString());
    });
  });
const closed = (socket: Socket): Promise<void> => new Promise((done) => (socket.destroyed ? done() : socket.once('close', () => done())));

it('forwards, hangs both established and new connections, then resets them on restore and forwards new ones', async () => {
  const before = await open();
  before.write('one');
  expect(await nextData(before, 2000)).toBe('one');

  proxy.hang();
  before.write('two');
  const during = await open();
  during.write('three');
  expect(await nextData(before, 200)).toBeNull();
  expect(await nextData(during, 200)).toBeNull();

  for (const socket of [before, during]) socket.on('error', () => {});
  await proxy.restore();
  await Promise.all([closed(before), closed(during)]);
  const after = await open();
  after.write('four');
  expect(await nextData(after, 2000)).toBe('four');
  after.destroy();
});

it('refuses new connections and resets established ones, then listens again on the same port', async () => {
  const established = await open();
  established.on('error', () => {});
  await proxy.refuse();
  await closed(established);
  await expect(open()).rejects.toMatchObject({ code: 'ECONNREFUSED' });

  await proxy.restore();
  const again = await open();
  again.write('back');
  expect(await nextData(again, 2000)).toBe('back');
  again.destroy();
});

it('reset drops the connections open now and keeps accepting new ones', async () => {
  const established = await open();
  established.on('error', () => {});
  proxy.reset();
  await closed(established);
  const fresh = await open();
  fresh.write('fresh');
  expect(await nextData(fresh, 2000)).toBe('fresh');
  fresh.destroy();
});
