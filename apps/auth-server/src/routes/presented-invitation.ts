import { isInvitationToken } from '@cp/domain';
import { field } from '@cp/web-forms';
import type { Request } from 'express';
import type { Interaction } from '../interactions/waiting-interaction.js';

/**
 * The invitation token a sign-in or sign-up presents, '' when none: the form's hidden field,
 * else the link's `?invitation=`, else the authorization request's `invitation` parameter
 * (the dashboard's invitation page sends it). Only its shape is checked here; whether it
 * opens a pending invitation for the email is the throttles' question (invitation-exemption.ts).
 */
export function presentedInvitation(req: Request, interaction: Interaction | null = null): string {
  const query = req.query.invitation;
  const param = interaction?.params.invitation;
  for (const value of [field(req, 'invitation'), typeof query === 'string' ? query : '', typeof param === 'string' ? param : '']) {
    if (value !== '') return isInvitationToken(value) ? value : '';
  }
  return '';
}
