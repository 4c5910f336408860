import base from '@cp/eslint-config';

// test/host/consumers: users' apps outside the workspace, built and checked by packages.browser.test.ts.
export default [...base, { ignores: ['test/host/consumers/**'] }];
