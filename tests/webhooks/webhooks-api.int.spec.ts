import type { Webhook, WebhookList, WebhookWithSecret } from '@api/contracts/webhooks';
import { WebhookCode } from '@domain/webhooks/subscriptions';
import { callerOf, data, refusal } from '@tests/api/batches-support';
import {
  createSeller,
  createSubUser,
  createTestApi,
  type TestApi,
  type TestSeller,
} from '@tests/support/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The webhook routes on the real API (loopback endpoints not allowed, as in production): what is refused and how, the
 * secret shown only when made, the `appstore` key, and one account never seeing another's endpoints.
 */

describe('webhook subscriptions API', () => {
  let api: TestApi;
  let seller: TestSeller;
  let other: TestSeller;
  const call = callerOf(() => api);
  const PUBLIC = 'https://93.184.216.34/kedai/hooks';

  beforeAll(async () => {
    api = await createTestApi({ workflows: true });
    seller = await createSeller(api);
    other = await createSeller(api);
  });

  afterAll(async () => {
    await api?.close();
  });

  const add = (who: TestSeller, body: object, language?: string) =>
    call('POST', '/api/webhooks', who.token, body, language);

  it('adds an endpoint, answers its whsec_ secret once, and never again', async () => {
    const made = await data<WebhookWithSecret>(
      add(seller, {
        url: PUBLIC,
        event_types: ['StockAdjusted', 'my.kedai.OrderImported'],
        description: 'ERP',
      }),
    );
    expect(made.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(made.secret.slice(6), 'base64').length).toBeGreaterThanOrEqual(24);
    expect(made.webhook).toMatchObject({
      url: PUBLIC,
      status: 'enabled',
      event_types: ['OrderImported', 'StockAdjusted'],
      description: 'ERP',
      actions: ['disable', 'rotate', 'redeliver'],
    });
    const list = await call('GET', '/api/webhooks', seller.token);
    expect(list.body).not.toContain(made.secret.slice(6));
    const one = await call('GET', `/api/webhooks/${made.webhook.id}`, seller.token);
    expect(one.statusCode).toBe(200);
    expect(one.body).not.toContain(made.secret.slice(6));
    const listed = await data<WebhookList>(Promise.resolve(list));
    expect(listed.webhooks.map((hook) => hook.id)).toEqual([made.webhook.id]);
    expect(listed.event_types).toContain('StockAdjusted');
    expect(listed.event_types).not.toContain('SystemStarted');
  });

  it.each([
    ['not a URL', 'endpoint', WebhookCode.urlInvalid],
    ['a scheme other than https', 'ftp://93.184.216.34/hooks', WebhookCode.urlInvalid],
    ['plain http to the internet', 'http://93.184.216.34/hooks', WebhookCode.urlInvalid],
    ['a user name and password', 'https://me:secret@93.184.216.34/hooks', WebhookCode.urlInvalid],
    ['a private address', 'https://10.1.2.3/hooks', WebhookCode.urlNotAllowed],
    ['the cloud metadata address', 'https://169.254.169.254/latest/meta-data', WebhookCode.urlNotAllowed],
    ['a private address written as IPv6', 'https://[::ffff:192.168.1.10]/hooks', WebhookCode.urlNotAllowed],
    ['an IPv6 unique local address', 'https://[fd00::1]/hooks', WebhookCode.urlNotAllowed],
    ['this machine, where loopback is not allowed', 'http://127.0.0.1:8080/hooks', WebhookCode.urlNotAllowed],
    [
      'localhost over https, where loopback is not allowed',
      'https://localhost/hooks',
      WebhookCode.urlNotAllowed,
    ],
    ['a host that does not resolve', 'https://no-such-host.invalid/hooks', WebhookCode.urlUnresolved],
  ])('refuses %s with a 400 and its code', async (_what, url, code) => {
    const before = await data<WebhookList>(call('GET', '/api/webhooks', other.token));
    const answer = await refusal(add(other, { url, event_types: ['StockAdjusted'] }));
    expect(answer).toMatchObject({ status: 400, code });
    const after = await data<WebhookList>(call('GET', '/api/webhooks', other.token));
    expect(after.webhooks).toHaveLength(before.webhooks.length);
  });

  it('says why in the caller’s language', async () => {
    const answer = await refusal(
      add(other, { url: 'https://10.0.0.1/', event_types: ['StockAdjusted'] }, 'th-th'),
    );
    expect(answer.code).toBe(WebhookCode.urlNotAllowed);
    expect(answer.msg).toBe('URL นี้ชี้ไปยังที่อยู่ส่วนตัวหรือภายใน Webhook ส่งได้เฉพาะที่อยู่สาธารณะเท่านั้น');
  });

  it.each([
    ['no event type', []],
    ['an event type the feed does not publish', ['StockAdjusted', 'NoSuchThing']],
    ['a private platform event', ['SystemStarted']],
  ])('refuses %s', async (_what, types) => {
    expect(await refusal(add(other, { url: PUBLIC, event_types: types }))).toMatchObject({
      status: 400,
      code: WebhookCode.typesInvalid,
    });
  });

  it('rotates, disables and enables; actions follow the state', async () => {
    const made = await data<WebhookWithSecret>(add(seller, { url: PUBLIC, event_types: ['StockAdjusted'] }));
    const rotated = await data<WebhookWithSecret>(
      call('POST', `/api/webhooks/${made.webhook.id}/rotate`, seller.token, { window_hours: 24 }),
    );
    expect(rotated.secret).not.toBe(made.secret);
    expect(Date.parse(rotated.webhook.previous_secret_until!)).toBeGreaterThan(Date.now() + 23 * 3_600_000);
    const disabled = await data<Webhook>(
      call('POST', `/api/webhooks/${made.webhook.id}/disable`, seller.token),
    );
    expect(disabled).toMatchObject({
      status: 'disabled',
      disabled_reason: 'seller',
      actions: ['enable', 'rotate'],
    });
    expect(
      await refusal(
        call('POST', `/api/webhooks/${made.webhook.id}/redeliver`, seller.token, {
          event_id: made.webhook.id,
        }),
      ),
    ).toMatchObject({ status: 409, code: WebhookCode.disabled });
    const enabled = await data<Webhook>(
      call('POST', `/api/webhooks/${made.webhook.id}/enable`, seller.token),
    );
    expect(enabled).toMatchObject({ status: 'enabled', disabled_reason: null });
    expect(
      await refusal(
        call('POST', `/api/webhooks/${made.webhook.id}/redeliver`, seller.token, {
          event_id: made.webhook.id,
        }),
      ),
    ).toMatchObject({ status: 404, code: WebhookCode.deliveryNotFound });
    for (const range of [
      { from: '9-5', to: '9-4' },
      { from: 'abc', to: '9-4' },
      { from: '1-1', to: '99999999999999999999-1' },
    ])
      expect(
        await refusal(call('POST', `/api/webhooks/${made.webhook.id}/redeliver`, seller.token, range)),
      ).toMatchObject({ status: 400, code: WebhookCode.rangeInvalid });
    const deleted = await call('DELETE', `/api/webhooks/${made.webhook.id}`, seller.token);
    expect(deleted.statusCode).toBe(200);
    expect(await refusal(call('GET', `/api/webhooks/${made.webhook.id}`, seller.token))).toMatchObject({
      status: 404,
      code: WebhookCode.notFound,
    });
  });

  it("answers another account's endpoint, and an id that is not one, as missing", async () => {
    const mine = await data<WebhookWithSecret>(add(seller, { url: PUBLIC, event_types: ['StockAdjusted'] }));
    const theirs = await data<WebhookList>(call('GET', '/api/webhooks', other.token));
    expect(theirs.webhooks.map((hook) => hook.id)).not.toContain(mine.webhook.id);
    for (const [method, suffix, body] of [
      ['GET', '', undefined],
      ['PUT', '', { url: PUBLIC, event_types: ['StockAdjusted'] }],
      ['POST', '/disable', undefined],
      ['POST', '/rotate', {}],
      ['GET', '/deliveries', undefined],
      ['DELETE', '', undefined],
    ] as const) {
      const answer = await refusal(
        call(method, `/api/webhooks/${mine.webhook.id}${suffix}`, other.token, body),
      );
      expect(answer, `${method} ${suffix}`).toMatchObject({ status: 404, code: WebhookCode.notFound });
    }
    expect(await refusal(call('GET', '/api/webhooks/not-a-uuid', seller.token))).toMatchObject({
      status: 404,
    });
    expect((await call('GET', `/api/webhooks/${mine.webhook.id}`, seller.token)).statusCode).toBe(200);
  });

  it('needs the appstore key', async () => {
    const clerk = await createSubUser(api, seller.tenantId, ['inventory-manage-sync']);
    expect((await call('GET', '/api/webhooks', clerk.token)).statusCode).toBe(403);
    expect(
      (await add({ ...seller, token: clerk.token }, { url: PUBLIC, event_types: ['StockAdjusted'] }))
        .statusCode,
    ).toBe(403);
    const integrator = await createSubUser(api, seller.tenantId, ['appstore']);
    expect((await call('GET', '/api/webhooks', integrator.token)).statusCode).toBe(200);
  });
});
