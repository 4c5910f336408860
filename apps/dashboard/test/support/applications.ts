import type { User } from '@cp/domain';
import { authorizeCode } from '../../../auth-server/test/support/flow.js';
import { FormBrowser } from '../../../auth-server/test/support/form-browser.js';
import { aPublicClient } from '../../../auth-server/test/support/oauth-client.js';
import type { DashboardStack } from './dashboard-server.js';

/** An MCP client the user authorized on the auth server (sign-in and consent): its grant id, as /applications lists it. */
export async function aConnectedApplication(stack: DashboardStack, user: User, clientName = 'Assistant under test'): Promise<string> {
  const client = await aPublicClient(stack.auth.issuer, { client_name: clientName });
  await authorizeCode(new FormBrowser(), stack.auth, client, user);
  const grant = (await stack.auth.oidc.listGrants(user.id)).find((g) => g.clientId === client.client_id);
  if (grant === undefined) throw new Error(`no grant for ${clientName} after consent`);
  return grant.grantId;
}
