import { ensureHoldReleaseSchedule } from '@commands/orders/hold-release-schedule';
import { loadOrder } from '@commands/orders/order';
import {
  importOrder,
  line,
  marketplaceOrder,
  packageOfMonthlyOrders,
  seedCatalogue,
} from '@tests/api/orders-support';
import { createSeller, createTestApi, type TestApi } from '@tests/support/api';
import { waitFor } from '@tests/support/wait';
import {
  ORDER_HOLD_RELEASE_EVERY_MS,
  ORDER_HOLD_RELEASE_SCHEDULE,
  ORDER_HOLD_RELEASE_WORKFLOW,
} from '@workflows/order-hold-release-protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * What drives the release of orders held over the monthly order limit, on the run's real Temporal dev server: the
 * worker's start makes the schedule (twice is harmless); a round of it (triggered here rather than waited for) lets
 * in the held orders of an account whose package now allows them, and announces to an account still over.
 */
describe('the held orders release schedule', () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await createTestApi({ workflows: true });
  });
  afterAll(async () => {
    await api?.workflows.client.schedule
      .getHandle(ORDER_HOLD_RELEASE_SCHEDULE)
      .delete()
      .catch(() => undefined);
    await api?.close();
  });

  it('is made at start, and its round releases the orders a larger package allows', async () => {
    const oneAMonth = await packageOfMonthlyOrders(api, 1);
    const upgraded = await createSeller(api, { packageId: oneAMonth });
    const still = await createSeller(api, { packageId: oneAMonth });
    const heldOf = async (tenantId: string) => {
      const catalogue = await seedCatalogue(api, tenantId);
      await importOrder(api, tenantId, catalogue.warehouseId, marketplaceOrder([line('BATIK-01', 1)]));
      return importOrder(api, tenantId, catalogue.warehouseId, marketplaceOrder([line('BATIK-01', 1)]));
    };
    const released = await heldOf(upgraded.tenantId);
    const kept = await heldOf(still.tenantId);
    expect(await loadOrder(api.store, upgraded.tenantId, released)).toMatchObject({ onHold: true });
    await api.database.db
      .updateTable('tenants')
      .set({ package_id: 'growth' })
      .where('id', '=', upgraded.tenantId)
      .execute();

    await ensureHoldReleaseSchedule(api.workflows);
    await ensureHoldReleaseSchedule(api.workflows);
    const schedule = api.workflows.client.schedule.getHandle(ORDER_HOLD_RELEASE_SCHEDULE);
    const description = await schedule.describe();
    expect(description.action).toMatchObject({
      type: 'startWorkflow',
      workflowType: ORDER_HOLD_RELEASE_WORKFLOW,
      taskQueue: api.workflows.taskQueue,
    });
    expect(description.spec.intervals?.[0]?.every).toBe(ORDER_HOLD_RELEASE_EVERY_MS);

    await schedule.trigger();
    await waitFor(async () => (await loadOrder(api.store, upgraded.tenantId, released)).onHold === false, {
      what: 'the upgraded account’s held order released',
    });
    expect(await loadOrder(api.store, upgraded.tenantId, released)).toMatchObject({ status: 'new' });
    expect(await loadOrder(api.store, still.tenantId, kept)).toMatchObject({ onHold: true });
    // The account still over its limit is told.
    await waitFor(
      async () =>
        (await api.database.db
          .selectFrom('announcements')
          .select('id')
          .where('tenant_id', '=', still.tenantId)
          .executeTakeFirst()) !== undefined,
      { what: 'the announcement to the account still over its limit' },
    );
  });
});
