import { randomBytes } from 'node:crypto';
import { transferWorkflowId } from '@domain/transfers/transfer';
import { Client, Connection } from '@temporalio/client';
import { data } from '@tests/api/inventory/inventory-api';
import { type TransferAnswer, transferCalls } from '@tests/api/transfers-support';
import { createSeller, createTestApi, type TestApi, type TestSeller } from '@tests/support/api';
import { type Child, startSharedWorkerChild } from '@tests/support/child';
import { sharedTemporal } from '@tests/support/temporal';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Issue 5, "Failure and bad input": the worker is SIGKILLed in the middle of a transfer (after ship, before receive)
 * on the run's real Temporal dev server; a new worker takes the workflow over, the receipt completes it, and every
 * line's stock moved exactly once — one stock-out at the source, one expectation and one stock-in at the destination.
 */
describe('a transfer survives a killed worker', () => {
  const taskQueue = `transfer-crash-${randomBytes(4).toString('hex')}`;
  const children: Child[] = [];
  let connection: Connection;
  let client: Client;
  let api: TestApi;
  let seller: TestSeller;
  const t = transferCalls(() => api);

  beforeAll(async () => {
    const shared = sharedTemporal();
    connection = await Connection.connect({ address: shared.address });
    client = new Client({ connection, namespace: shared.namespace });
    api = await createTestApi({ overrides: { workflows: { client, taskQueue } } });
    seller = await createSeller(api, { packageId: 'growth' });
  });

  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    await Promise.all(children.map((child) => child.exited));
    await api?.close();
    await connection?.close();
  });

  /** A worker process on the test's database and task queue; resolves once it polls. */
  const startWorker = () => startSharedWorkerChild(api.database.url, taskQueue, children);

  it('completes after a SIGKILL between ship and receive, moving each line once', async () => {
    const main = await t.stock.warehouse(seller.token, 'MAIN');
    const shop = await t.stock.branch(seller.token, 'PG1');
    const items = [
      await t.stock.masterCode(seller.token, 'KAIN'),
      await t.stock.masterCode(seller.token, 'TUDUNG'),
    ];
    for (const item of items) {
      data(
        await t.stock.receive(seller.token, { master_code_id: item.id, warehouse_id: main.id, quantity: 10 }),
      );
    }

    const first = await startWorker();
    const made = data<{ id: string }>(
      await t.createTransfer(seller.token, {
        from_warehouse_id: main.id,
        to_warehouse_id: shop.id,
        reference: 'CRASH-1',
        lines: items.map((item, index) => ({ master_code_id: item.id, quantity: 4 + index })),
      }),
    );
    const shipped = data<TransferAnswer>(await t.transferAction(seller.token, made.id, 'ship'));
    expect(shipped.status).toBe('in_transit');

    first.kill('SIGKILL');
    expect(await first.exited).toBe('SIGKILL');
    await startWorker();

    const received = data<TransferAnswer>(
      await t.transferAction(seller.token, made.id, 'receive', {
        lines: items.map((item, index) => ({ master_code_id: item.id, quantity: 4 + index })),
      }),
    );
    expect(received.status).toBe('completed');
    const handle = client.workflow.getHandle(transferWorkflowId(seller.tenantId, made.id));
    expect(await handle.result()).toEqual({ status: 'completed' });

    // Exactly once, per line: out at the source, expected and in at the destination.
    const moves = (await t.stockEvents(seller.tenantId)).filter(
      (event) => (event.data as { source?: { id: string } }).source?.id === made.id,
    );
    for (const [index, item] of items.entries()) {
      const of = (type: string, place: { id: string }) =>
        moves.filter(
          (event) =>
            event.type === type && event.stream_id === `stock-${seller.tenantId}.${item.id}@${place.id}`,
        );
      expect(of('StockTransferredOut', main)).toHaveLength(1);
      expect(of('StockIncomingExpected', shop)).toHaveLength(1);
      expect(of('StockTransferredIn', shop)).toHaveLength(1);
      expect(moves.filter((event) => event.stream_id.endsWith(`${item.id}@${main.id}`))).toHaveLength(1);
      expect(await t.figures(seller.tenantId, item.id, main.id)).toEqual({ onHand: 6 - index, incoming: 0 });
      expect(await t.figures(seller.tenantId, item.id, shop.id)).toEqual({ onHand: 4 + index, incoming: 0 });
    }
    expect(moves).toHaveLength(items.length * 3);
  });
});
