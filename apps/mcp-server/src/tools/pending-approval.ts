import { approverList, type ReleaseRequest, type RequestedRelease } from '@cp/domain';
import { z } from 'zod';
import { isoTime } from './define.js';

/** The release request a protected environment answers a member's change with. */
export const releaseRequestShape = z.object({
  id: z.string(),
  state: z.literal('pending'),
  requestedAt: z.string(),
  approvers: z
    .array(z.string())
    .describe('Emails of up to five owners and admins who can approve it.'),
});

/** What approving the request does, in words. */
function planOf(request: ReleaseRequest): string {
  const version = `version ${request.variantSequence}`;
  if (request.plan.kind === 'experience')
    return `publishing the experience (on the release, ${version})`;
  if (request.plan.kind === 'rollout') return `a rollout of ${version}`;
  return `releasing ${version}`;
}

/**
 * A member's change in a protected environment: the request, and whom the user can ask. `what`
 * names the change asked for ("version 3", "a rollout of version 7").
 */
export function pendingApproval({ request, created, approvers }: RequestedRelease, what: string) {
  const who = approverList(approvers);
  const asked = created
    ? `"${request.environmentName}" is protected, so a release request was made for ${what}; nothing changes until it is approved.`
    : `A release request for "${request.environmentName}" (${planOf(request)}) is already pending; nothing changed: one is pending at a time, so it must be approved or declined first.`;
  return {
    message:
      `${asked} An owner or admin${who === '' ? '' : ` (${who})`} can approve or decline it; ` +
      'they see it on the component page and in the release requests list of the dashboard. Tell the user it awaits approval.',
    request: {
      id: request.id,
      state: 'pending' as const,
      requestedAt: isoTime(request.requestedAt),
      approvers: [...approvers.emails],
    },
  };
}
