import { freePort } from '@infra/embedded/ports';
import { WEB_DIST } from '@infra/web/build';
import { type Browser, chromium, type Page } from 'playwright-core';
import { inject } from 'vitest';
import { createTestApi, type TestApi } from './api';

/**
 * Browser tests: the built console (global setup builds it once) served by the whole API on a real port, driven by
 * Debian's Chromium through playwright-core — never a downloaded browser.
 */

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export interface ConsoleServer {
  api: TestApi;
  url: string;
  close(): Promise<void>;
}

export async function startConsoleServer(opts: { workflows?: boolean } = {}): Promise<ConsoleServer> {
  const buildError = inject('consoleBuildError');
  if (buildError) throw new Error(`The console did not build: ${buildError}`);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const api = await createTestApi({
    webDir: WEB_DIST,
    overrides: { publicUrl: url },
    workflows: opts.workflows,
  });
  await api.app.listen({ host: '127.0.0.1', port });
  // The projections run live, as in `npm start`: screens showing read models move as events arrive.
  api.engine.start();
  return { api, url, close: () => api.close() };
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-dev-shm-usage',
    ],
  });
}

/** A page that fails the test on any uncaught error in the console. */
export async function openPage(browser: Browser, baseURL: string): Promise<{ page: Page; errors: string[] }> {
  const context = await browser.newContext({ baseURL, locale: 'en-US' });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return { page, errors };
}

/** A page signed in to the console with `login` and `password`, on its home screen. */
export async function signedInPage(
  browser: Browser,
  baseURL: string,
  login: string,
  password: string,
): Promise<{ page: Page; errors: string[] }> {
  const opened = await openPage(browser, baseURL);
  await opened.page.goto('/#/login');
  await opened.page.getByLabel('Username or e-mail').fill(login);
  await opened.page.getByLabel('Password', { exact: true }).fill(password);
  await opened.page.getByRole('button', { name: 'Sign in' }).click();
  await opened.page.waitForURL((url) => url.hash === '#/' || url.hash === '');
  return opened;
}

/** The newest mail of a purpose sent to an address, as a user would read it from their inbox. */
export async function latestMail(
  api: TestApi,
  recipient: string,
  purpose: string,
): Promise<string | undefined> {
  const row = await api.database.db
    .selectFrom('mail_outbox')
    .select('body')
    .where('recipient', '=', recipient)
    .where('purpose', '=', purpose)
    .orderBy('id', 'desc')
    .executeTakeFirst();
  return row?.body;
}
