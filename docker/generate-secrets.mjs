#!/usr/bin/env node
// Prints fresh secrets for docker/.env, one `NAME=value` line each:
//
//   node docker/generate-secrets.mjs >> docker/.env     # then delete the REPLACE-ME lines
//
// AUTH_SIGNING_KEYS: a JWK Set with one private ES256 key whose kid is its RFC 7638
// thumbprint (as the auth server generates in development). To rotate, append a new key
// to the existing set; see apps/auth-server/README.md, "Signing keys and rotation".
// Passwords are hex, so they can go into a URL (DATABASE_URL, REDIS_URL) unescaped.
import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto';

const hex = (bytes) => randomBytes(bytes).toString('hex');

const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const jwk = privateKey.export({ format: 'jwk' });
// RFC 7638: sha256 over the required members in lexicographic order, base64url.
const kid = createHash('sha256')
  .update(JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y }))
  .digest('base64url');
const signingKeys = JSON.stringify({ keys: [{ ...jwk, kid, alg: 'ES256', use: 'sig' }] });

const lines = [
  `AUTH_SIGNING_KEYS='${signingKeys}'`,
  `AUTH_COOKIE_KEYS=${hex(32)}`,
  `POSTGRES_PASSWORD=${hex(24)}`,
  `MINIO_ROOT_PASSWORD=${hex(24)}`,
  `S3_ACCESS_KEY=cp-app-${hex(4)}`,
  `S3_SECRET_KEY=${hex(24)}`,
  `REDIS_PASSWORD=${hex(24)}`,
  `DASHBOARD_CLIENT_SECRET=${hex(32)}`,
  `DASHBOARD_SESSION_KEYS=${hex(32)}`,
];
process.stdout.write(`${lines.join('\n')}\n`);
