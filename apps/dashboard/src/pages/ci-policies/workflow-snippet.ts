import { CiProvider } from '@cp/domain';

export interface SnippetSettings {
  /** The auth server's issuer: the audience a CI's OIDC token must carry. */
  readonly issuer: string;
  /** The MCP server's URL, for `CPC_SERVER`. */
  readonly mcpUrl: string;
  /** The environment the example publishes to. */
  readonly environment: string;
}

/**
 * The workflow file a CI trust policy is made for, ready to paste: GitHub Actions asks for an OIDC
 * token through `id-token: write` (cpc requests it with our issuer as audience), GitLab issues it
 * through `id_tokens` with the audience written in the file. `npx @component-platform/cli` runs the
 * package's one binary, cpc, without installing it (a bare `npx cpc` would fetch another package).
 */
export function workflowSnippet(provider: CiProvider, s: SnippetSettings): string {
  if (provider === CiProvider.GitLab)
    return `release:
  image: node:22
  id_tokens:
    CPC_ID_TOKEN:
      aud: ${s.issuer}
  variables:
    CPC_SERVER: ${s.mcpUrl}
  rules:
    - if: $CI_COMMIT_TAG
  script:
    - npm ci && npm run build
    - npx @component-platform/cli push dist --publish --env ${s.environment}
`;
  return `# .github/workflows/release.yml
name: release
on:
  push:
    tags: ['v*']
permissions:
  id-token: write
  contents: read
jobs:
  release:
    runs-on: ubuntu-latest
    env:
      CPC_SERVER: ${s.mcpUrl}
    steps:
      - uses: actions/checkout@v4
      - run: npm ci && npm run build
      - run: npx @component-platform/cli push dist --publish --env ${s.environment}
`;
}
