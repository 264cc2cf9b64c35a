import { createHash } from 'node:crypto';
import { refuse } from '@domain/orders/order';
import { isUuid } from '@domain/platform/ids';
import type { Database } from '@infra/db';
import type { EventStore } from '@infra/eventstore/port';
import type { Kysely } from 'kysely';
import type { DocumentContext } from '../support/document';
import { handleOrderCommand } from './order';

/**
 * A free gift added to an order by hand (spec §3 "free gifts"): one of the account's master codes, priced 0, held
 * and picked like the order's other lines. Its line id comes from the command's id, so a retried request adds it
 * once.
 */
export async function addGift(
  deps: { db: Kysely<Database>; store: EventStore },
  context: DocumentContext,
  input: { orderId: string; masterCodeId: string; quantity: number },
) {
  const code = isUuid(input.masterCodeId)
    ? await deps.db
        .selectFrom('master_codes')
        .select(['id', 'code', 'name', 'seller_sku', 'type'])
        .where('tenant_id', '=', context.tenantId)
        .where('id', '=', input.masterCodeId.toLowerCase())
        .executeTakeFirst()
    : undefined;
  if (!code) throw refuse('MASTER_CODE_NOT_FOUND');
  const lineId = `gift-${createHash('sha256').update(context.commandId).digest('hex').slice(0, 16)}`;
  const result = await handleOrderCommand(
    deps.store,
    input.orderId,
    {
      type: 'AddGift',
      line: {
        lineId,
        sku: code.code,
        sellerSku: code.seller_sku || code.code,
        name: code.name,
        quantity: input.quantity,
        masterCodeId: code.id,
        combo: code.type === 'combo',
      },
    },
    context,
  );
  return { ...result, code: code.code };
}
