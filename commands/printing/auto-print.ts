import type { AutoPrintClaim, AutoPrintClaimBody } from '@api/contracts/auto-print';
import { AUTO_PRINT_BATCH, AUTO_PRINT_STATES } from '@domain/printing/auto-print';
import type { Database } from '@infra/db';
import { type Kysely, sql } from 'kysely';
import type { Actor } from '../support/actor';

/**
 * The worker auto print station's claim (spec shell.md /orders/worker-auto-print; issue 14). A station asks, each
 * time the board changes, for the orders that reached its chosen state since it started and that no one printed
 * that document of; it prints what it is given (POST /api/orders/print, so the print log records it from the
 * state's origin). An order's document is claimed once and for all, in one statement: of two stations (or one
 * reloaded) asking at once, only one is given it, and an order claimed once is never offered again — a claim whose
 * print never happened (the station closed in between) is left to be printed by hand rather than risk a second
 * print.
 */
export async function claimAutoPrint(
  db: Kysely<Database>,
  actor: Actor,
  input: AutoPrintClaimBody,
): Promise<AutoPrintClaim> {
  const { tenantId } = actor;
  const candidates = await db
    .selectFrom('orders as o')
    .select(['o.id', 'o.order_number'])
    .where('o.tenant_id', '=', tenantId)
    .where('o.status', '=', input.state)
    .where('o.updated_at', '>=', new Date(input.since))
    .where(sql<boolean>`NOT (${input.document} = ANY (o.printed))`)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('auto_print_claims as c')
            .select('c.order_id')
            .whereRef('c.tenant_id', '=', 'o.tenant_id')
            .whereRef('c.order_id', '=', 'o.id')
            .where('c.document', '=', input.document),
        ),
      ),
    )
    .orderBy('o.updated_at')
    .orderBy('o.id')
    .limit(AUTO_PRINT_BATCH + 1)
    .execute();
  const wanted = candidates.slice(0, AUTO_PRINT_BATCH);
  const claimed =
    wanted.length === 0
      ? []
      : await db
          .insertInto('auto_print_claims')
          .values(
            wanted.map((order) => ({
              tenant_id: tenantId,
              order_id: order.id,
              document: input.document,
              station: input.station,
              claimed_by: actor.userId,
            })),
          )
          .onConflict((oc) => oc.columns(['tenant_id', 'order_id', 'document']).doNothing())
          .returning('order_id')
          .execute();
  const taken = new Set(claimed.map((row) => row.order_id));
  return {
    origin: AUTO_PRINT_STATES[input.state],
    orders: wanted
      .filter((order) => taken.has(order.id))
      .map((order) => ({ id: order.id, order_number: order.order_number })),
    more: candidates.length > AUTO_PRINT_BATCH,
  };
}
