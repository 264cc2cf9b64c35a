import { randomUUID } from 'node:crypto';
import { triggerFullAutoBatches } from '@commands/batches/auto-batch';
import { loadOrder } from '@commands/orders/order';
import { BATCHES_PROJECTION } from '@projections/batches';
import { ScheduleNotFoundError } from '@temporalio/client';
import { callerOf, data, type MadeOrder, makeOrders, refusal } from '@tests/api/batches-support';
import { type Catalogue, seedCatalogue } from '@tests/api/orders-support';
import { createSeller, createTestApi, type TestApi, type TestSeller } from '@tests/support/api';
import { waitFor } from '@tests/support/wait';
import {
  AUTO_BATCH_WORKFLOW,
  type AutoBatchOutcome,
  autoBatchFullWorkflowId,
  autoBatchScheduleId,
} from '@workflows/auto-batch-protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Auto batch (spec §3, §4 "Auto batch creates a new batch when the order count reaches the maximum or the scheduled
 * time is reached", §5 "Duplicate config", §9 every 1 or 2 hours) on the run's real Temporal dev server: a saved
 * active configuration gets its schedule; the orders waiting for it are batched in full batches as soon as their
 * count reaches the maximum — once, however many triggers arrive — and the rest when its schedule's run comes (here
 * started directly rather than waited for).
 */

interface ConfigAnswer {
  id: string;
  active: boolean;
  times: string[];
  timezone: string;
  waiting_orders: number;
  last_batch_count: number | null;
}

/** A window the schedule will not fire in while the tests run (Malaysian time: the accounts are Malaysian). */
function quietWindow(): { start_time: string; end_time: string } {
  const hour = Number(
    new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Asia/Kuala_Lumpur',
      hour: '2-digit',
      hourCycle: 'h23',
    }).format(new Date()),
  );
  return hour >= 5 ? { start_time: '01:00', end_time: '03:00' } : { start_time: '20:00', end_time: '22:00' };
}

describe('auto batch', () => {
  let api: TestApi;
  const call = callerOf(() => api);

  beforeAll(async () => {
    api = await createTestApi({ workflows: true });
  });
  afterAll(async () => {
    await api?.close();
  });

  async function account(): Promise<{ seller: TestSeller; catalogue: Catalogue }> {
    const seller = await createSeller(api);
    return { seller, catalogue: await seedCatalogue(api, seller.tenantId) };
  }

  const configBody = (changes: Record<string, unknown> = {}) => ({
    name: 'Lazada by courier',
    active: true,
    interval_hours: 2,
    ...quietWindow(),
    max_orders: 3,
    split: 'logistics',
    condition: { platforms: ['lazada'] },
    ...changes,
  });

  /** The account's batches made by a configuration, oldest first: [group, order ids]. */
  async function batchesOf(tenantId: string, configId: string) {
    await api.engine.catchUp(BATCHES_PROJECTION);
    const rows = await api.database.db
      .selectFrom('batches')
      .select(['id', 'label', 'group_value', 'order_ids', 'source'])
      .where('tenant_id', '=', tenantId)
      .where('config_id', '=', configId)
      .orderBy('number')
      .execute();
    return rows;
  }

  async function runSettled(workflowId: string) {
    const handle = api.workflows.client.workflow.getHandle(workflowId);
    await waitFor(async () => (await handle.describe()).status.name !== 'RUNNING', {
      what: `${workflowId} done`,
    });
  }

  it('saves a configuration with its schedule; refuses a duplicate; removes the schedule when inactive', async () => {
    const { seller } = await account();
    const window = quietWindow();
    const saved = await data<ConfigAnswer>(
      call('POST', '/api/orders/batch-settings', seller.token, configBody()),
    );
    expect(saved).toMatchObject({ active: true, timezone: 'Asia/Kuala_Lumpur' });
    expect(saved.times).toEqual([
      window.start_time,
      `${window.start_time.slice(0, 2) === '01' ? '03' : '22'}:00`,
    ]);

    const schedule = api.workflows.client.schedule.getHandle(autoBatchScheduleId(seller.tenantId, saved.id));
    const description = await schedule.describe();
    expect(description.action).toMatchObject({ type: 'startWorkflow', workflowType: AUTO_BATCH_WORKFLOW });
    const hours = description.info.nextActionTimes.map((time) =>
      new Intl.DateTimeFormat('en-GB', {
        timeZone: 'Asia/Kuala_Lumpur',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
      }).format(time),
    );
    expect(hours.length).toBeGreaterThan(0);
    for (const hour of hours) expect(saved.times).toContain(hour);

    // The same batching under another name, or inactive, is the same configuration.
    expect(
      await refusal(call('POST', '/api/orders/batch-settings', seller.token, configBody({ name: 'Again' }))),
    ).toEqual({ status: 409, code: 624, msg: 'Duplicate config' });
    expect(
      await refusal(
        call('POST', '/api/orders/batch-settings', seller.token, configBody({ active: false, name: 'Off' })),
      ),
    ).toMatchObject({ status: 409, code: 624 });
    // Another maximum is another configuration.
    const other = await data<ConfigAnswer>(
      call('POST', '/api/orders/batch-settings', seller.token, configBody({ max_orders: 4, active: false })),
    );
    expect(
      await refusal(call('PUT', `/api/orders/batch-settings/${other.id}`, seller.token, configBody())),
    ).toMatchObject({ status: 409, code: 624 });

    expect(
      await refusal(
        call('POST', '/api/orders/batch-settings', seller.token, configBody({ interval_hours: 3 })),
      ),
    ).toMatchObject({ status: 400, code: 635, msg: 'Auto batch runs every 1 hour or every 2 hours' });
    expect(
      await refusal(
        call(
          'POST',
          '/api/orders/batch-settings',
          seller.token,
          configBody({ start_time: '18:00', end_time: '09:00' }),
        ),
      ),
    ).toMatchObject({ status: 400, code: 636 });
    expect(
      await refusal(
        call(
          'POST',
          '/api/orders/batch-settings',
          seller.token,
          configBody({ condition: { store_ids: [randomUUID()] } }),
        ),
      ),
    ).toMatchObject({ status: 400, code: 643 });

    const off = await data<ConfigAnswer>(
      call('PUT', `/api/orders/batch-settings/${saved.id}`, seller.token, configBody({ active: false })),
    );
    expect(off.active).toBe(false);
    await expect(schedule.describe()).rejects.toBeInstanceOf(ScheduleNotFoundError);

    const list = await data<ConfigAnswer[]>(call('GET', '/api/orders/batch-settings', seller.token));
    expect(list.map((config) => config.id)).toEqual([saved.id, other.id]);
    await data(call('DELETE', `/api/orders/batch-settings/${saved.id}`, seller.token));
    await data(call('DELETE', `/api/orders/batch-settings/${other.id}`, seller.token));
    expect(await data<ConfigAnswer[]>(call('GET', '/api/orders/batch-settings', seller.token))).toEqual([]);

    // Another account sees none of it.
    const stranger = await createSeller(api);
    expect((await call('DELETE', `/api/orders/batch-settings/${other.id}`, stranger.token)).statusCode).toBe(
      404,
    );
  });

  it('batches full batches when the count reaches the maximum, and the rest when the schedule runs', async () => {
    const { seller, catalogue } = await account();
    const config = await data<ConfigAnswer>(
      call('POST', '/api/orders/batch-settings', seller.token, configBody()),
    );
    const lazada = (shippingProvider: string) => ({ platform: 'lazada' as const, shippingProvider });
    const jnt: MadeOrder[] = [];
    const ninja: MadeOrder[] = [];
    // Orders arrive one by one; another platform's orders are not this configuration's.
    for (let index = 0; index < 5; index++) {
      jnt.push(...(await makeOrders(api, seller.tenantId, catalogue, [lazada('J&T Express')])));
      if (index < 2)
        ninja.push(...(await makeOrders(api, seller.tenantId, catalogue, [lazada('Ninja Van')])));
    }
    const shopee = await makeOrders(api, seller.tenantId, catalogue, [{ shippingProvider: 'J&T Express' }]);

    // The third J&T order made the count reach 3: one full batch, the oldest three.
    await waitFor(async () => (await batchesOf(seller.tenantId, config.id)).length === 1, {
      what: 'the full batch',
    });
    await runSettled(autoBatchFullWorkflowId(seller.tenantId, config.id));
    const full = await waitFor(async () => {
      const found = await batchesOf(seller.tenantId, config.id);
      return found.length === 1 && found;
    });
    expect(full.map((batch) => [batch.group_value, batch.order_ids])).toEqual([
      ['J&T Express', jnt.slice(0, 3).map((order) => order.orderId)],
    ]);

    // The schedule's time comes: everything still waiting is batched, by courier.
    const outcome = await api.workflows.client.workflow.execute(AUTO_BATCH_WORKFLOW, {
      taskQueue: api.workflows.taskQueue,
      workflowId: `${autoBatchScheduleId(seller.tenantId, config.id)}-${new Date().toISOString()}`,
      args: [{ tenantId: seller.tenantId, configId: config.id, trigger: 'schedule' }],
    });
    expect((outcome as AutoBatchOutcome).batches).toHaveLength(2);
    const all = await waitFor(async () => {
      const found = await batchesOf(seller.tenantId, config.id);
      return found.length === 3 && found;
    });
    expect(all.map((batch) => [batch.group_value, batch.order_ids, batch.source])).toEqual([
      ['J&T Express', jnt.slice(0, 3).map((order) => order.orderId), 'auto'],
      ['J&T Express', jnt.slice(3).map((order) => order.orderId), 'auto'],
      ['Ninja Van', ninja.map((order) => order.orderId), 'auto'],
    ]);
    expect(all.map((batch) => batch.label)).toEqual(['B0001', 'B0002', 'B0003']);
    for (const batch of all) {
      for (const orderId of batch.order_ids) {
        expect((await loadOrder(api.store, seller.tenantId, orderId)).batchId).toBe(batch.id);
      }
    }
    expect((await loadOrder(api.store, seller.tenantId, shopee[0]!.orderId)).batchId).toBeNull();
    const [saved] = await data<ConfigAnswer[]>(call('GET', '/api/orders/batch-settings', seller.token));
    expect(saved).toMatchObject({ waiting_orders: 0, last_batch_count: 2 });

    // A later run finds nothing waiting and makes nothing.
    const again = await data<{ batches: unknown[] }>(
      call('POST', `/api/orders/batch-settings/${config.id}/run`, seller.token, {}),
    );
    expect(again.batches).toEqual([]);
    await data(call('DELETE', `/api/orders/batch-settings/${config.id}`, seller.token));
  });

  it('fires the count trigger once: triggers arriving together make one batch', async () => {
    const { seller, catalogue } = await account();
    const config = await data<ConfigAnswer>(
      call(
        'POST',
        '/api/orders/batch-settings',
        seller.token,
        configBody({ active: false, max_orders: 2, split: 'none', condition: { platforms: ['tiktokshop'] } }),
      ),
    );
    const orders = await makeOrders(api, seller.tenantId, catalogue, [
      { platform: 'tiktokshop' },
      { platform: 'tiktokshop' },
    ]);
    // Switched on behind the API's back, so no trigger of its own runs: the test sends them.
    await api.database.db
      .updateTable('auto_batch_configs')
      .set({ active: true })
      .where('id', '=', config.id)
      .execute();
    const started = await Promise.all(
      Array.from({ length: 3 }, () =>
        triggerFullAutoBatches(api.database.db, api.workflows, seller.tenantId),
      ),
    );
    expect(started.flat().length).toBeGreaterThan(0);
    await runSettled(autoBatchFullWorkflowId(seller.tenantId, config.id));
    const batches = await waitFor(async () => {
      const found = await batchesOf(seller.tenantId, config.id);
      return found.length > 0 && found;
    });
    expect(batches.map((batch) => [...batch.order_ids].sort())).toEqual([
      orders.map((order) => order.orderId).sort(),
    ]);
    for (const order of orders) {
      expect((await loadOrder(api.store, seller.tenantId, order.orderId)).batchId).toBe(batches[0]!.id);
    }
    // Nothing waits now: a further trigger starts no run.
    expect(await triggerFullAutoBatches(api.database.db, api.workflows, seller.tenantId)).toEqual([]);
    await data(call('DELETE', `/api/orders/batch-settings/${config.id}`, seller.token));
  });

  it('runs a configuration now on request, batching every waiting order in batches of its maximum', async () => {
    const { seller, catalogue } = await account();
    const orders = await makeOrders(api, seller.tenantId, catalogue, [
      { platform: 'shopify' },
      { platform: 'shopify' },
      { platform: 'shopify', preOrder: true },
    ]);
    const config = await data<ConfigAnswer>(
      call(
        'POST',
        '/api/orders/batch-settings',
        seller.token,
        configBody({ max_orders: 5, split: 'none', condition: { platforms: ['shopify'] } }),
      ),
    );
    const run = await data<{ batches: { id: string; label: string; orders: number }[] }>(
      call('POST', `/api/orders/batch-settings/${config.id}/run`, seller.token, { idempotency_key: 'now-1' }),
    );
    expect(run.batches.map((batch) => [batch.label, batch.orders])).toEqual([['B0001', 2]]);
    // A pre-order waits for a pre-order configuration.
    expect((await loadOrder(api.store, seller.tenantId, orders[2]!.orderId)).batchId).toBeNull();
    // The same request again joins the same run.
    const same = await data<{ batches: { id: string }[] }>(
      call('POST', `/api/orders/batch-settings/${config.id}/run`, seller.token, { idempotency_key: 'now-1' }),
    );
    expect(same.batches.map((batch) => batch.id)).toEqual(run.batches.map((batch) => batch.id));
    await data(call('DELETE', `/api/orders/batch-settings/${config.id}`, seller.token));
  });
});
