import type { Logger } from '@cp/http-runtime';
import { createTransport } from 'nodemailer';
import type { MailSettings } from '../config.js';

/** What an invitation email says. `link` holds the secret token: it goes in the message, never in a log. */
export interface InvitationMessage {
  readonly invitationId: string;
  readonly to: string;
  readonly organizationName: string;
  readonly role: string;
  readonly invitedBy: string;
  readonly link: string;
  readonly expiresAt: Date;
}

/** Sends invitation emails; false when the message could not be handed to the SMTP server. */
export interface InvitationMailer {
  send(message: InvitationMessage): Promise<boolean>;
}

/** Headers and text are ours: a name with a line break cannot add a header (nodemailer encodes values). */
export function invitationText(message: InvitationMessage): { subject: string; text: string } {
  return {
    subject: `Join ${message.organizationName} on the component dashboard`,
    text: [
      `${message.invitedBy} invited you to join ${message.organizationName} as ${message.role}.`,
      '',
      `Open this link to accept (sign in or create an account with ${message.to}):`,
      message.link,
      '',
      `The link works once, until ${message.expiresAt.toISOString().slice(0, 16).replace('T', ' ')} UTC.`,
      'If you did not expect this invitation, ignore this email.',
    ].join('\n'),
  };
}

/**
 * nodemailer over SMTP_URL. A failure is logged with the SMTP status only (the error's message
 * could quote the server's reply; the URL holds the password; the link holds the token).
 */
export function smtpInvitationMailer(settings: MailSettings, log: Logger): InvitationMailer {
  const transport = createTransport(settings.smtpUrl);
  return {
    async send(message) {
      try {
        await transport.sendMail({
          from: settings.from,
          to: message.to,
          ...invitationText(message),
        });
        return true;
      } catch (error) {
        const { code, responseCode } = (error ?? {}) as { code?: unknown; responseCode?: unknown };
        log.warn(
          { invitationId: message.invitationId, smtpCode: code, smtpResponseCode: responseCode },
          'invitation email not sent',
        );
        return false;
      }
    },
  };
}
