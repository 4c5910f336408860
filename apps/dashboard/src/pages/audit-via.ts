import type { CredentialVia } from '@cp/domain';

/** The workflow's file name: `acme/web/.github/workflows/release.yml@refs/heads/main` reads `release.yml`. */
const workflowFile = (workflow: string): string => workflow.split('@')[0]!.split('/').at(-1) ?? workflow;

/**
 * How a change was made when not in a browser or by an assistant: "via CI: acme/web, release.yml, run
 * 8812, commit 9fceb02" or "via API token 'nightly'". Null for the others.
 */
export function viaLabel(via: CredentialVia | null | undefined): string | null {
  if (via === null || via === undefined) return null;
  if (via.via === 'api-token') return `via API token '${via.tokenName}'`;
  return `via CI: ${via.repository}, ${workflowFile(via.workflow)}, run ${via.runId}, commit ${via.commit.slice(0, 7)}`;
}
