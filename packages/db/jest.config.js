import preset from '@cp/jest-preset';

// The first test database of a run builds a migrated snapshot/template (seconds).
export default { ...preset, testTimeout: 30_000 };
