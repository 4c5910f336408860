import preset from '@cp/jest-preset';

export default {
  ...preset,
  // dist/cpc.js built once, and one Chromium for all the browser test files of the run (each opens its own contexts).
  globalSetup: '<rootDir>/test/support/global-setup.js',
  globalTeardown: '@cp/browser-testing/jest-global-teardown',
};
