import preset from '@cp/jest-preset';

export default {
  ...preset,
  // The preset's `source` export condition also matches third-party packages that
  // publish their TypeScript sources under it (eventsource-parser, used by the MCP
  // SDK client): let swc transform those instead of skipping node_modules.
  transformIgnorePatterns: ['^(?!.*/eventsource-parser/).*/node_modules/'],
};
