import { isIP } from 'node:net';
import { z } from 'zod';

/*
 * Express's `trust proxy` (AUTH_TRUST_PROXY, MCP_TRUST_PROXY, DASHBOARD_TRUST_PROXY):
 * `true`, `false` (the default), a hop count, or a comma-separated list of addresses,
 * subnets (CIDR or IPv4 netmask) and Express's names `loopback`, `linklocal`,
 * `uniquelocal`. Anything else is refused at start, naming the variable, instead of
 * making Express throw when the app is built (or, worse, trusting what was not meant).
 */

const NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isSubnetOrAddress(entry: string): boolean {
  if (NAMES.has(entry)) return true;
  const [address = '', mask, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (mask === undefined) return true;
  if (/^\d{1,3}$/.test(mask)) return Number(mask) <= (family === 4 ? 32 : 128);
  return family === 4 && isIP(mask) === 4;
}

const isTrustProxy = (value: string): boolean =>
  value === 'true' || value === 'false' || /^\d+$/.test(value) || value.split(',').every((entry) => isSubnetOrAddress(entry.trim()));

/** The value as Express takes it: a boolean, a hop count, or the list as written. */
const toExpress = (value: string | undefined): boolean | number | string =>
  value === undefined || value === 'false' ? false : value === 'true' ? true : /^\d+$/.test(value) ? Number(value) : value;

/** Express's `trust proxy` setting: refused at start unless it is one of the forms above. */
export const trustProxy = z
  .string()
  .refine(isTrustProxy, {
    error: 'must be true, false, a hop count, or a comma-separated list of addresses, subnets, loopback, linklocal or uniquelocal',
  })
  .optional()
  .transform(toExpress);
