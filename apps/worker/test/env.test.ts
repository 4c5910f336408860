import { EnvError } from '@cp/http-runtime';
import { parseEnv } from '../src/env.js';

const problemsOf = (env: Record<string, string>): string => {
  try {
    parseEnv(env);
  } catch (error) {
    if (error instanceof EnvError) return error.message;
    throw error;
  }
  return '';
};

test('no setting: development defaults', () => {
  expect(parseEnv({})).toMatchObject({
    port: 4500,
    pollingIntervalSeconds: 2,
    webhooksAllowLoopback: false,
    databaseUrl: null,
  });
});

test('production needs DATABASE_URL and S3_ENDPOINT and refuses the development-only WEBHOOKS_ALLOW_LOOPBACK, naming each', () => {
  expect(problemsOf({ NODE_ENV: 'production', WEBHOOKS_ALLOW_LOOPBACK: 'true' })).toBe(
    [
      'Invalid configuration:',
      '  WEBHOOKS_ALLOW_LOOPBACK: development only (loopback webhook receivers); unset it in production',
      '  DATABASE_URL: required in production',
      '  S3_ENDPOINT: required in production (the static export reads and writes objects)',
    ].join('\n'),
  );
});

test('a polling interval below what pg-boss accepts is refused', () => {
  expect(problemsOf({ WORKER_POLL_SECONDS: '0.1' })).toContain('WORKER_POLL_SECONDS');
});

test('usage analytics retention: defaults, and values out of range refused, each named', () => {
  expect(parseEnv({}).usageRetention).toEqual({ rawDays: 7, minuteHours: 48, hourMonths: 13 });
  expect(parseEnv({ USAGE_RAW_RETENTION_DAYS: '30', USAGE_MINUTE_RETENTION_HOURS: '72', USAGE_HOUR_RETENTION_MONTHS: '25' }).usageRetention).toEqual({
    rawDays: 30,
    minuteHours: 72,
    hourMonths: 25,
  });
  const problems = problemsOf({ USAGE_RAW_RETENTION_DAYS: '0', USAGE_MINUTE_RETENTION_HOURS: '2', USAGE_HOUR_RETENTION_MONTHS: 'a year' });
  for (const name of ['USAGE_RAW_RETENTION_DAYS', 'USAGE_MINUTE_RETENTION_HOURS', 'USAGE_HOUR_RETENTION_MONTHS']) expect(problems).toContain(name);
});
