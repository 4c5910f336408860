import { randomBytes } from 'node:crypto';
import { inspect } from 'node:util';

import { UnavailableError } from '@cp/domain';

import { createObjectStore, StorageError, type S3Config } from '../src/index.js';
import { closedPort, notS3Server, silentServer } from './support/fake-servers.js';
import { startS3Target, type S3Target } from './support/s3-target.js';

let target: S3Target;

beforeAll(async () => {
  target = await startS3Target();
});

afterAll(async () => {
  await target?.close();
});

const SECRET = `secret-${randomBytes(12).toString('hex')}`;

const config = (overrides: Partial<S3Config>): S3Config => ({
  endpoint: 'http://127.0.0.1:1',
  accessKey: 'some-access-key',
  secretKey: SECRET,
  bucket: 'components',
  ...overrides,
});

const rejection = (operation: () => Promise<unknown>): Promise<unknown> =>
  operation().then(
    () => new Error('expected a rejection'),
    (reason: unknown) => reason,
  );

const failure = async (operation: () => Promise<unknown>): Promise<StorageError> => {
  const error = await rejection(operation);
  expect(error).toBeInstanceOf(StorageError);
  return error as StorageError;
};

/** No answer is the domain's UnavailableError (edges answer "retry"); the StorageError with the details is its cause. */
const unavailable = async (operation: () => Promise<unknown>): Promise<StorageError> => {
  const error = await rejection(operation);
  expect(error).toBeInstanceOf(UnavailableError);
  expect(error).toMatchObject({ dependency: 'object store' });
  const { cause } = error as UnavailableError;
  expect(cause).toBeInstanceOf(StorageError);
  // What users read says to retry; the endpoint and what to check stay in the cause, for the log.
  expect((error as Error).message).toBe('The object store is unavailable right now, so nothing was read or changed. Retry in 5 seconds.');
  return cause as StorageError;
};

/** Neither the message nor anything reachable from the error (cause included) shows a secret. */
const expectNoSecret = (error: StorageError, ...secrets: string[]) => {
  const everything = `${error.message}\n${inspect(error, { depth: Infinity })}`;
  for (const secret of secrets) expect(everything).not.toContain(secret);
};

describe('an endpoint where nothing listens', () => {
  it('gives UnavailableError (cause UNREACHABLE), naming the endpoint and S3_ENDPOINT, for every operation', async () => {
    const endpoint = `http://127.0.0.1:${await closedPort()}`;
    const store = createObjectStore(config({ endpoint }));

    for (const operation of [
      () => store.ensureBucket(),
      () => store.stat('k'),
      () => store.read('k'),
      () => store.copy('k', 'l'),
      () => store.remove('k'),
    ]) {
      const error = await unavailable(operation);
      expect(error).toMatchObject({ code: 'UNREACHABLE', endpoint, reason: 'ECONNREFUSED' });
      expect(error.message).toContain(`Is the S3 server running at ${endpoint}?`);
      expect(error.message).toContain('S3_ENDPOINT');
      expectNoSecret(error, SECRET);
    }
  });

  it('gives UNREACHABLE for a host name that does not resolve', async () => {
    const store = createObjectStore(config({ endpoint: 'http://s3.does-not-exist.invalid:9000' }));

    const error = await unavailable(() => store.stat('k'));

    expect(error.code).toBe('UNREACHABLE');
    expect(error.message).toContain('http://s3.does-not-exist.invalid:9000');
  });

  it('gives UNREACHABLE after requestTimeoutMs when the server accepts but never answers', async () => {
    const server = await silentServer();
    try {
      const store = createObjectStore(config({ endpoint: server.endpoint, requestTimeoutMs: 300 }));
      const started = Date.now();

      const error = await unavailable(() => store.stat('k'));

      expect(error).toMatchObject({ code: 'UNREACHABLE', reason: 'ETIMEDOUT' });
      expect(error.message).toContain(server.endpoint);
      expect(Date.now() - started).toBeLessThan(3_000);
    } finally {
      await server.close();
    }
  });

  it('gives UNEXPECTED, saying S3_ENDPOINT may not be an S3 server, for a plain web server', async () => {
    const server = await notS3Server();
    try {
      const store = createObjectStore(config({ endpoint: server.endpoint }));

      const error = await failure(() => store.read('k'));

      expect(error.code).toBe('UNEXPECTED');
      expect(error.message).toContain(
        `The S3 server at ${server.endpoint} answered with something`,
      );
      expect(error.message).toContain('S3_ENDPOINT points at an S3-compatible server');
    } finally {
      await server.close();
    }
  });
});

describe('wrong credentials', () => {
  // (A test server may use the same string as access key and secret, e.g. S3RVER/S3RVER.)
  const realSecret = () =>
    target.config.secretKey === target.config.accessKey ? [] : [target.config.secretKey];

  it('a wrong secret gives BAD_CREDENTIALS naming the endpoint and the variables to check', async () => {
    const store = createObjectStore({ ...target.config, secretKey: SECRET });

    for (const operation of [
      () => store.ensureBucket(),
      () => store.stat('k'),
      () => store.read('k'),
      () => store.remove('k'),
    ]) {
      const error = await failure(operation);
      expect(error.code).toBe('BAD_CREDENTIALS');
      expect(error.message).toContain(new URL(target.config.endpoint).origin);
      expect(error.message).toContain('S3_ACCESS_KEY');
      expect(error.message).toContain('S3_SECRET_KEY');
      expectNoSecret(error, SECRET, ...realSecret());
    }
  });

  it('an unknown access key gives BAD_CREDENTIALS', async () => {
    const store = createObjectStore({ ...target.config, accessKey: 'nobody-knows-me' });

    const error = await failure(() => store.ensureBucket());

    expect(error.code).toBe('BAD_CREDENTIALS');
    expect(error.message).toContain('"nobody-knows-me"');
    expectNoSecret(error, ...realSecret());
  });
});
