import type { NewPurchase } from '@api/contracts/purchases';
import { purchasingInputErrors } from '@domain/purchases/codes';
import { type Purchase, type PurchaseLine, refusePurchase } from '@domain/purchases/purchase';
import { withMasterCodeNamed } from '@domain/purchases/refusals';
import { type FieldRefusal, refusedTogether, refuser } from '@domain/shared/errors';
import type { Database } from '@infra/db';
import type { EventStore } from '@infra/eventstore/port';
import { masterCodesOfTenant, placeOfTenant } from '@projections/documents.queries';
import { purchaseSettings } from '@projections/purchases.queries';
import { supplierRow } from '@projections/suppliers.queries';
import type { Kysely } from 'kysely';
import { logActivity } from '../support/activity';
import type { ApprovingActor as Actor } from '../support/actor';
import type { PurchasingDeps } from './actions';
import { purchaseDetail, type Viewer } from './details';
import { documentNumber } from './document-number';
import { handlePurchaseCommand, loadPurchase } from './documents';
import { purchaseProcesses } from './processes';

/**
 * Raising a purchase order: the supplier must be the account's and active, the warehouse the account's, every item a
 * standard master code of the account (a combo has no stock: 409); the order's own rules are the decider's. The order
 * is recorded as a draft (its workflow is started by the reactor, workflow-reactor.ts), and placed through the
 * workflow when asked.
 */

const refuse = refuser(purchasingInputErrors);

/** The purchase workflows as the purchasing commands drive them (processes.ts runs them on Temporal). */
export interface PurchaseProcesses {
  /**
   * Places a draft through its workflow (started from the order as recorded if the reactor has not started it yet);
   * a refusal names master codes by `codes`.
   */
  place(
    actor: Actor,
    order: { purchase: Purchase; revision: number },
    approvalRequired: boolean,
    codes: ReadonlyMap<string, { code: string }>,
  ): Promise<void>;
}

export interface PurchaseDeps {
  db: Kysely<Database>;
  store: EventStore;
  processes: PurchaseProcesses;
}

export type PurchaseInput = Omit<NewPurchase, 'idempotency_key'>;

export interface CreatedPurchase {
  purchaseId: string;
  poNumber: string;
  replayed: boolean;
}

/** `occurredAt`: now, as the request's clock says it; the order's date defaults to that day (UTC). */
export async function createPurchase(
  deps: PurchaseDeps,
  actor: Actor,
  input: PurchaseInput & { purchaseId: string; commandId: string; occurredAt: string },
): Promise<CreatedPurchase> {
  const { db, store } = deps;
  const { tenantId } = actor;
  const { purchaseId } = input;
  // Every reference that is not the account's (or not one an order takes) is refused in the same answer.
  const problems: FieldRefusal[] = [];
  const supplier = await supplierRow(db, tenantId, input.supplier_id);
  if (!supplier) problems.push({ field: 'supplier_id', error: refuse('SUPPLIER_NOT_FOUND') });
  const warehouse = await placeOfTenant(db, tenantId, input.warehouse_id);
  if (!warehouse) problems.push({ field: 'warehouse_id', error: refuse('WAREHOUSE_NOT_FOUND') });
  const codes = await masterCodesOfTenant(
    db,
    tenantId,
    input.items.map((item) => item.master_code_id),
  );
  const lines: PurchaseLine[] = [];
  input.items.forEach((item, index) => {
    const field = `items/${index}/master_code_id`;
    const masterCode = codes.get(item.master_code_id.toLowerCase());
    if (!masterCode)
      problems.push({ field, error: refuse('MASTER_CODE_NOT_FOUND', { code: item.master_code_id }) });
    else if (masterCode.type === 'combo')
      problems.push({ field, error: refuse('COMBO_REFUSED', { code: masterCode.code }) });
    else if (lines.some((line) => line.masterCodeId === masterCode.id))
      problems.push({ field, error: refusePurchase('ITEM_REPEATED', { code: masterCode.code }) });
    else lines.push({ masterCodeId: masterCode.id, quantity: item.quantity, unitCost: item.unit_cost });
  });
  const refused = refusedTogether(problems);
  // Without a supplier or a warehouse there is a problem to answer with.
  if (refused || !supplier || !warehouse) throw refused;
  // A retried creation (the same key) finds the order it made: it is answered as it stands.
  const existing = await loadPurchase(store, tenantId, purchaseId);
  if (existing.state.status !== 'none') {
    return { purchaseId, poNumber: existing.state.poNumber, replayed: true };
  }
  if (supplier.status !== 'active') throw refuse('SUPPLIER_INACTIVE', { name: supplier.name });
  const poNumber = await documentNumber(db, tenantId, 'purchase', purchaseId);
  let created: Awaited<ReturnType<typeof handlePurchaseCommand>>;
  try {
    created = await handlePurchaseCommand(
      store,
      purchaseId,
      {
        type: 'CreatePurchase',
        purchaseId,
        poNumber,
        reference: input.reference,
        date: input.date ?? input.occurredAt.slice(0, 10),
        supplierId: supplier.id,
        warehouseId: warehouse.id,
        lines,
        discount: input.discount,
        estimatedArrival: input.estimated_arrival,
        note: input.note,
        by: actor.userId,
      },
      { tenantId, userId: actor.userId, commandId: input.commandId, occurredAt: input.occurredAt },
    );
  } catch (error) {
    throw withMasterCodeNamed(error, codes);
  }
  if (created.state.status === 'none') throw new Error('a created purchase has no state');
  // Its workflow is started by the reactor (workflow-reactor.ts); placing it now starts it first if need be.
  if (input.place) {
    const settings = await purchaseSettings(db, tenantId);
    const order = { purchase: created.state, revision: Number(created.revision ?? 0) };
    await deps.processes.place(actor, order, settings.purchase_approval, codes);
  }
  return { purchaseId, poNumber, replayed: created.replayed };
}

/** A purchase order raised by a person: created, its creation logged, answered as the order and the message. */
export async function raisePurchase(
  deps: PurchasingDeps,
  viewer: Viewer,
  input: PurchaseInput & { purchaseId: string },
) {
  const { purchaseId } = input;
  const created = await createPurchase({ ...deps, processes: purchaseProcesses(deps.workflows) }, viewer, {
    ...input,
    commandId: `purchase-create:${purchaseId}`,
    occurredAt: new Date().toISOString(),
  });
  if (!created.replayed) {
    await logActivity(deps.db, {
      tenantId: viewer.tenantId,
      userId: viewer.userId,
      action: 'purchase.created',
      subjectType: 'purchase',
      subjectId: purchaseId,
      detail: { po_number: created.poNumber, placed: input.place },
    });
  }
  const detail = await purchaseDetail(deps, viewer, purchaseId);
  return { detail, key: 'purchases.created', params: { poNumber: created.poNumber } };
}
