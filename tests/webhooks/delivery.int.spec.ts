import type { DeliveryPage, WebhookWithSecret } from '@api/contracts/webhooks';
import { stockStreamId } from '@domain/inventory/stock';
import type { Connection } from '@temporalio/client';
import { callerOf, data } from '@tests/api/batches-support';
import { type Catalogue, seedCatalogue } from '@tests/api/orders-support';
import { createSeller, createTestApi, type TestApi, type TestSeller } from '@tests/support/api';
import { waitFor } from '@tests/support/wait';
import { setStock } from '@tests/workflows/stock-push-support';
import type { WebhookTiming } from '@workflows/webhook-protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectWebhookWorkflows,
  type Receiver,
  startReceiver,
  startWebhookWorker,
  verifyStandardWebhook,
} from './support';

/**
 * Webhook delivery end to end, on the real event store, wake reactor, Temporal dev server and a real HTTP receiver
 * started here: events appended → the endpoint's workflow → signed CloudEvents POSTs → the delivery log. Signatures
 * are checked with verifyStandardWebhook (tests/webhooks/support.ts), written from the spec, not with Kedai's signer.
 * The retry schedule is shortened to fractions of a second; production's is Standard Webhooks' three days.
 */

const TIMING: WebhookTiming = {
  retryScheduleMs: [150, 300, 600, 1_200],
  requestTimeoutMs: 400,
  idleRecheckMs: 5_000,
};

describe('webhook delivery', () => {
  let api: TestApi;
  let connection: Connection;
  let worker: Awaited<ReturnType<typeof startWebhookWorker>>;
  const receivers: Receiver[] = [];
  const call = callerOf(() => api);

  beforeAll(async () => {
    let workflows: Awaited<ReturnType<typeof connectWebhookWorkflows>>['workflows'];
    ({ connection, workflows } = await connectWebhookWorkflows(TIMING));
    api = await createTestApi({ overrides: { workflows, webhookTargets: { allowLoopback: true } } });
    worker = await startWebhookWorker(api, workflows);
  });

  afterAll(async () => {
    await worker?.stop();
    for (const receiver of receivers) await receiver.stop();
    await api?.close();
    await connection?.close();
  });

  /** A seller with a catalogue, a receiver, and an endpoint of theirs on it for stock adjustments. */
  async function endpoint() {
    const seller = await createSeller(api);
    const catalogue = await seedCatalogue(api, seller.tenantId);
    const receiver = await startReceiver();
    receivers.push(receiver);
    const hook = await addHook(seller, receiver.url);
    return { seller, catalogue, receiver, hook };
  }

  async function addHook(seller: TestSeller, url: string): Promise<WebhookWithSecret> {
    return data<WebhookWithSecret>(
      call('POST', '/api/webhooks', seller.token, { url, event_types: ['StockAdjusted'] }),
    );
  }

  /** Appends `count` stock adjustments one after another; their event ids in log order. */
  async function adjust(
    seller: TestSeller,
    catalogue: Catalogue,
    count: number,
    from = 1,
  ): Promise<string[]> {
    const target = { masterCodeId: catalogue.batik, warehouseId: catalogue.warehouseId };
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      await setStock(api.store, seller.tenantId, target, from + i);
      const last = await api.store.readLastEvent(
        stockStreamId(seller.tenantId, catalogue.batik, catalogue.warehouseId),
      );
      ids.push(last!.id);
    }
    return ids;
  }

  const deliveries = async (seller: TestSeller, hookId: string) =>
    (
      await data<DeliveryPage>(
        call('GET', `/api/webhooks/${hookId}/deliveries?startRow=0&endRow=500`, seller.token),
      )
    ).rows;

  const subscription = (seller: TestSeller, hookId: string) =>
    api.database.systemDb
      .selectFrom('webhook_subscriptions')
      .selectAll()
      .where('tenant_id', '=', seller.tenantId)
      .where('id', '=', hookId)
      .executeTakeFirstOrThrow();

  const announcements = (seller: TestSeller) =>
    api.database.systemDb
      .selectFrom('announcements')
      .select(['subject', 'content', 'created_at'])
      .where('tenant_id', '=', seller.tenantId)
      .orderBy('created_at')
      .execute();

  it('sends each event once, in log order, as signed CloudEvents JSON, and logs each delivery', async () => {
    const { seller, catalogue, receiver, hook } = await endpoint();
    const ids = await adjust(seller, catalogue, 15);
    await waitFor(() => receiver.acknowledgedIds().length === 15, { what: '15 deliveries' });
    expect(receiver.acknowledgedIds()).toEqual(ids);
    expect(receiver.received).toHaveLength(15);
    for (const request of receiver.received) {
      expect(verifyStandardWebhook(hook.secret, request.headers, request.body)).toBe(true);
      expect(
        verifyStandardWebhook(
          `whsec_${Buffer.alloc(32, 7).toString('base64')}`,
          request.headers,
          request.body,
        ),
      ).toBe(false);
      expect(request.headers['content-type']).toBe('application/cloudevents+json; charset=utf-8');
      const event = JSON.parse(request.body);
      expect(event).toMatchObject({
        specversion: '1.0',
        id: request.headers['webhook-id'],
        type: 'my.kedai.StockAdjusted',
      });
      expect(event.source).toBe(`/kedai/tenants/${seller.tenantId}`);
      expect(typeof event.time).toBe('string');
      expect(event.data).toMatchObject({ masterCodeId: catalogue.batik });
    }
    expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const log = await waitFor(async () => {
      const rows = await deliveries(seller, hook.webhook.id);
      return rows.length === 15 && rows;
    });
    expect(log.every((row) => row.outcome === 'delivered' && row.status === 200 && row.attempt === 1)).toBe(
      true,
    );
    expect(log[0]!.request_headers['webhook-signature']).toMatch(/^v1,/);
    expect(log[0]!.body_sha256).toMatch(/^[0-9a-f]{64}$/);
    const byPosition = await data<DeliveryPage>(
      call(
        'GET',
        `/api/webhooks/${hook.webhook.id}/deliveries?startRow=0&endRow=100&sortModel=${encodeURIComponent(
          JSON.stringify([{ colId: 'position', sort: 'asc' }]),
        )}`,
        seller.token,
      ),
    );
    expect(byPosition.rows.map((row) => row.event_id)).toEqual(ids);
    // The log's position is the feed's: the one the CloudEvent carries.
    const carried = new Map(
      receiver.received.map((r) => [JSON.parse(r.body).id, JSON.parse(r.body).position]),
    );
    expect(log.every((row) => carried.get(row.event_id) === row.position)).toBe(true);
  });

  it('retries a 500 with the same webhook-id after a backoff, and nothing after it goes first', async () => {
    const { seller, catalogue, receiver, hook } = await endpoint();
    let failures = 2;
    receiver.behave(() => (failures-- > 0 ? { status: 500 } : { status: 200 }));
    const ids = await adjust(seller, catalogue, 3);
    await waitFor(() => receiver.acknowledgedIds().length === 3, { what: '3 deliveries' });
    expect(receiver.acknowledgedIds()).toEqual(ids);
    const tries = receiver.received.filter((request) => request.headers['webhook-id'] === ids[0]);
    expect(tries.map((request) => request.status)).toEqual([500, 500, 200]);
    // The schedule's first two waits, at least (jitter only adds).
    expect(tries[1]!.at - tries[0]!.at).toBeGreaterThanOrEqual(150);
    expect(tries[2]!.at - tries[1]!.at).toBeGreaterThanOrEqual(300);
    for (const request of tries)
      expect(verifyStandardWebhook(hook.secret, request.headers, request.body)).toBe(true);
    const log = await deliveries(seller, hook.webhook.id);
    const first = log.filter((row) => row.event_id === ids[0]).sort((a, b) => a.attempt - b.attempt);
    expect(first.map((row) => [row.attempt, row.outcome, row.status])).toEqual([
      [1, 'failed', 500],
      [2, 'failed', 500],
      [3, 'delivered', 200],
    ]);
    expect((await subscription(seller, hook.webhook.id)).failing_since).toBeNull();
  });

  it('counts an answer slower than the timeout as a failure and tries again', async () => {
    const { seller, catalogue, receiver, hook } = await endpoint();
    let slow = true;
    receiver.behave(() => {
      if (!slow) return { status: 204 };
      slow = false;
      return { status: 200, delayMs: 1_500 };
    });
    const [id] = await adjust(seller, catalogue, 1);
    await waitFor(() => receiver.acknowledgedIds().includes(id!), { what: 'the second try' });
    const log = await waitFor(async () => {
      const rows = await deliveries(seller, hook.webhook.id);
      return rows.length === 2 && rows;
    });
    const timedOut = log.find((row) => row.attempt === 1)!;
    expect(timedOut).toMatchObject({ outcome: 'failed', status: null });
    expect(timedOut.error).toMatch(/no answer within 400 ms/);
    expect(log.find((row) => row.attempt === 2)).toMatchObject({ outcome: 'delivered', status: 204 });
  });

  it('loses nothing while the receiver is stopped and restarted as events keep coming', async () => {
    const { seller, catalogue, receiver, hook } = await endpoint();
    const before = await adjust(seller, catalogue, 3);
    await waitFor(() => receiver.acknowledgedIds().length === 3);
    await receiver.stop();
    const during = await adjust(seller, catalogue, 5, 10);
    await waitFor(
      async () => (await deliveries(seller, hook.webhook.id)).some((row) => row.outcome === 'failed'),
      {
        what: 'a failed try while the receiver is down',
      },
    );
    await receiver.start();
    const after = await adjust(seller, catalogue, 5, 20);
    const all = [...before, ...during, ...after];
    await waitFor(() => receiver.acknowledgedIds().length === all.length, {
      what: 'every event',
      timeoutMs: 60_000,
    });
    expect(receiver.acknowledgedIds()).toEqual(all);
    // A duplicate is only ever a retry of the same event: no id acknowledged twice here.
    const acknowledged = receiver.received.filter((request) => request.status === 200);
    expect(acknowledged).toHaveLength(all.length);
  });

  it('disables the endpoint at once on 410 Gone and tells the seller', async () => {
    const { seller, catalogue, receiver, hook } = await endpoint();
    receiver.behave(() => ({ status: 410 }));
    await adjust(seller, catalogue, 1);
    await waitFor(async () => (await subscription(seller, hook.webhook.id)).status === 'disabled', {
      what: 'the endpoint disabled',
    });
    expect((await subscription(seller, hook.webhook.id)).disabled_reason).toBe('gone');
    const told = await waitFor(async () => {
      const rows = await announcements(seller);
      return rows.length > 0 && rows;
    });
    expect(told.map((row) => row.subject)).toEqual(['Webhook endpoint disabled by its receiver']);
    // Another endpoint of the account gets the next event; the gone one gets nothing more.
    const other = await startReceiver();
    receivers.push(other);
    await addHook(seller, other.url);
    const [next] = await adjust(seller, catalogue, 1, 50);
    await waitFor(() => other.acknowledgedIds().includes(next!));
    expect(receiver.received).toHaveLength(1);
  });

  it('warns the seller before disabling an endpoint that keeps failing, and resumes where it stopped', async () => {
    const { seller, catalogue, receiver, hook } = await endpoint();
    receiver.behave(() => ({ status: 503 }));
    const [id] = await adjust(seller, catalogue, 1);
    await waitFor(async () => (await subscription(seller, hook.webhook.id)).status === 'disabled', {
      what: 'the endpoint disabled',
      timeoutMs: 60_000,
    });
    expect((await subscription(seller, hook.webhook.id)).disabled_reason).toBe('failing');
    // The first try and one per wait of the schedule.
    expect(receiver.received).toHaveLength(TIMING.retryScheduleMs.length + 1);
    await waitFor(async () => (await announcements(seller)).length === 2, { what: 'the two notices' });
    expect((await announcements(seller)).map((row) => row.subject)).toEqual([
      'Webhook deliveries are failing',
      'Webhook endpoint disabled',
    ]);
    receiver.behave(() => ({ status: 200 }));
    const later = await adjust(seller, catalogue, 2, 30);
    const enabled = await call('POST', `/api/webhooks/${hook.webhook.id}/enable`, seller.token);
    expect(enabled.statusCode, enabled.body).toBe(200);
    await waitFor(() => receiver.acknowledgedIds().length === 3, { what: 'the missed events' });
    expect(receiver.acknowledgedIds()).toEqual([id, ...later]);
  });

  it('signs with both secrets during a rotation window, and with the new one alone after', async () => {
    const { seller, catalogue, receiver, hook } = await endpoint();
    const rotated = await data<WebhookWithSecret>(
      call('POST', `/api/webhooks/${hook.webhook.id}/rotate`, seller.token, { window_hours: 1 }),
    );
    expect(rotated.secret).not.toBe(hook.secret);
    expect(rotated.webhook.previous_secret_until).not.toBeNull();
    await adjust(seller, catalogue, 1);
    await waitFor(() => receiver.received.length === 1);
    const [during] = receiver.received;
    expect(String(during!.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verifyStandardWebhook(hook.secret, during!.headers, during!.body)).toBe(true);
    expect(verifyStandardWebhook(rotated.secret, during!.headers, during!.body)).toBe(true);

    const again = await data<WebhookWithSecret>(
      call('POST', `/api/webhooks/${hook.webhook.id}/rotate`, seller.token, { window_hours: 0 }),
    );
    await adjust(seller, catalogue, 1, 40);
    await waitFor(() => receiver.received.length === 2);
    const after = receiver.received[1]!;
    expect(String(after.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(verifyStandardWebhook(again.secret, after.headers, after.body)).toBe(true);
    expect(verifyStandardWebhook(rotated.secret, after.headers, after.body)).toBe(false);
  });

  it('redelivers one event, and a range of positions, with the events’ own ids', async () => {
    const { seller, catalogue, receiver, hook } = await endpoint();
    const ids = await adjust(seller, catalogue, 5);
    await waitFor(() => receiver.acknowledgedIds().length === 5);
    const one = await call('POST', `/api/webhooks/${hook.webhook.id}/redeliver`, seller.token, {
      event_id: ids[2],
    });
    expect(one.statusCode, one.body).toBe(200);
    await waitFor(() => receiver.received.length === 6, { what: 'the redelivery' });
    expect(receiver.received[5]!.headers['webhook-id']).toBe(ids[2]);
    expect(
      verifyStandardWebhook(hook.secret, receiver.received[5]!.headers, receiver.received[5]!.body),
    ).toBe(true);

    const log = await deliveries(seller, hook.webhook.id);
    const position = (id: string) => log.find((row) => row.event_id === id && !row.redelivery)!.position;
    const range = await call('POST', `/api/webhooks/${hook.webhook.id}/redeliver`, seller.token, {
      from: position(ids[1]!),
      to: position(ids[3]!),
    });
    expect(range.statusCode, range.body).toBe(200);
    await waitFor(() => receiver.received.length === 9, { what: 'the range' });
    expect(receiver.received.slice(6).map((request) => request.headers['webhook-id'])).toEqual(
      ids.slice(1, 4),
    );
    const redeliveries = await waitFor(async () => {
      const rows = (await deliveries(seller, hook.webhook.id)).filter((row) => row.redelivery);
      return rows.length === 4 && rows;
    });
    expect(redeliveries.every((row) => row.outcome === 'delivered')).toBe(true);
  });
});
