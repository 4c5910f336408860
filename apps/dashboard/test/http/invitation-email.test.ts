import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import type { User } from '@cp/domain';
import { createLogger } from '@cp/http-runtime';
import { createApp } from '../../src/app.js';
import { makeConfig } from '../../src/config.js';
import { PASSWORD } from '../../../auth-server/test/support/flow.js';
import {
  anAccount,
  startDashboardStack,
  type DashboardStack,
} from '../support/dashboard-server.js';
import { FormBrowser, headline, signedInBrowser, type Page } from '../support/sign-in.js';

/*
 * With SMTP_URL the invitation is also emailed (nodemailer), after the commit. An SMTP server runs
 * in this process (the npm smtp-server package, with authentication): the test reads the message it
 * received and follows the link in it. When the server refuses, the invitation is kept, the page
 * still shows the link and says the email was not sent, and nothing secret reaches the log.
 */

interface Received {
  readonly from: string;
  readonly to: string[];
  readonly raw: string;
}

let smtp: SMTPServer;
let smtpPort = 0;
const received: Received[] = [];
let refuseNext = false;
let stack: DashboardStack;
let owner: User;

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: false,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    onAuth: (auth, _session, callback) =>
      auth.username === 'mailer' && auth.password === 'smtp-secret-password'
        ? callback(null, { user: 'mailer' })
        : callback(new Error('Invalid username or password')),
    onData: (stream, session, callback) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (refuseNext)
          return callback(Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 }));
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  smtpPort = (smtp.server.address() as AddressInfo).port;
  stack = await startDashboardStack({
    config: {
      mail: {
        smtpUrl: `smtp://mailer:smtp-secret-password@127.0.0.1:${smtpPort}`,
        from: 'Team <team@example.test>',
      },
    },
  });
  owner = await anAccount(stack.auth);
}, 90_000);
afterAll(async () => {
  await stack?.close();
  await new Promise<void>((resolve) => smtp?.close(() => resolve()));
});

/** The message's text part, soft line breaks (quoted-printable) undone. */
const bodyOf = (raw: string): string => raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');

test('the invitation is emailed; the link in the message opens the accept page and joins', async () => {
  const invitee = await anAccount(stack.auth);
  const browser = await signedInBrowser(
    stack.url,
    `/orgs/${owner.defaultOrganizationId}/invitations`,
    owner,
  );
  const page = await browser.post(`/orgs/${owner.defaultOrganizationId}/invitations`, {
    email: invitee.email,
    role: 'member',
  });
  expect(page.status).toBe(200);
  expect(page.html).toContain('It was also sent by email.');
  const message = received.find((m) => m.to.includes(invitee.email));
  expect(message?.from).toBe('team@example.test');
  const text = bodyOf(message!.raw);
  expect(text).toMatch(/Subject: Join .* on the component dashboard/);
  const link = new RegExp(`${stack.url}/invitations/cpi_[A-Za-z0-9_-]{43}`).exec(text)?.[0];
  expect(link).toBeDefined();
  expect(page.html).toContain(link);

  const visitor = new FormBrowser();
  const toAuthServer = await visitor.open(link!);
  const signIn = await visitor.open(toAuthServer.url);
  const back = await visitor.submit(
    signIn,
    { email: invitee.email, password: PASSWORD },
    { action: /\/login$/ },
  );
  const joinPage = await visitor.open(back.url);
  expect(joinPage.url).toBe(link);
  const joined = await visitor.submit(joinPage, {}, { action: /^\/invitations\// });
  expect(joined.url).toBe(`${stack.url}/orgs/${owner.defaultOrganizationId}/components`);
  expect(
    (await stack.domain.repos.organizations.findMembership(invitee.id, owner.defaultOrganizationId))
      ?.role,
  ).toBe('member');
});

test('an SMTP failure keeps the invitation: the page shows the link and says so; the log holds no token and no password', async () => {
  const lines: string[] = [];
  const log = captureLog(lines);
  // A second app on the same data, logging to `lines`.
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const config = makeConfig({
    ...stack.config,
    publicUrl: stack.url,
    mail: {
      smtpUrl: `smtp://mailer:smtp-secret-password@127.0.0.1:${smtpPort}`,
      from: 'team@example.test',
    },
  });
  server.on(
    'request',
    createApp({ config, domain: stack.domain, grants: stack.auth.oidc, usage: stack.usage, rolloutFigures: stack.rolloutFigures, log }),
  );
  try {
    const browser = await signedInBrowser(
      stack.url,
      `/orgs/${owner.defaultOrganizationId}/invitations`,
      owner,
    );
    refuseNext = true;
    const page: Page = await browser.browser.open(
      `${url}/orgs/${owner.defaultOrganizationId}/invitations`,
      {
        method: 'POST',
        form: {
          csrf_token: /name="csrf_token" value="([^"]+)"/.exec(browser.page.html)![1]!,
          email: 'unlucky@example.test',
          role: 'viewer',
        },
      },
    );
    expect({ status: page.status, title: headline(page).title }).toMatchObject({ status: 200 });
    expect(page.html).toContain('The email could not be sent: copy the link and send it yourself.');
    const token = /invitations\/(cpi_[A-Za-z0-9_-]{43})/.exec(page.html)?.[1];
    expect(token).toBeDefined();
    const pending = (
      await stack.domain.repos.invitations.listForOrganization(owner.defaultOrganizationId, {
        limit: 1,
      })
    )[0];
    expect({ email: pending?.email, revokedAt: pending?.revokedAt }).toEqual({
      email: 'unlucky@example.test',
      revokedAt: null,
    });
    const logged = lines.join('\n');
    expect(logged).toContain('invitation email not sent');
    expect(logged).not.toContain(token!);
    expect(logged).not.toContain('smtp-secret-password');
  } finally {
    refuseNext = false;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

function captureLog(lines: string[]) {
  return createLogger({
    service: 'dashboard',
    level: 'debug',
    destination: { write: (line: string) => void lines.push(line) },
  });
}
