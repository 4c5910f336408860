import type { IncomingMessage } from 'node:http';
import proxyaddr from 'proxy-addr';

/**
 * The client's address as Express derives `req.ip` for the other services (the same
 * `trust proxy` forms, the same library): the socket's peer, or, when that peer is
 * trusted, the nearest untrusted address in `X-Forwarded-For`.
 */
export function clientAddressOf(trustProxy: boolean | number | string): (req: IncomingMessage) => string {
  const trust = compileTrust(trustProxy);
  return (req) => (req.socket.remoteAddress === undefined ? 'unknown' : proxyaddr(req, trust));
}

/** Express's `compileTrust` (express/lib/utils.js), for the values settings.ts accepts. */
function compileTrust(value: boolean | number | string): (address: string, hop: number) => boolean {
  if (value === true) return () => true;
  if (typeof value === 'number') return (_address, hop) => hop < value;
  if (value === false) return proxyaddr.compile([]);
  return proxyaddr.compile(value.split(',').map((entry) => entry.trim()));
}
