import type { MemberOrganization } from '@cp/domain';
import type { Chrome } from '../layout.js';

/**
 * What each page of one organization's setup is given: the organization (with the visitor's role),
 * the header, and the notice of the action just done. A page's content extends it with its own.
 */
export interface OrganizationPageContent {
  readonly organization: MemberOrganization;
  readonly chrome: Chrome;
  readonly notice: string | null;
}
