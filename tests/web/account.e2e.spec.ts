import { TEXT_LIMITS } from '@domain/shared/limits';
import { createSeller, signIn, type TestSeller } from '@tests/support/api';
import { type ConsoleServer, launchBrowser, signedInPage, startConsoleServer } from '@tests/support/browser';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The header menu's user settings in a real Chromium: a seller renames themselves, changes their password (the old
 * one stops working), saves their language (the console turns to it and the server keeps it), and finds each change
 * in the activity log screen.
 */
describe('user settings and the activity log in a browser', () => {
  let server: ConsoleServer;
  let browser: Browser;
  let seller: TestSeller;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startConsoleServer(), launchBrowser()]);
    seller = await createSeller(server.api);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('shows every problem of a form at once beside its field, and never cuts a long name', async () => {
    const { page, errors } = await signedInPage(browser, server.url, seller.email, seller.password);
    await page.goto('/#/settings/user-detail');
    const form = page.getByRole('form', { name: 'My details' });
    const long = 'A'.repeat(TEXT_LIMITS.name + 1);
    await form.getByLabel('First name').fill(long);
    await form.getByLabel('Phone').fill('call me');
    // Typed or pasted, the whole text stays: the field counts and says what is wrong rather than cutting it.
    expect(await form.getByLabel('First name').inputValue()).toBe(long);
    await form.getByText(`${long.length} of ${TEXT_LIMITS.name} characters`).waitFor();
    await form.getByRole('button', { name: 'Save details' }).click();
    await form.getByText('The phone number may contain only digits, spaces, +, -, ( and ).').waitFor();
    // Beside the name field too, not only in the summary above the form.
    const nameError = form.locator('.field-error', {
      hasText: `This entry is too long (maximum is ${TEXT_LIMITS.name} characters)`,
    });
    expect(await nameError.isVisible()).toBe(true);
    const saved = await server.api.database.db
      .selectFrom('users')
      .select(['first_name', 'phone'])
      .where('id', '=', seller.userId)
      .executeTakeFirstOrThrow();
    expect(saved.first_name).not.toBe(long);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('changes the profile, password and language from the header menu, and logs each change', async () => {
    const { page, errors } = await signedInPage(browser, server.url, seller.email, seller.password);
    await page.getByTestId('user-menu').click();
    await page.getByRole('menuitem', { name: 'Help centre' }).waitFor();
    await page.getByTestId('user-settings').click();
    await page.waitForURL(/#\/settings\/user-detail/);
    await expect.poll(() => page.title()).toBe('Kedai - User settings');

    await page.getByLabel('First name').fill('Aminah');
    await page.getByRole('button', { name: 'Save details' }).click();
    await page.getByTestId('user-menu').getByText('Aminah', { exact: false }).waitFor();

    const next = 'fresh start 2026';
    await page.getByLabel('Current password').fill('not my password 1');
    await page.getByLabel('New password', { exact: true }).fill(next);
    await page.getByLabel('Confirm new password').fill(next);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('The current password is not correct.').first().waitFor();
    await page.getByLabel('Current password').fill(seller.password);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Password changed', { exact: false }).first().waitFor();
    await expect(signIn(server.api.app, seller.email, next)).resolves.toBeTruthy();

    await page.getByLabel('Console language').selectOption('th-th');
    await page.getByRole('button', { name: 'Save language' }).click();
    await page.getByRole('heading', { name: 'ตั้งค่าผู้ใช้' }).waitFor();
    const saved = await server.api.database.db
      .selectFrom('users')
      .select('language')
      .where('id', '=', seller.userId)
      .executeTakeFirstOrThrow();
    expect(saved.language).toBe('th-th');

    await page.goto('/#/user-activities-logs');
    await page.getByRole('heading', { name: 'บันทึกกิจกรรม' }).waitFor();
    await page.getByText('profile.password_changed').waitFor();
    await page.getByText('profile.updated').first().waitFor();
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
