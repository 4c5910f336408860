import { Writable } from 'node:stream';
import { createLogger } from '../src/index.js';

/* src/log.ts: one redaction list and scrubbed errors, for every service. */

const capture = () => {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line !== '') lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { log: createLogger({ service: 'demo', level: 'info', destination }), lines };
};

test('every line carries the service name and an ISO time', () => {
  const { log, lines } = capture();
  log.info('hello');
  expect(lines[0]).toMatchObject({ name: 'demo', level: 30, msg: 'hello', time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
});

test('secrets a caller logs by mistake are redacted', () => {
  const { log, lines } = capture();
  log.info({
    req: { headers: { authorization: 'Bearer abc', cookie: 'sid=1' } },
    headers: { authorization: 'Bearer abc', cookie: 'sid=1' },
    token: 'tok',
    body: { password: 'pw', code: 'auth-code', code_verifier: 'v', client_secret: 's', access_token: 'a', refresh_token: 'r', id_token: 'i' },
  });
  const text = JSON.stringify(lines[0]);
  for (const secret of ['Bearer abc', 'sid=1', '"tok"', '"pw"', 'auth-code', '"v"', '"s"', '"a"', '"r"', '"i"']) expect(text).not.toContain(secret);
  expect(lines[0]).toMatchObject({ token: '[redacted]', body: { password: '[redacted]', code: '[redacted]' } });
});

test('errors: tokens and presigned signatures scrubbed from message and stack; the error code kept', () => {
  const { log, lines } = capture();
  const jwt = 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ1c2VyIn0.c2lnbmF0dXJl';
  const error = Object.assign(new Error(`PUT https://s3/x?X-Amz-Signature=deadbeef&a=1 failed; sent Bearer ${jwt}`), { code: 'ECONNRESET' });
  log.error({ err: error }, 'failed');
  log.error({ error: 'plain text with Bearer abc.def' }, 'failed');
  const text = JSON.stringify(lines);
  for (const secret of ['deadbeef', jwt, 'abc.def']) expect(text).not.toContain(secret);
  expect(lines[0]).toMatchObject({ err: { type: 'Error', code: 'ECONNRESET', message: expect.stringContaining('X-Amz-Signature=[redacted]') } });
  expect(lines[1]).toMatchObject({ error: { message: 'plain text with Bearer [redacted]' } });
});
