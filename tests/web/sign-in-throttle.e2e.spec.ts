import { createSeller } from '@tests/support/api';
import {
  type ConsoleServer,
  latestMail,
  launchBrowser,
  openPage,
  startConsoleServer,
} from '@tests/support/browser';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The login page under the sign-in throttle (issue 13), in a real Chromium: it says how many seconds to wait, and
 * past the account's ceiling it says to check the e-mail; the mailed link opens the login, unlocks this device, and
 * the owner signs in.
 */

describe('the login page under the sign-in throttle', () => {
  let server: ConsoleServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startConsoleServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** Submits the form and waits for the API's answer. */
  async function signIn(page: Page, login: string, password: string) {
    await page.getByLabel('Username or e-mail').fill(login);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await Promise.all([
      page.waitForResponse((response) => response.url().endsWith('/oauth/token')),
      page.getByRole('button', { name: 'Sign in' }).click(),
    ]);
  }

  it('tells a device that failed too often how long to wait', async () => {
    const seller = await createSeller(server.api);
    const { page, errors } = await openPage(browser, server.url);
    await page.goto('/#/login');
    await signIn(page, seller.email, 'wrong guess 1x');
    await page.getByText('The username, e-mail or password is wrong.').waitFor();
    // More failures from this device came before: it must wait a minute (set here, so no test waits on a real clock).
    await server.api.database.db
      .updateTable('sign_in_throttle')
      .set({ failures: 7, blocked_until: new Date(Date.now() + 60_000) })
      .where('subject', '=', `user:${seller.userId}`)
      .execute();
    await signIn(page, seller.email, seller.password);
    await page
      .getByText(/^Too many failed sign-ins from here\. Please wait (59|60) seconds and try again\.$/)
      .waitFor();
    expect(await page.evaluate("localStorage.getItem('token')")).toBeNull();
    expect(errors).toEqual([]);
  });

  it('asks for the e-mailed unlock link past the ceiling, and lets the owner in through it', async () => {
    const seller = await createSeller(server.api);
    const db = server.api.database.db;
    // A guess from many addresses has passed the account's ceiling, and this device has never signed in.
    await db
      .insertInto('sign_in_throttle')
      .values(
        Array.from({ length: 10 }, (_, i) => ({
          subject: `user:${seller.userId}`,
          address: `10.0.0.${i + 1}`,
          failures: 2,
          last_failure_at: new Date(),
          blocked_until: new Date(),
        })),
      )
      .execute();
    await db.deleteFrom('sign_in_addresses').where('user_id', '=', seller.userId).execute();

    const { page, errors } = await openPage(browser, server.url);
    await page.goto('/#/login');
    await signIn(page, seller.email, seller.password);
    await page.getByText(/check your e-mail for a link that unlocks sign-in from this device/).waitFor();
    expect(await page.evaluate("localStorage.getItem('token')")).toBeNull();

    const mail = await latestMail(server.api, seller.email, 'sign-in-unlock');
    const link = /http:\/\/127\.0\.0\.1:\d+\/(#\/login\?unlock=[A-Za-z0-9_-]+)/.exec(mail ?? '');
    expect(link, mail).not.toBeNull();
    await page.goto(`/${link![1]}`);
    await page.getByText('Sign-in is unlocked for this device. Please sign in now.').waitFor();
    await signIn(page, seller.email, seller.password);
    await page.waitForURL((url) => url.hash === '#/' || url.hash === '');
    expect(errors).toEqual([]);
  });
});
