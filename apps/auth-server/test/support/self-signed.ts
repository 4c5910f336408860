import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

/**
 * A self-signed P-256 certificate for a test TLS server, made by the `openssl` command
 * (valid one day). `subjectAltName` as openssl writes it, e.g. `IP:127.0.0.1,DNS:localhost`.
 * The certificate is its own CA: a client trusts it by passing `cert` as `ca`.
 */
export async function selfSignedCertificate(
  commonName: string,
  subjectAltName: string,
): Promise<{ key: Buffer; cert: Buffer }> {
  const dir = await mkdtemp(join(tmpdir(), 'self-signed-'));
  try {
    await promisify(execFile)('openssl', [
      ...[
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:P-256',
        '-nodes',
        '-days',
        '1',
      ],
      ...[
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
        '-subj',
        `/CN=${commonName}`,
        '-addext',
        `subjectAltName=${subjectAltName}`,
      ],
    ]);
    const [key, cert] = await Promise.all([
      readFile(join(dir, 'key.pem')),
      readFile(join(dir, 'cert.pem')),
    ]);
    return { key, cert };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
