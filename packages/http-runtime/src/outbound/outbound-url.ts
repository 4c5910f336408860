import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { addressRange, describeRange, plainAddress } from './address-policy.js';

/** How a server may reach a URL someone else gave it (webhook endpoints, client metadata documents). */
export interface OutboundRule {
  /**
   * Development only (production refuses the setting at start): loopback receivers are allowed,
   * over http too, so a receiver on the same machine can be tried. Every other private range
   * stays refused.
   */
  readonly allowLoopback: boolean;
  /** Default: the system resolver (`dns.lookup`, every address). Tests inject names. */
  readonly resolve?: (host: string) => Promise<string[]>;
}

export interface ResolvedAddress {
  readonly address: string;
  readonly family: 4 | 6;
}

export type OutboundCheck =
  | { readonly ok: true; readonly url: URL; readonly addresses: readonly ResolvedAddress[] }
  | { readonly ok: false; readonly reason: string };

const systemResolve = async (host: string): Promise<string[]> =>
  (await dnsLookup(host, { all: true, verbatim: true })).map((entry) => entry.address);

/**
 * Checks a URL against the rule: https (http only for an allowed loopback), and a host whose
 * every address is public. Returns the addresses it checked: connect to those (pinnedLookup),
 * never resolve again, so a name that changes its answer (DNS rebinding) cannot reach another.
 * Reasons are lower-case sentence ends, shown to the person who gave the URL.
 */
export async function checkOutboundUrl(raw: string, rule: OutboundRule): Promise<OutboundCheck> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'this is not a URL.' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return { ok: false, reason: 'the URL must start with https://.' };
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = await (rule.resolve ?? systemResolve)(host);
    } catch (error) {
      const code = (error as { code?: string }).code ?? 'no answer';
      return { ok: false, reason: `its host ${host} does not resolve (${code}): check the name.` };
    }
    if (addresses.length === 0)
      return { ok: false, reason: `its host ${host} does not resolve: check the name.` };
  }
  const loopbackAllowed = (address: string) =>
    rule.allowLoopback && addressRange(address) === 'loopback';
  for (const address of addresses) {
    const range = addressRange(address);
    if (range !== 'unicast' && !loopbackAllowed(address)) {
      return {
        ok: false,
        reason: `its host resolves to ${plainAddress(address)}, ${describeRange(range)}: events are sent only to public addresses.`,
      };
    }
  }
  if (url.protocol === 'http:' && !addresses.every(loopbackAllowed)) {
    return {
      ok: false,
      reason: rule.allowLoopback
        ? 'the URL must use https:// (plain http is allowed only for loopback receivers in development).'
        : 'the URL must use https://.',
    };
  }
  return {
    ok: true,
    url,
    addresses: addresses.map((address) => ({ address, family: isIP(address) === 6 ? 6 : 4 })),
  };
}
