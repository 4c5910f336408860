import preset from '@cp/jest-preset';

// Each test file opens its own database and S3 server (a few seconds on PGlite).
export default { ...preset, testTimeout: 30_000 };
