import preset from '@cp/jest-preset';

export default {
  ...preset,
  // One Chromium for the run's browser test files (the MCP Apps views, test/apps/).
  globalSetup: '@cp/browser-testing/jest-global-setup',
  globalTeardown: '@cp/browser-testing/jest-global-teardown',
};
