import type { PickListAnswer } from '@api/contracts/batches';
import { batchRefusal } from '@domain/batches/batch';
import type { PickListFilter } from '@domain/batches/pick-list';
import { batchPickList, userNames } from '@projections/batches.queries';
import { loadBatch } from './batch';
import { type BatchReadDeps, batchIdOf } from './detail';

/**
 * A batch's pick list (domain/batches/pick-list.ts; spec §9 batch item filters item, SKU, single, multiple, all):
 * the quantities to pick per master code (or seller SKU, or order line) with the racks they are kept on. The batch
 * comes from its stream, its orders from the order board.
 */
export async function pickListOfBatch(
  deps: BatchReadDeps,
  tenantId: string,
  batchId: string,
  filter: PickListFilter,
): Promise<PickListAnswer> {
  const { state } = await loadBatch(deps.store, tenantId, batchIdOf(batchId));
  if (state.status === 'none') throw batchRefusal('BATCH_NOT_FOUND');
  const list = await batchPickList(deps.db, tenantId, state.orderIds, filter);
  const names = await userNames(deps.db, tenantId, [state.pickerId]);
  return {
    batch: {
      id: state.batchId,
      label: state.label,
      name: state.name,
      date: state.date,
      picker: state.pickerId ? (names.get(state.pickerId) ?? null) : null,
    },
    filter,
    rows: list.rows.map((row) => ({
      key: row.key,
      master_code_id: row.masterCodeId,
      code: row.code,
      seller_sku: row.sellerSku,
      name: row.name,
      quantity: row.quantity,
      order_count: row.orderCount,
      order_numbers: row.orderNumbers,
      locations: row.locations,
      order_number: row.orderNumber,
      tracking_number: row.trackingNumber,
      gift: row.gift,
      bin_numbers: row.binNumbers,
      serial_numbers: row.serialNumbers,
    })),
    total_quantity: list.totalQuantity,
    order_count: list.orderCount,
  };
}
