import { resolveS3Config, type S3Config } from './s3-config.js';
import { StorageError } from './storage-error.js';

const SECRET = 'pa55-W0rd/very+secret';

const base: S3Config = {
  endpoint: 'http://127.0.0.1:9000',
  accessKey: 'minio',
  secretKey: SECRET,
  bucket: 'components',
};

const configError = (config: S3Config): StorageError => {
  try {
    resolveS3Config(config);
  } catch (error) {
    expect(error).toBeInstanceOf(StorageError);
    expect(error).toMatchObject({ code: 'INVALID_CONFIG', operation: 'configure' });
    expect((error as Error).message).not.toContain(SECRET);
    return error as StorageError;
  }
  throw new Error('expected INVALID_CONFIG');
};

describe('resolveS3Config', () => {
  it('fills in the defaults: public endpoint = endpoint, us-east-1, 2 s timeout', () => {
    expect(resolveS3Config(base)).toEqual({
      endpoint: {
        origin: 'http://127.0.0.1:9000',
        useSSL: false,
        hostname: '127.0.0.1',
        port: 9000,
        hostHeader: '127.0.0.1:9000',
      },
      publicEndpoint: expect.objectContaining({ origin: 'http://127.0.0.1:9000' }),
      accessKey: 'minio',
      secretKey: SECRET,
      bucket: 'components',
      region: 'us-east-1',
      requestTimeoutMs: 2_000,
    });
  });

  it('treats empty optional values (an empty env variable) as unset', () => {
    const resolved = resolveS3Config({ ...base, publicEndpoint: '', region: '' });
    expect(resolved.publicEndpoint.origin).toBe('http://127.0.0.1:9000');
    expect(resolved.region).toBe('us-east-1');
  });

  it('takes scheme default ports, IPv6 literals and a separate public endpoint', () => {
    const resolved = resolveS3Config({
      ...base,
      endpoint: 'http://[::1]:9000/',
      publicEndpoint: 'https://files.example.com',
    });
    expect(resolved.endpoint).toMatchObject({
      hostname: '::1',
      port: 9000,
      hostHeader: '[::1]:9000',
    });
    expect(resolved.publicEndpoint).toEqual({
      origin: 'https://files.example.com',
      useSSL: true,
      hostname: 'files.example.com',
      port: 443,
      hostHeader: 'files.example.com',
    });
  });

  it.each([
    [
      'not a url',
      /S3_ENDPOINT must be a URL such as http:\/\/127\.0\.0\.1:9000 \(got "not a url"\)/,
    ],
    ['ftp://127.0.0.1:9000', /must start with http:\/\/ or https:\/\//],
    ['http://127.0.0.1:9000/bucket', /origin only/],
    ['http://127.0.0.1:9000/?x=1', /origin only/],
  ])('refuses S3_ENDPOINT=%j', (endpoint, message) => {
    expect(configError({ ...base, endpoint }).message).toMatch(message);
  });

  it('refuses credentials in the URL without repeating them', () => {
    const error = configError({
      ...base,
      publicEndpoint: 'http://minio:hunter2@files.example.com',
    });
    expect(error.message).toMatch(/S3_PUBLIC_ENDPOINT must not contain credentials/);
    expect(error.message).not.toContain('hunter2');
    // Not even a URL (the secret has a "/"), and still not repeated.
    const unparsable = configError({ ...base, endpoint: `http://minio:${SECRET}@host` });
    expect(unparsable.message).toBe('S3_ENDPOINT must be a URL such as http://127.0.0.1:9000.');
    expect(unparsable.endpoint).not.toContain(SECRET);
  });

  it.each([
    [{ accessKey: '' }, /S3_ACCESS_KEY is empty/],
    [{ secretKey: '' }, /S3_SECRET_KEY is empty/],
    [{ secretKey: `${SECRET}\n` }, /S3_SECRET_KEY has leading or trailing whitespace/],
    [{ bucket: 'Components' }, /S3_BUCKET "Components" is not a valid bucket name/],
    [{ bucket: 'ab' }, /not a valid bucket name/],
    [{ bucket: 'my_bucket' }, /not a valid bucket name/],
    [{ bucket: '192.168.1.1' }, /not a valid bucket name/],
    [{ region: 'us east' }, /S3_REGION "us east"/],
    [{ requestTimeoutMs: 0 }, /requestTimeoutMs must be a positive integer/],
  ])('refuses %j', (overrides, message) => {
    expect(configError({ ...base, ...overrides }).message).toMatch(message);
  });
});
