import { createSeller, type TestSeller } from '@tests/support/api';
import { type ConsoleServer, launchBrowser, openPage, startConsoleServer } from '@tests/support/browser';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Issue 13, item 4: the console and the API docs work in a real Chromium under their Content-Security-Policy: not
 * one violation while signing in and opening screens with grids and the live websocket, while an inline script
 * slipped into the page is refused.
 */

describe('the console under its Content-Security-Policy', () => {
  let server: ConsoleServer;
  let browser: Browser;
  let seller: TestSeller;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startConsoleServer(), launchBrowser()]);
    seller = await createSeller(server.api, { packageId: 'growth' });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** A page that records every CSP violation (an init script runs through DevTools, outside the policy) and error. */
  async function watchedPage(): Promise<{ page: Page; problems: () => Promise<string[]> }> {
    const { page, errors } = await openPage(browser, server.url);
    await page.addInitScript(`
      window.cspViolations = [];
      document.addEventListener('securitypolicyviolation', (event) =>
        window.cspViolations.push(event.effectiveDirective + ' blocked ' + (event.blockedURI || 'inline') + ' in ' + event.sourceFile + ':' + event.lineNumber),
      );
    `);
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(`console: ${message.text()}`);
    });
    const problems = async () => [...errors, ...(await page.evaluate<string[]>('window.cspViolations'))];
    return { page, problems };
  }

  it('signs in and opens screens without a single violation', async () => {
    const { page, problems } = await watchedPage();
    const answer = await page.goto('/#/login');
    const policy = answer?.headers()['content-security-policy'] ?? '';
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("frame-ancestors 'none'");

    await page.getByLabel('Username or e-mail').fill(seller.email);
    await page.getByLabel('Password', { exact: true }).fill(seller.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.hash === '#/' || url.hash === '');

    for (const screen of ['/orders/manage/new', '/inventory/list', '/settings/users']) {
      await page.goto(`/#${screen}`);
      // A grid drawn with its theme (styles ag-grid injects) and its rows asked of the API.
      await page.locator('.ag-header-cell').first().waitFor();
    }
    expect(await problems()).toEqual([]);
  });

  it('refuses an inline script slipped into the page', async () => {
    const { page, problems } = await watchedPage();
    await page.goto('/#/login');
    await page.getByLabel('Username or e-mail').waitFor();
    await page.evaluate(`(() => {
      const script = document.createElement('script');
      script.textContent = 'window.inlineRan = true';
      document.head.append(script);
    })()`);
    await expect.poll(problems).toContainEqual(expect.stringMatching(/^script-src-elem blocked inline /));
    expect(await page.evaluate<boolean | undefined>('window.inlineRan')).toBeUndefined();
  });

  it('shows the API docs under their own policy without a violation', async () => {
    const { page, problems } = await watchedPage();
    await page.goto('/docs');
    await page.getByText('Kedai API').first().waitFor();
    await page.locator('.opblock').first().waitFor();
    expect(await problems()).toEqual([]);
  });
});
