import preset from '@cp/jest-preset';

export default {
  ...preset,
  // One Chromium for all the browser test files of the run (each opens its own contexts).
  globalSetup: '@cp/browser-testing/jest-global-setup',
  globalTeardown: '@cp/browser-testing/jest-global-teardown',
};
