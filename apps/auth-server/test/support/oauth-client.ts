/* eslint-disable @typescript-eslint/no-explicit-any -- OAuth responses are JSON, checked by assertions */
import { createHash, randomBytes } from 'node:crypto';

/** A public client's side of the flow, done by hand so tests can break each step. */
export interface RegisteredClient {
  readonly client_id: string;
  readonly redirect_uris: string[];
  readonly [key: string]: unknown;
}

export async function register(issuer: string, body: Record<string, unknown>): Promise<{ status: number; json: any }> {
  const res = await fetch(`${issuer}/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, json: await res.json() };
}

export async function aPublicClient(issuer: string, overrides: Record<string, unknown> = {}): Promise<RegisteredClient> {
  const { status, json } = await register(issuer, {
    client_name: 'Test client',
    redirect_uris: ['http://localhost:33418/callback'],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
    ...overrides,
  });
  if (status !== 201) throw new Error(`registration failed: ${JSON.stringify(json)}`);
  return json as RegisteredClient;
}

export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export function authorizeUrl(issuer: string, params: Record<string, string | undefined>): string {
  const url = new URL(`${issuer}/authorize`);
  for (const [name, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(name, value);
  return url.href;
}

export async function tokenRequest(issuer: string, params: Record<string, string>): Promise<{ status: number; json: any }> {
  const res = await fetch(`${issuer}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(params).toString(),
  });
  return { status: res.status, json: await res.json() };
}

/** The JWT's header and payload, unverified (tests verify signatures with jose where it matters). */
export function decodeJwt(token: string): { header: any; payload: any } {
  const [header = '', payload = ''] = token.split('.');
  return { header: JSON.parse(Buffer.from(header, 'base64url').toString()), payload: JSON.parse(Buffer.from(payload, 'base64url').toString()) };
}
