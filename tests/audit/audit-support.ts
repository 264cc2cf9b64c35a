import { randomUUID } from 'node:crypto';
import { handleStockCommand } from '@commands/inventory/stock';
import type { StockCommand } from '@domain/inventory/stock';
import { AVERAGE_COST_PROJECTION } from '@projections/average-cost';
import { ORDERS_PROJECTION } from '@projections/orders';
import { STOCK_PROJECTION } from '@projections/stock';
import { stockCalls } from '@tests/api/inventory/stock-api';
import { importOrder, line, marketplaceOrder, seedCatalogue } from '@tests/api/orders-support';
import type { TestApi, TestSeller } from '@tests/support/api';
import { waitFor } from '@tests/support/wait';
import { sql } from 'kysely';

/** What the as-of and replay tests share: stock moved at chosen instants, and the read models caught up with it. */

/** The stock events the average cost follows (projections/average-cost.ts). */
const HOLDING_CHANGES = [
  'StockReceived',
  'StockAdjusted',
  'StockShipped',
  'StockReturned',
  'StockWrittenOff',
];

/** Moves stock as the commands do, recorded at `occurredAt` by `userId`. */
export const moveAt = (
  api: TestApi,
  tenantId: string,
  userId: string,
  occurredAt: Date,
  command: StockCommand,
) =>
  handleStockCommand(api.store, command, {
    tenantId,
    userId,
    commandId: randomUUID(),
    occurredAt: occurredAt.toISOString(),
  });

/**
 * Catches the stock, average cost and orders projections up with every event of the tenant's streams. One catch-up
 * is not always enough: the log is read only below the oldest transaction running in the cluster.
 */
export const settleAll = (api: TestApi, tenantId: string) =>
  waitFor(
    async () => {
      for (const name of [STOCK_PROJECTION, AVERAGE_COST_PROJECTION, ORDERS_PROJECTION])
        await api.engine.catchUp(name);
      const counts = await sql<
        Record<'events' | 'movements' | 'costed' | 'history' | 'orders' | 'rows', string>
      >`
        SELECT
          (SELECT count(*) FROM es_events WHERE stream_id LIKE ${`stock-${tenantId}.%`}) AS events,
          (SELECT count(*) FROM stock_movements WHERE tenant_id = ${tenantId}) AS movements,
          (SELECT count(*) FROM es_events WHERE stream_id LIKE ${`stock-${tenantId}.%`}
            AND type = ANY(${HOLDING_CHANGES}::text[]) AND (data->>'change')::int <> 0) AS costed,
          (SELECT count(*) FROM average_cost_history WHERE tenant_id = ${tenantId}) AS history,
          (SELECT count(DISTINCT stream_id) FROM es_events WHERE stream_id LIKE ${`order-${tenantId}.%`}) AS orders,
          (SELECT count(*) FROM orders WHERE tenant_id = ${tenantId}) AS rows`.execute(api.database.db);
      const row = counts.rows[0]!;
      return row.events === row.movements && row.costed === row.history && row.orders === row.rows;
    },
    { what: 'the stock, average cost and orders projections to catch up' },
  );

type Move = Omit<StockCommand, 'masterCodeId' | 'warehouseId'>;

/**
 * A stock with a history to replay: an order imported (on a catalogue of its own), then master code CUP in warehouse
 * W1 received (10, "Opening count") at `at(0)`, 4 reserved for the order at `at(1)`, and `last` at `at(2)`.
 */
export async function stockWithHistory(
  api: TestApi,
  seller: TestSeller,
  at: (minute: number) => Date,
  last: (orderId: string) => Move,
) {
  const catalogue = await seedCatalogue(api, seller.tenantId);
  const orderId = await importOrder(
    api,
    seller.tenantId,
    catalogue.warehouseId,
    marketplaceOrder([line('BATIK-01', 2)]),
  );
  const stock = stockCalls(() => api);
  const cup = await stock.masterCode(seller.token, 'CUP');
  const w1 = await stock.warehouse(seller.token, 'W1');
  const target = { masterCodeId: cup.id, warehouseId: w1.id };
  const moves: Move[] = [
    { type: 'ReceiveStock', quantity: 10, reason: 'Opening count' },
    { type: 'ReserveStock', quantity: 4, source: { type: 'order', id: orderId } },
    last(orderId),
  ];
  for (const [minute, move] of moves.entries())
    await moveAt(api, seller.tenantId, seller.userId, at(minute), { ...move, ...target } as StockCommand);
  return { orderId, cup, w1 };
}
