import { createServer } from 'node:net';

// Below Linux's default ephemeral range (32768–60999): a port probed there can be
// handed to any outgoing connection of a process running beside the tests before
// the service that was meant to get it listens.
const LOWEST = 20_000;
const SPAN = 12_000;

const given = new Set<number>();

const bindable = (port: number): Promise<boolean> =>
  new Promise((done) => {
    const server = createServer();
    server.once('error', () => done(false));
    server.listen(port, '127.0.0.1', () => server.close(() => done(true)));
  });

/** A loopback port nobody listens on and not given before in this process, for a service that must know its port before it starts. */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = LOWEST + Math.floor(Math.random() * SPAN);
    if (given.has(port)) continue;
    given.add(port); // before the probe: concurrent calls never return one port twice
    if (await bindable(port)) return port;
    given.delete(port);
  }
  throw new Error(`no free loopback port between ${LOWEST} and ${LOWEST + SPAN}`);
}
