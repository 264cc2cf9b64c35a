import { CONSOLE_CLIENT_ID } from '@api/contracts/auth';
import { WEB_DIST } from '@infra/web/build';
import { bearer, createSeller, createTestApi, type TestApi, type TestSeller } from '@tests/support/api';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

/**
 * Issue 13, item 4: every answer carries the browser-side defences, the console page runs no inline script and
 * carries no secret, and the console signs in as a public client while a confidential client still needs its secret.
 */

const SCRIPTS = { clientId: 'kedai-scripts', clientSecret: 'scripts-secret-0123' };

describe('browser-side defences', () => {
  let api: TestApi;
  let seller: TestSeller;

  beforeAll(async () => {
    const buildError = inject('consoleBuildError');
    if (buildError) throw new Error(`The console did not build: ${buildError}`);
    api = await createTestApi({
      webDir: WEB_DIST,
      overrides: { auth: { ...SCRIPTS, tokenTtlSeconds: 3600 } },
    });
    seller = await createSeller(api);
  });
  afterAll(async () => {
    await api?.close();
  });

  const get = (url: string, headers: Record<string, string> = {}) =>
    api.app.inject({ method: 'GET', url, headers });
  const signIn = (fields: Record<string, string>) =>
    api.app.inject({
      method: 'POST',
      url: '/oauth/token',
      payload: { grant_type: 'password', username: seller.email, password: seller.password, ...fields },
    });

  const expectDefences = (response: { headers: Record<string, unknown> }, what: string) => {
    expect(response.headers['x-content-type-options'], what).toBe('nosniff');
    expect(response.headers['x-frame-options'], what).toBe('DENY');
    expect(response.headers['referrer-policy'], what).toBe('no-referrer');
    const policy = String(response.headers['content-security-policy']);
    expect(policy, what).toContain("frame-ancestors 'none'");
    expect(policy, what).toContain("object-src 'none'");
  };

  it('sends the console page under a strict policy, with no inline script and no secret', async () => {
    const page = await get('/');
    expect(page.statusCode).toBe(200);
    expectDefences(page, 'the page');
    const policy = String(page.headers['content-security-policy']);
    const directive = (name: string) =>
      policy
        .split(';')
        .map((part) => part.trim())
        .find((part) => part.startsWith(`${name} `));
    expect(directive('default-src')).toBe("default-src 'self'");
    expect(directive('script-src')).toBe("script-src 'self'");
    expect(directive('base-uri')).toBe("base-uri 'self'");
    expect(directive('form-action')).toBe("form-action 'self'");
    expect(directive('connect-src')).toContain("'self'");
    // A master code's image given by URL shows in the console, over https only.
    expect(directive('img-src')).toBe("img-src 'self' data: blob: https:");
    expect(policy).not.toContain('unsafe-eval');
    expect(policy).not.toContain('upgrade-insecure-requests');

    const scripts = [...page.body.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, content] of scripts) {
      expect(attributes).toMatch(/\bsrc="\/[^"]+\.js"/);
      expect(content?.trim()).toBe('');
    }
    expect(page.body).not.toContain(SCRIPTS.clientSecret);
    expect(page.body).not.toContain('kedai-client');
  });

  it('sends the defences with a static asset, a JSON answer, an error and a 404', async () => {
    const page = await get('/');
    const asset = /<script\b[^>]*\bsrc="(\/assets\/[^"]+)"/.exec(page.body)?.[1];
    expect(asset).toBeDefined();
    const script = await get(asset!);
    expect(script.statusCode).toBe(200);
    expectDefences(script, 'an asset');

    const token = (await signIn({ client_id: CONSOLE_CLIENT_ID })).json<{ access_token: string }>()
      .access_token;
    const json = await get('/api/user/info', bearer(token));
    expect(json.statusCode).toBe(200);
    expectDefences(json, 'a JSON answer');

    const unauthorised = await get('/api/user/info');
    expect(unauthorised.statusCode).toBe(401);
    expectDefences(unauthorised, 'a 401');

    const invalid = await api.app.inject({ method: 'POST', url: '/oauth/token', payload: { grant_type: 1 } });
    expect(invalid.statusCode).toBe(400);
    expectDefences(invalid, 'a 400');

    const missing = await get('/api/no-such-thing');
    expect(missing.statusCode).toBe(404);
    expectDefences(missing, 'a 404');

    const badUrl = await get('/api/categories/%E0%A4%A');
    expect(badUrl.statusCode).toBe(400);
    // Answered before any request hook: nosniff is what a JSON answer needs.
    expect(badUrl.headers['x-content-type-options']).toBe('nosniff');

    const missingFile = await get('/assets/no-such-file.js');
    expect(missingFile.statusCode).toBe(404);
    expectDefences(missingFile, 'a missing file');
  });

  it('gives the API docs a policy of their own that still forbids inline script and framing', async () => {
    const docs = await get('/docs/');
    expect(docs.statusCode).toBe(200);
    expect(docs.body).toContain('swagger-ui');
    expect(docs.headers['x-content-type-options']).toBe('nosniff');
    const policy = String(docs.headers['content-security-policy']);
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).not.toContain('unsafe-eval');
    expect(policy).not.toContain('upgrade-insecure-requests');
  });

  it('signs the console in by its client id alone: a public client', async () => {
    const response = await signIn({ client_id: CONSOLE_CLIENT_ID });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().access_token).toEqual(expect.any(String));
  });

  it('still asks the confidential client for its secret', async () => {
    expect(
      (await signIn({ client_id: SCRIPTS.clientId, client_secret: SCRIPTS.clientSecret })).statusCode,
    ).toBe(200);
    for (const fields of <Record<string, string>[]>[
      { client_id: SCRIPTS.clientId },
      { client_id: SCRIPTS.clientId, client_secret: '' },
      { client_id: SCRIPTS.clientId, client_secret: 'not-the-secret' },
      { client_id: 'someone-else', client_secret: SCRIPTS.clientSecret },
    ]) {
      const refused = await signIn(fields);
      expect(refused.statusCode, JSON.stringify(fields)).toBe(401);
      expect(refused.json().error).toBe('invalid_client');
    }
  });
});
