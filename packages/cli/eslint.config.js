import base from '@cp/eslint-config';

// scripts/build.mjs is a plain Node script outside the TypeScript project the typed rules need.
export default [...base, { ignores: ['scripts/**'] }];
