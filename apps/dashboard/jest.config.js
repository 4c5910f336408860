import preset from '@cp/jest-preset';

// Every HTTP test file starts a database, an S3 server and the auth server, and signs people in:
// seconds on a busy 2-core machine, so jest's default 5 s per test is too tight.
export default { ...preset, testTimeout: 30_000 };
