import { refuse } from '@domain/orders/order';
import type { Database } from '@infra/db';
import type { EventStore } from '@infra/eventstore/port';
import type { Kysely } from 'kysely';
import type { DocumentContext } from '../support/document';
import { handleOrderCommand } from './order';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Maps an order line whose item was not found to one of the account's master codes (spec §4): a master code of
 * another account, or none, is refused before the order decides; a combo maps as a combo, so its components move.
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
  const result = await handleOrderCommand(
    deps.store,
    input.orderId,
    { type: 'MapLine', lineId: input.lineId, masterCodeId: code.id, combo: code.type === 'combo' },
    context,
  );
  return { ...result, code: code.code };
}
