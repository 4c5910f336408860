import { presignSignatureV4 } from 'minio/dist/esm/signing.mjs';

import { encodeKeyPath } from './object-key.js';
import { amzDate, presignV4 } from './presign-v4.js';

const AWS_EXAMPLE = {
  accessKey: 'AKIAIOSFODNN7EXAMPLE',
  secretKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  region: 'us-east-1',
  date: new Date('2013-05-24T00:00:00Z'),
};

describe('presignV4', () => {
  it("reproduces AWS's published presigned URL example", () => {
    // https://docs.aws.amazon.com/AmazonS3/latest/API/sigv4-query-string-auth.html
    const url = presignV4({
      ...AWS_EXAMPLE,
      method: 'GET',
      origin: 'https://examplebucket.s3.amazonaws.com',
      hostHeader: 'examplebucket.s3.amazonaws.com',
      path: '/test.txt',
      expiresInSeconds: 86400,
    });

    expect(url).toBe(
      'https://examplebucket.s3.amazonaws.com/test.txt?X-Amz-Algorithm=AWS4-HMAC-SHA256' +
        '&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2Faws4_request' +
        '&X-Amz-Date=20130524T000000Z&X-Amz-Expires=86400&X-Amz-SignedHeaders=host' +
        '&X-Amz-Signature=aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404',
    );
  });

  it.each([
    'plain/index.html',
    "it's (odd) & spaced=yes+no,!*~.html",
    'ünïcödé/✓.html',
    'a%2Fb?c#d',
  ])("signs exactly as minio's own signer when only Host is signed (key %j)", (key) => {
    const path = `/bucket/${encodeKeyPath(key)}`;
    const common = { ...AWS_EXAMPLE, date: new Date('2025-01-02T03:04:05.678Z') };

    const ours = presignV4({
      ...common,
      method: 'PUT',
      origin: 'http://127.0.0.1:9000',
      hostHeader: '127.0.0.1:9000',
      path,
      expiresInSeconds: 3600,
    });
    const minios = presignSignatureV4(
      { protocol: 'http:', method: 'PUT', path, headers: { host: '127.0.0.1:9000' } },
      common.accessKey,
      common.secretKey,
      undefined,
      common.region,
      common.date,
      3600,
    );

    expect(ours).toBe(minios);
  });

  it('adds Content-Type to the signed headers, so the signature depends on it', () => {
    const request = {
      ...AWS_EXAMPLE,
      method: 'PUT',
      origin: 'http://localhost:9000',
      hostHeader: 'localhost:9000',
      path: '/b/k',
      expiresInSeconds: 60,
    };
    const html = presignV4({ ...request, signedHeaders: { 'Content-Type': 'text/html' } });
    const plain = presignV4({ ...request, signedHeaders: { 'content-type': 'text/plain' } });
    const hostOnly = presignV4(request);

    expect(html).toContain('X-Amz-SignedHeaders=content-type%3Bhost');
    const signature = (url: string) => new URL(url).searchParams.get('X-Amz-Signature');
    expect(new Set([signature(html), signature(plain), signature(hostOnly)]).size).toBe(3);
  });

  it('formats X-Amz-Date in whole seconds, UTC', () => {
    expect(amzDate(new Date('2025-12-31T23:59:59.999Z'))).toBe('20251231T235959Z');
  });
});
