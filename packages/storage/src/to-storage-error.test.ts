import { StorageError } from './storage-error.js';
import { toStorageError } from './to-storage-error.js';

const context = {
  operation: 'stat' as const,
  endpoint: 'https://s3.example.com',
  bucket: 'components',
  accessKey: 'AKIA',
  key: 'a/b',
};

const withCode = (code: string) => Object.assign(new Error(`failure ${code}`), { code });

describe('toStorageError', () => {
  it.each([
    ['ECONNREFUSED', 'UNREACHABLE'],
    ['ECONNRESET', 'UNREACHABLE'],
    ['ENOTFOUND', 'UNREACHABLE'],
    ['ETIMEDOUT', 'UNREACHABLE'],
    ['InvalidAccessKeyId', 'BAD_CREDENTIALS'],
    ['SignatureDoesNotMatch', 'BAD_CREDENTIALS'],
    ['AccessDenied', 'BAD_CREDENTIALS'],
    ['NoSuchBucket', 'BUCKET_MISSING'],
    ['NoSuchKey', 'NOT_FOUND'],
    ['InternalError', 'UNEXPECTED'],
  ])('maps %s to %s, keeping the original as cause', (code, expected) => {
    const original = withCode(code);
    const error = toStorageError(original, context);

    expect(error).toMatchObject({ code: expected, reason: code, endpoint: context.endpoint });
    expect(error.cause).toBe(original);
    expect(error.message).toContain(context.endpoint);
  });

  it('suggests the other scheme when TLS fails', () => {
    const error = toStorageError(withCode('ERR_SSL_WRONG_VERSION_NUMBER'), context);
    expect(error.code).toBe('UNREACHABLE');
    expect(error.message).toContain('check whether the server speaks http instead');
  });

  it('points at S3_REGION when the server says the region is wrong', () => {
    const error = toStorageError(withCode('AuthorizationHeaderMalformed'), context);
    expect(error.code).toBe('BAD_CREDENTIALS');
    expect(error.message).toContain("Check that S3_REGION matches the server's region.");
  });

  it('passes a StorageError through unchanged', () => {
    const original = toStorageError(withCode('NoSuchKey'), context);
    expect(toStorageError(original, { ...context, operation: 'read' })).toBe(original);
    expect(original).toBeInstanceOf(StorageError);
  });
});
