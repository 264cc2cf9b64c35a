import { type LinkDeps, relinkChannelSkus } from '@commands/channels/channel-skus';
import { type OrderStatus, refuse } from '@domain/orders/order';
import { refusalOf } from '@domain/shared/errors';
import type { Database } from '@infra/db';
import type { EventStore } from '@infra/eventstore/port';
import type { Kysely } from 'kysely';
import type { DocumentContext } from '../support/document';
import { handleOrderCommand } from './order';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Orders whose lines may still be mapped: not yet scanned (a line being picked cannot change what it is). */
export const WAITING: readonly OrderStatus[] = ['unpaid', 'new', 'unscan'];
/** The most waiting orders one mapping maps at once; the rest are mapped on their next import. */
const APPLY_MAX = 500;

/** The SKU a line is mapped by: its seller SKU, else the marketplace's SKU. */
export const mappingSkuOf = (line: { sellerSku: string; sku: string }) => (line.sellerSku || line.sku).trim();

/**
 * Maps an order line to one of the account's master codes (spec §4), or changes its mapping: a master code of
 * another account, or none, is refused before the order decides; a combo maps as a combo, so its components move.
 * The mapping is kept for the store and SKU (`order_sku_mappings`): the import maps later orders with it, and the
 * store's waiting orders whose line of that SKU is "item not found" are mapped now.
 */
export async function mapOrderLine(
  deps: { db: Kysely<Database>; store: EventStore },
  context: DocumentContext,
  input: { orderId: string; lineId: string; masterCodeId: string },
) {
  const code = UUID.test(input.masterCodeId)
    ? await deps.db
        .selectFrom('master_codes')
        .select(['id', 'code', 'type'])
        .where('tenant_id', '=', context.tenantId)
        .where('id', '=', input.masterCodeId.toLowerCase())
        .executeTakeFirst()
    : undefined;
  if (!code) throw refuse('MASTER_CODE_NOT_FOUND');
  const combo = code.type === 'combo';
  const result = await handleOrderCommand(
    deps.store,
    input.orderId,
    { type: 'MapLine', lineId: input.lineId, masterCodeId: code.id, combo },
    context,
  );
  const order = result.state.status === 'none' ? null : result.state;
  const line = order?.lines.find((each) => each.lineId === input.lineId);
  if (!order || !line) return { ...result, code: code.code, applied: 0 };
  const sku = mappingSkuOf(line);
  if (sku === '') return { ...result, code: code.code, applied: 0 };
  await saveSkuMapping(deps, context, { storeId: order.storeId, sku, masterCodeId: code.id });
  const applied = await applyToWaitingOrders(deps, context, {
    storeId: order.storeId,
    sku,
    masterCodeId: code.id,
    combo,
    except: input.orderId,
  });
  return { ...result, code: code.code, applied };
}

/**
 * Keeps the seller's mapping of the store's SKU (what the import maps later orders by), and relinks the store's
 * channel SKUs of that SKU, which follow the same rule.
 */
export async function saveSkuMapping(
  deps: LinkDeps,
  context: DocumentContext,
  mapping: { storeId: string; sku: string; masterCodeId: string },
): Promise<void> {
  const { storeId, sku, masterCodeId } = mapping;
  await deps.db
    .insertInto('order_sku_mappings')
    .values({
      tenant_id: context.tenantId,
      store_id: storeId,
      sku,
      master_code_id: masterCodeId,
      updated_by: context.userId ?? null,
    })
    .onConflict((conflict) =>
      conflict.columns(['tenant_id', 'store_id', 'sku']).doUpdateSet({
        master_code_id: masterCodeId,
        updated_by: context.userId ?? null,
        updated_at: new Date(context.occurredAt),
      }),
    )
    .execute();
  await relinkChannelSkus(deps, context.tenantId, { storeId, sellerSkus: [sku] });
}

/** Maps the store's waiting orders' unmapped lines of this SKU; each under an id of the mapping's, so once. */
export async function applyToWaitingOrders(
  deps: { db: Kysely<Database>; store: EventStore },
  context: DocumentContext,
  target: { storeId: string; sku: string; masterCodeId: string; combo: boolean; except?: string },
): Promise<number> {
  const lines = await deps.db
    .selectFrom('order_lines as l')
    .innerJoin('orders as o', (join) =>
      join.onRef('o.id', '=', 'l.order_id').onRef('o.tenant_id', '=', 'l.tenant_id'),
    )
    .select(['l.order_id', 'l.line_id'])
    .where('l.tenant_id', '=', context.tenantId)
    .where('o.store_id', '=', target.storeId)
    .where('o.status', 'in', WAITING)
    .$if(target.except !== undefined, (query) => query.where('o.id', '!=', target.except!))
    .where('l.master_code_id', 'is', null)
    .where('l.removed', '=', false)
    .where((eb) =>
      eb.or([
        eb('l.seller_sku', '=', target.sku),
        eb.and([eb('l.seller_sku', '=', ''), eb('l.sku', '=', target.sku)]),
      ]),
    )
    .orderBy('o.id')
    .limit(APPLY_MAX)
    .execute();
  let applied = 0;
  for (const line of lines) {
    try {
      const done = await handleOrderCommand(
        deps.store,
        line.order_id,
        { type: 'MapLine', lineId: line.line_id, masterCodeId: target.masterCodeId, combo: target.combo },
        {
          ...context,
          commandId: `${context.commandId}:apply:${line.order_id}:${line.line_id}`,
          causationId: context.commandId,
        },
      );
      if (done.events.length > 0) applied += 1;
    } catch (error) {
      // Moved on since the board read it (scanned, shipped, cancelled): that order is not waiting any more.
      if (!refusalOf(error)) throw error;
    }
  }
  return applied;
}
