import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';

import { DEFAULT_REGION } from '../src/index.js';
import { plannedS3Target, startS3Target, type S3Target } from './support/s3-target.js';

/*
 * Where the embedded server (@20minutes/s3rver) and a real S3 engine (the Ceph RADOS
 * Gateway of scripts/rgw.sh, or any S3_ENDPOINT) behave differently. Each test asserts
 * what the engine it runs on does, so the suite passes on both and shows the difference
 * (README, "The embedded server and a real engine").
 */

const planned = plannedS3Target();
const embedded = planned.kind === 'embedded';
if (planned.sizeLimit === 'unknown') {
  console.log(
    'engine-differences: the size-limit tests are skipped: S3_ENDPOINT is set without ' +
      "S3_MAX_PUT_BYTES, that server's largest accepted PUT (scripts/rgw.sh sets both).",
  );
}

let target: S3Target;

beforeAll(async () => {
  target = await startS3Target();
});

afterAll(async () => {
  await target?.close();
});

const presignedPut = async (key: string, body: Uint8Array) => {
  const url = await target.store.presignPut(key, {
    expiresInSeconds: 60,
    contentType: 'text/html',
  });
  const response = await fetch(url, {
    method: 'PUT',
    headers: { 'content-type': 'text/html' },
    body,
  });
  const text = await response.text();
  return { status: response.status, code: /<Code>([^<]+)<\/Code>/.exec(text)?.[1] };
};

describe('the size of a presigned PUT', () => {
  // Both refuse a body over their limit: the embedded server at MAX_UPLOAD_BYTES
  // (size-limit.ts), a real engine at its own (`rgw max put size` = MAX_UPLOAD_BYTES).
  const whenLimitKnown = planned.sizeLimit === 'unknown' ? it.skip : it;
  const limit = typeof planned.sizeLimit === 'number' ? planned.sizeLimit : 0;
  const shown = planned.sizeLimit === 'unknown' ? 'the unknown limit' : `${limit} bytes`;

  whenLimitKnown(
    `one byte over the server's limit, ${shown}, is refused: 400 EntityTooLarge, nothing stored`,
    async () => {
      const key = target.newKey();

      expect(await presignedPut(key, new Uint8Array(limit + 1))).toEqual({
        status: 400,
        code: 'EntityTooLarge',
      });
      expect(await target.store.stat(key)).toBeNull();
    },
  );

  whenLimitKnown(`of exactly ${shown} is stored`, async () => {
    const key = target.newKey();

    expect(await presignedPut(key, new Uint8Array(limit))).toMatchObject({ status: 200 });
    expect(await target.store.stat(key)).toEqual({ size: limit });
  });
});

describe('a key with a segment longer than 255 bytes', () => {
  // s3rver keeps each object in a file named after the key's last segment, and file names
  // stop at 255 bytes. S3 takes any key up to 1024 bytes. Our own keys (uploads/<id>/index.html,
  // components/<id>/variants/<id>/index.html) have short segments.
  it(
    embedded
      ? 'fails on the embedded server: 500 InternalError'
      : 'is stored, as S3 stores any key up to 1024 bytes',
    async () => {
      const key = target.newKey('a'.repeat(300));
      const body = new TextEncoder().encode('<p>long</p>');

      const answer = await presignedPut(key, body);

      if (embedded) {
        expect(answer).toEqual({ status: 500, code: 'InternalError' });
      } else {
        expect(answer.status).toBe(200);
        expect(await target.store.stat(key)).toEqual({ size: body.length });
      }
    },
  );
});

describe('a header-signed PUT whose body differs from the payload hash it signed', () => {
  // The minio client signs the real hash, so the body differs only if it was altered on
  // the way. curl signs the request here, with the hash of another body.
  it(
    embedded
      ? 'is stored by the embedded server (it does not check the hash)'
      : 'is refused: 400 XAmzContentSHA256Mismatch, nothing stored',
    async () => {
      const key = target.newKey();
      const { accessKey, secretKey, endpoint, bucket, region } = target.config;
      const signedHash = createHash('sha256').update('<p>signed</p>').digest('hex');
      const altered = '<p>altered</p>';

      const { stdout } = await promisify(execFile)('curl', [
        '-sS',
        '-X',
        'PUT',
        '--aws-sigv4',
        `aws:amz:${region || DEFAULT_REGION}:s3`,
        '--user',
        `${accessKey}:${secretKey}`,
        '-H',
        `x-amz-content-sha256: ${signedHash}`,
        '--data-binary',
        altered,
        '-w',
        '\n%{http_code}',
        `${endpoint}/${bucket}/${key}`,
      ]);

      const status = stdout.split('\n').at(-1);
      if (embedded) {
        expect(status).toBe('200');
        expect(await target.store.stat(key)).toEqual({ size: Buffer.byteLength(altered) });
      } else {
        expect(status).toBe('400');
        expect(stdout).toContain('<Code>XAmzContentSHA256Mismatch</Code>');
        expect(await target.store.stat(key)).toBeNull();
      }
    },
  );
});
