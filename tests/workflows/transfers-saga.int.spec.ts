import { randomBytes } from 'node:crypto';
import { refusalIn } from '@api/workflows';
import { transferWorkflowId } from '@domain/transfers/transfer';
import { createMailer } from '@infra/mail';
import { createKedaiWorker } from '@infra/temporal';
import { Client, Connection } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { data } from '@tests/api/inventory/inventory-api';
import { expectCode, type TransferAnswer, transferCalls } from '@tests/api/transfers-support';
import { createSeller, createTestApi, type TestApi, type TestSeller } from '@tests/support/api';
import { sharedTemporal } from '@tests/support/temporal';
import { createActivities } from '@workflows/activities';
import type { StepInput } from '@workflows/activities/transfers';
import { shipTransferUpdate, transferStateQuery } from '@workflows/transfer-protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The transfer workflow as a saga, on the run's real Temporal dev server: a stock step that fails for good (here a
 * refusal planted in the worker's step activity) makes the workflow undo the steps of the same action that had
 * succeeded, newest first, with the undo each recorded; the transfer stays as it was, and the action can be tried
 * again. The workflow's own validator refuses a user without "manage transfer".
 */
describe('the transfer saga', () => {
  const taskQueue = `transfer-saga-${randomBytes(4).toString('hex')}`;
  let connection: Connection;
  let client: Client;
  let api: TestApi;
  let seller: TestSeller;
  let stopWorker: () => Promise<void>;
  const t = transferCalls(() => api);
  /** The step that fails for good while set: its name and master code. */
  let failAt: { step: string; masterCodeId: string } | null = null;

  beforeAll(async () => {
    const shared = sharedTemporal();
    connection = await Connection.connect({ address: shared.address });
    client = new Client({ connection, namespace: shared.namespace });
    api = await createTestApi({ overrides: { workflows: { client, taskQueue } } });
    seller = await createSeller(api, { packageId: 'growth' });
    const real = createActivities({
      engine: api.engine,
      db: api.database.db,
      store: api.store,
      mailer: createMailer(
        api.database.db,
        { from: 'Kedai <no-reply@kedai.test>' },
        { info() {}, error() {} },
      ),
    });
    const worker = await createKedaiWorker({
      address: shared.address,
      namespace: shared.namespace,
      taskQueue,
      bundlePath: shared.bundlePath,
      activities: {
        ...real,
        async runTransferStep(input: StepInput) {
          if (failAt && input.step === failAt.step && input.movement.masterCodeId === failAt.masterCodeId) {
            throw ApplicationFailure.create({
              type: 'STOCK_REFUSED',
              message: 'planted',
              nonRetryable: true,
            });
          }
          return real.runTransferStep(input);
        },
      },
    });
    const running = worker.run();
    stopWorker = async () => {
      await worker.shutdown();
      await running.catch(() => undefined);
    };
  });

  afterAll(async () => {
    await stopWorker?.();
    await api?.close();
    await connection?.close();
  });

  it('undoes the steps of a ship that failed half way, then ships once when tried again', async () => {
    const main = await t.stock.warehouse(seller.token, 'MAIN');
    const shop = await t.stock.branch(seller.token, 'JB1');
    const [kain, tudung] = [
      await t.stock.masterCode(seller.token, 'KAIN'),
      await t.stock.masterCode(seller.token, 'TUDUNG'),
    ];
    for (const item of [kain, tudung]) {
      data(
        await t.stock.receive(seller.token, { master_code_id: item.id, warehouse_id: main.id, quantity: 10 }),
      );
    }
    const made = data<{ id: string }>(
      await t.createTransfer(seller.token, {
        from_warehouse_id: main.id,
        to_warehouse_id: shop.id,
        lines: [
          { master_code_id: kain.id, quantity: 3 },
          { master_code_id: tudung.id, quantity: 2 },
        ],
      }),
    );

    // The second line's expectation at the destination fails for good: kain out, kain expected, tudung out are undone.
    failAt = { step: 'expect', masterCodeId: tudung.id };
    const failed = expectCode(await t.transferAction(seller.token, made.id, 'ship'), 409, 515);
    expect(failed.msg).toBe(
      'Could not ship the transfer (STOCK_REFUSED): the steps already taken were undone and nothing moved.',
    );
    for (const item of [kain, tudung]) {
      expect(await t.figures(seller.tenantId, item.id, main.id)).toEqual({ onHand: 10, incoming: 0 });
      expect(await t.figures(seller.tenantId, item.id, shop.id)).toEqual({ onHand: 0, incoming: 0 });
    }
    let transfer = await t.transfer(seller.token, made.id);
    expect(transfer.status).toBe('pending');
    const saga = transfer.timeline
      .filter((entry) => entry.type !== 'TransferCreated')
      .map((entry) => {
        const movement = (entry.data.movement ?? (entry.data.movements as unknown[] | undefined)?.[0]) as
          | { type: string; masterCodeId: string }
          | undefined;
        return [
          entry.type,
          movement?.type ?? null,
          movement?.masterCodeId === kain.id ? 'kain' : movement ? 'tudung' : null,
        ];
      });
    expect(saga).toEqual([
      ['TransferStepRecorded', 'TransferStockOut', 'kain'],
      ['TransferStepRecorded', 'ExpectStock', 'kain'],
      ['TransferStepRecorded', 'TransferStockOut', 'tudung'],
      // Undone newest first, each with the movements its step recorded.
      ['TransferStepCompensated', 'TransferStockIn', 'tudung'],
      ['TransferStepCompensated', 'CancelExpectedStock', 'kain'],
      ['TransferStepCompensated', 'TransferStockIn', 'kain'],
      ['TransferActionFailed', null, null],
    ]);

    // Tried again without the failure: a new attempt, its own command ids, the stock moves once.
    failAt = null;
    transfer = data<TransferAnswer>(await t.transferAction(seller.token, made.id, 'ship'));
    expect(transfer.status).toBe('in_transit');
    expect(await t.figures(seller.tenantId, kain.id, main.id)).toEqual({ onHand: 7, incoming: 0 });
    expect(await t.figures(seller.tenantId, tudung.id, shop.id)).toEqual({ onHand: 0, incoming: 2 });

    // A receipt failing on its second line undoes the first line's receipt: back in transit, expected again.
    failAt = { step: 'in', masterCodeId: tudung.id };
    expectCode(
      await t.transferAction(seller.token, made.id, 'receive', {
        lines: [
          { master_code_id: kain.id, quantity: 3 },
          { master_code_id: tudung.id, quantity: 1 },
        ],
      }),
      409,
      515,
    );
    expect(await t.figures(seller.tenantId, kain.id, shop.id)).toEqual({ onHand: 0, incoming: 3 });
    expect((await t.transfer(seller.token, made.id)).lines.map((line) => line.in_transit)).toEqual([3, 2]);
    failAt = null;
    transfer = data<TransferAnswer>(
      await t.transferAction(seller.token, made.id, 'receive', {
        lines: [
          { master_code_id: kain.id, quantity: 3 },
          { master_code_id: tudung.id, quantity: 2 },
        ],
      }),
    );
    expect(transfer.status).toBe('completed');
    expect(await t.figures(seller.tenantId, kain.id, shop.id)).toEqual({ onHand: 3, incoming: 0 });
    expect(await t.figures(seller.tenantId, kain.id, main.id)).toEqual({ onHand: 7, incoming: 0 });
  });

  it("refuses in the workflow's own validator a user without the key, and answers its state", async () => {
    const main = await t.stock.warehouse(seller.token, 'MAIN2');
    const shop = await t.stock.branch(seller.token, 'JB2');
    const item = await t.stock.masterCode(seller.token, 'SARUNG');
    data(
      await t.stock.receive(seller.token, { master_code_id: item.id, warehouse_id: main.id, quantity: 5 }),
    );
    const made = data<{ id: string }>(
      await t.createTransfer(seller.token, {
        from_warehouse_id: main.id,
        to_warehouse_id: shop.id,
        lines: [{ master_code_id: item.id, quantity: 1 }],
      }),
    );
    const handle = client.workflow.getHandle(transferWorkflowId(seller.tenantId, made.id));
    const refused = await handle
      .executeUpdate(shipTransferUpdate, {
        args: [{ userId: seller.userId, permissions: ['transfer-manage-request'] }],
      })
      .then(
        () => null,
        (error: unknown) => refusalIn(error),
      );
    expect(refused).toEqual({ code: 'NOT_ALLOWED', params: {} });
    expect(await handle.query(transferStateQuery)).toMatchObject({
      status: 'pending',
      busy: null,
      actions: 0,
    });
    expect(await t.figures(seller.tenantId, item.id, main.id)).toEqual({ onHand: 5, incoming: 0 });
    data(await t.transferAction(seller.token, made.id, 'cancel'));
    expect(await handle.result()).toEqual({ status: 'cancelled' });
  });
});
