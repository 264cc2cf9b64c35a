import { createAdmin, createSeller } from '@tests/support/api';
import {
  type ConsoleServer,
  latestMail,
  launchBrowser,
  openPage,
  startConsoleServer,
} from '@tests/support/browser';
import { waitFor } from '@tests/support/wait';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The console in a real Chromium, against the whole API on a real port: a seller registers, reads the code from the
 * outbox as from their inbox, signs in, reads the console in Chinese and Thai, makes a group and a sub-user, and the
 * sub-user finds the owner's screens refused. A protected route without a token lands on the login with `redirect`.
 */

const OWNER_PASSWORD = 'kedai2026x';
const SUB_PASSWORD = 'picker2026';

describe('the console in a browser', () => {
  let server: ConsoleServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startConsoleServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const hashOf = (page: Page) => decodeURIComponent(new URL(page.url()).hash);

  const storedToken = (page: Page) => page.evaluate<string | null>("localStorage.getItem('token')");

  /** Calls the API from the page, with the console's own token and language, as the console would. */
  const callApi = (page: Page, path: string) =>
    page.evaluate<{ status: number; body: { code: number; msg: string } }>(`(async () => {
      const response = await fetch(${JSON.stringify(path)}, {
        headers: {
          authorization: 'Bearer ' + localStorage.getItem('token'),
          language: localStorage.getItem('language') || 'en-us',
        },
      });
      return { status: response.status, body: await response.json() };
    })()`);

  async function signIn(page: Page, login: string, password: string) {
    await page.getByLabel('Username or e-mail').fill(login);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }

  it('sends a protected route without a token to the login, with the route in `redirect`', async () => {
    const { page, errors } = await openPage(browser, server.url);
    await page.goto('/#/settings/users');
    await page.waitForURL(/#\/login\?/);
    expect(hashOf(page)).toContain('redirect=/settings/users');
    await expect.poll(() => page.title()).toBe('Kedai - Login');
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('registers, verifies the e-mailed code, signs in, switches language, and limits a sub-user', async () => {
    const { page, errors } = await openPage(browser, server.url);
    const email = `siti-${Date.now()}@batik.test`;

    // ---- register ----
    await page.goto('/#/login');
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.waitForURL(/#\/register/);
    await page.getByLabel('First name').fill('Siti');
    await page.getByLabel('Last name').fill('Aminah');
    await page.getByLabel('Phone number').fill('+60 12-345 6789');
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Country').selectOption('MY');
    await page.getByLabel('Password', { exact: true }).fill(OWNER_PASSWORD);
    await page.getByLabel('Confirm password').fill(OWNER_PASSWORD);
    await page.getByLabel('Store name').fill('Siti Batik');
    await page.getByLabel('Average orders per day').selectOption('50_200');
    await page.getByLabel('Warehouse size').selectOption('small');
    await page.getByLabel('Accounting system').selectOption('xero');
    await page.getByLabel('How did you find us?').selectOption('friend');
    await page.getByLabel('What are you looking for?').selectOption('inventory');
    await page.getByRole('button', { name: 'Create account' }).click();
    // The terms are not agreed yet: nothing is sent.
    await expect.poll(() => page.getByText('Please agree to the terms to sign up.').isVisible()).toBe(true);
    expect(await latestMail(server.api, email, 'register-otp')).toBeUndefined();
    await page.getByLabel('I agree to the terms of service and the privacy policy').check();
    await page.getByRole('button', { name: 'Create account' }).click();

    // ---- the code, from the outbox ----
    await page.waitForURL(/#\/register\/verify/);
    const mail = await waitFor(() => latestMail(server.api, email, 'register-otp'), {
      what: 'the code mail',
    });
    const code = /\b(\d{6})\b/.exec(mail)?.[1];
    expect(code).toMatch(/^\d{6}$/);
    await page.getByLabel('Verification code').fill(code!);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL(/#\/login/);

    // ---- sign in ----
    await signIn(page, email, OWNER_PASSWORD);
    await page.waitForURL((url) => url.hash === '#/' || url.hash === '');
    await expect.poll(() => page.title()).toBe('Kedai - Dashboard');
    await expect.poll(() => page.getByText('Siti Batik').first().isVisible()).toBe(true);

    // ---- languages ----
    await page.getByTestId('language-switch').selectOption('zh-cn');
    await expect.poll(() => page.locator('html').getAttribute('lang')).toBe('zh-cn');
    await expect.poll(() => page.title()).toMatch(/^Kedai - .*[\u4e00-\u9fff]/);
    await expect.poll(() => page.getByRole('navigation').first().innerText()).toMatch(/[\u4e00-\u9fff]/);
    await page.getByTestId('language-switch').selectOption('th-th');
    await expect.poll(() => page.locator('html').getAttribute('lang')).toBe('th-th');
    await expect.poll(() => page.title()).toMatch(/^Kedai - .*[\u0e00-\u0e7f]/);
    await expect.poll(() => page.getByRole('navigation').first().innerText()).toMatch(/[\u0e00-\u0e7f]/);
    // The API answers in the chosen language too.
    const missing = await callApi(page, '/api/setting/users/00000000-0000-4000-8000-000000000000');
    expect(missing.status).toBe(404);
    expect(missing.body.msg).toMatch(/[\u0e00-\u0e7f]/);
    await page.getByTestId('language-switch').selectOption('en-us');
    await expect.poll(() => page.title()).toBe('Kedai - Dashboard');

    // ---- a group that may only view listings ----
    await page.goto('/#/settings/group-permissions');
    await expect.poll(() => page.title()).toBe('Kedai - Group permissions');
    await page.getByRole('button', { name: 'New group' }).click();
    await page.getByLabel('Group name').fill('Pickers');
    await page.getByLabel('View listings', { exact: true }).check();
    await page.getByRole('button', { name: 'Create group' }).click();
    await waitFor(
      () =>
        server.api.database.db
          .selectFrom('user_groups')
          .select('permissions')
          .where('name', '=', 'Pickers')
          .executeTakeFirst(),
      { what: 'the group to be saved' },
    ).then((group) => expect(group.permissions).toEqual(['listings-index']));

    // ---- a sub-user in it ----
    await page.goto('/#/settings/users');
    await expect.poll(() => page.title()).toBe('Kedai - Users');
    await page.getByRole('button', { name: 'Add user' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Username').fill('aminah.picker');
    await dialog.getByLabel('E-mail').fill(`picker-${Date.now()}@batik.test`);
    await dialog.getByLabel('First name').fill('Aminah');
    await dialog.getByLabel('Group').selectOption({ label: 'Pickers' });
    await dialog.getByLabel('Password', { exact: true }).fill(SUB_PASSWORD);
    await dialog.getByLabel('Confirm password').fill(SUB_PASSWORD);
    await dialog.getByRole('button', { name: 'Create user' }).click();
    await expect.poll(() => page.getByRole('grid').getByText('aminah.picker').isVisible()).toBe(true);

    // ---- sign out, and in as the sub-user ----
    await page.getByTestId('user-menu').click();
    await page.getByTestId('logout').click();
    await page.waitForURL(/#\/login/);
    expect(await storedToken(page)).toBeNull();
    await signIn(page, 'aminah.picker', SUB_PASSWORD);
    await page.waitForURL((url) => url.hash === '#/' || url.hash === '');
    const menu = await page.getByRole('navigation').first().innerText();
    expect(menu).not.toContain('Users');
    expect(menu).not.toContain('Group permissions');
    await page.goto('/#/settings/users');
    await expect.poll(() => page.getByTestId('forbidden').isVisible()).toBe(true);
    await expect.poll(() => page.getByRole('heading', { name: 'Access denied' }).isVisible()).toBe(true);
    // And the API refuses it too, whatever the screen shows.
    expect((await callApi(page, '/api/setting/users')).status).toBe(403);

    // ---- a revoked session: the next call signs out and returns to the login with the reason ----
    await server.api.database.db.updateTable('access_tokens').set({ revoked_at: new Date() }).execute();
    await page.goto('/#/webstore/category');
    await page.waitForURL(/#\/login\?/);
    const hash = hashOf(page);
    expect(hash).toContain('redirect=/webstore/category');
    expect(hash).toContain('status=401');
    expect(hash).toContain('code=401');
    expect(hash).toContain('error=1');
    expect(await storedToken(page)).toBeNull();
    await expect.poll(() => page.getByRole('alert').first().isVisible()).toBe(true);

    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('lets an admin publish an announcement that a seller is prompted with at sign-in and accepts', async () => {
    const admin = await createAdmin(server.api);
    const seller = await createSeller(server.api);
    const subject = `Raya sale maintenance ${Date.now()}`;

    // ---- the admin writes it in the admin area ----
    const { page, errors } = await openPage(browser, server.url);
    await page.goto('/#/admin-login/');
    await signIn(page, admin.email, admin.password);
    await page.waitForURL(/#\/admin-settings\/announcement/);
    await page.getByRole('button', { name: 'New announcement' }).click();
    const form = page.getByRole('dialog');
    await form.getByRole('button', { name: 'Create announcement' }).click();
    // Nothing filled in: the API's own message comes back, and nothing is stored.
    await expect.poll(() => page.getByText('Please provide priority').first().isVisible()).toBe(true);
    await form.getByLabel('Subject').fill(subject);
    await form.getByLabel('Content').fill('The console is read-only from 02:00 to 03:00.');
    await form.getByLabel('Priority').fill('9');
    await form.getByLabel('Active', { exact: true }).check();
    await form.getByLabel('Requires acknowledgement').check();
    await form.getByLabel('Prompt at sign-in').check();
    await form.getByRole('button', { name: 'Create announcement' }).click();
    await expect.poll(() => page.getByRole('grid').getByText(subject).isVisible()).toBe(true);
    await page.context().close();

    // ---- the seller is prompted at sign-in and accepts ----
    const sellerPage = await openPage(browser, server.url);
    await sellerPage.page.goto('/#/login');
    await signIn(sellerPage.page, seller.email, seller.password);
    const prompt = sellerPage.page.getByRole('dialog', { name: subject });
    await expect.poll(() => prompt.isVisible()).toBe(true);
    await prompt.getByRole('button', { name: 'Accept' }).click();
    const ack = await waitFor(
      () =>
        server.api.database.db
          .selectFrom('announcement_acks as a')
          .innerJoin('announcements as n', 'n.id', 'a.announcement_id')
          .select(['a.status'])
          .where('n.subject', '=', subject)
          .where('a.user_id', '=', seller.userId)
          .executeTakeFirst(),
      { what: 'the acknowledgement to be stored' },
    );
    expect(ack.status).toBe(100);
    expect([...errors, ...sellerPage.errors]).toEqual([]);
    await sellerPage.page.context().close();
  });

  it("shows an admin the platform's figures, a sign-up chart and each account's use", async () => {
    const admin = await createAdmin(server.api);
    const name = `Reports Batik ${Date.now()}`;
    await createSeller(server.api, { name });
    const { page, errors } = await openPage(browser, server.url);
    await page.goto('/#/admin-login/');
    await signIn(page, admin.email, admin.password);
    await page.waitForURL(/#\/admin-settings\/announcement/);
    await page.getByRole('link', { name: 'Reports' }).click();
    await page.waitForURL(/#\/admin-reports/);
    const accounts = page.locator('[data-fact="accounts"]');
    await expect
      .poll(async () => Number((await accounts.textContent())?.replace(/\D/g, '') || 0))
      .toBeGreaterThan(0);
    // The chart draws on a canvas; the grid finds the new account by its name.
    await expect.poll(() => page.locator('.admin-report canvas').count()).toBeGreaterThan(0);
    await page.getByLabel('Search accounts').fill(name);
    await expect.poll(() => page.getByRole('grid').getByText(name).isVisible()).toBe(true);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('notices a new version of the console when the route changes, and offers to reload', async () => {
    const { page, errors } = await openPage(browser, server.url);
    await page.goto('/#/login');
    const served = await (await fetch(`${server.url}/`)).text();
    // The same build: moving between pages finds nothing new.
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.waitForURL(/#\/register/);
    const checked = page.waitForResponse((response) => new URL(response.url()).pathname === '/');
    await page.getByRole('link', { name: 'Sign in' }).click();
    await checked;
    expect(await page.getByText('A new version is available').isVisible()).toBe(false);
    // A deploy: the root page now names another entry script.
    await page.route(`${server.url}/`, (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: served.replace(/\/assets\/index-[^"]+\.js/, '/assets/index-NEWBUILD.js'),
      }),
    );
    await page.getByRole('link', { name: 'Create an account' }).click();
    await expect.poll(() => page.getByText('A new version is available').isVisible()).toBe(true);
    await expect.poll(() => page.getByRole('button', { name: 'Reload' }).isVisible()).toBe(true);
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
