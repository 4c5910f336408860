import type { Browser, Page } from '@cp/browser-testing';
import type { User } from '@cp/domain';
import { PASSWORD } from '../../../auth-server/test/support/flow.js';

/** A fresh Chromium context opens `path` on the dashboard at `url`, signs in as `user` on the auth server's page, and is back on `path`. */
export async function signInInChromium(browser: Browser, url: string, user: User, path: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto(`${url}${path}`);
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${url}${path}`, { timeout: 10_000 });
  return page;
}
