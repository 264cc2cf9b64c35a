import { randomBytes } from 'node:crypto';
import type { WebhookWithSecret } from '@api/contracts/webhooks';
import { createWebhookWakeReactor } from '@commands/webhooks/wake-reactor';
import { stockStreamId } from '@domain/inventory/stock';
import { ReactorRunner } from '@projections/runtime/reactor';
import { Client, Connection } from '@temporalio/client';
import { callerOf, data } from '@tests/api/batches-support';
import { type Catalogue, seedCatalogue } from '@tests/api/orders-support';
import { createSeller, createTestApi, type TestApi, type TestSeller } from '@tests/support/api';
import { type Child, startSharedWorkerChild } from '@tests/support/child';
import { sharedTemporal } from '@tests/support/temporal';
import { waitFor } from '@tests/support/wait';
import { setStock } from '@tests/workflows/stock-push-support';
import type { WebhookTiming } from '@workflows/webhook-protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Receiver, startReceiver, verifyStandardWebhook } from './support';

/**
 * Issue 16, "a crash never loses or reorders": the worker is SIGKILLed while a receiver holds a delivery, and events
 * keep coming. A new worker takes the endpoint's workflow over; every event reaches the receiver, first
 * acknowledged in log order, and an event sent twice is only ever the same one again (the same webhook-id).
 */

const TIMING: WebhookTiming = {
  retryScheduleMs: [200, 400, 800, 1_600, 3_200],
  requestTimeoutMs: 20_000,
  idleRecheckMs: 5_000,
};

describe('webhook delivery survives a killed worker', () => {
  const taskQueue = `webhooks-crash-${randomBytes(4).toString('hex')}`;
  const children: Child[] = [];
  let connection: Connection;
  let api: TestApi;
  let reactors: ReactorRunner;
  let seller: TestSeller;
  let catalogue: Catalogue;
  let receiver: Receiver;
  const call = callerOf(() => api);

  beforeAll(async () => {
    const shared = sharedTemporal();
    connection = await Connection.connect({ address: shared.address });
    const workflows = {
      client: new Client({ connection, namespace: shared.namespace }),
      taskQueue,
      webhookTiming: TIMING,
    };
    api = await createTestApi({ overrides: { workflows, webhookTargets: { allowLoopback: true } } });
    const db = api.database.systemDb;
    reactors = new ReactorRunner({
      db,
      store: api.store,
      reactors: [createWebhookWakeReactor({ db, workflows })],
      retryMs: 50,
    });
    reactors.start();
    seller = await createSeller(api);
    catalogue = await seedCatalogue(api, seller.tenantId);
    receiver = await startReceiver();
  });

  afterAll(async () => {
    await reactors?.stop();
    for (const child of children) child.kill('SIGKILL');
    await Promise.all(children.map((child) => child.exited));
    await receiver?.stop();
    await api?.close();
    await connection?.close();
  });

  const startWorker = () =>
    startSharedWorkerChild(api.database.url, taskQueue, children, { WEBHOOK_LOOPBACK: 'on' });

  async function adjust(count: number, from: number): Promise<string[]> {
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

  it('delivers every event in order across the kill, duplicates only as the same webhook-id', async () => {
    const first = await startWorker();
    const hook = await data<WebhookWithSecret>(
      call('POST', '/api/webhooks', seller.token, { url: receiver.url, event_types: ['StockAdjusted'] }),
    );
    // The 6th request is held (its answer would come long after the worker is gone).
    let requests = 0;
    receiver.behave(() => (++requests === 6 ? { status: 200, delayMs: 60_000 } : { status: 200 }));
    const before = await adjust(10, 1);
    await waitFor(() => requests >= 6, { what: 'the held delivery' });
    first.kill('SIGKILL');
    await first.exited;
    const during = await adjust(5, 100);
    await startWorker();
    const after = await adjust(5, 200);
    const all = [...before, ...during, ...after];
    await waitFor(() => receiver.acknowledgedIds().length === all.length, {
      what: 'every event acknowledged',
      timeoutMs: 90_000,
    });
    expect(receiver.acknowledgedIds()).toEqual(all);
    // What reached the receiver, in arrival order with repeats dropped, is the log's order too.
    const arrived = [...new Set(receiver.received.map((request) => String(request.headers['webhook-id'])))];
    expect(arrived).toEqual(all);
    for (const request of receiver.received)
      expect(verifyStandardWebhook(hook.secret, request.headers, request.body)).toBe(true);
    // The held event went again after the kill, with its own id.
    expect(
      receiver.received.filter((request) => request.headers['webhook-id'] === before[5]).length,
    ).toBeGreaterThanOrEqual(2);
  });
});
