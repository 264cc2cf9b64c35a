import type { ComboItemInput, NewCombo } from '@api/contracts/inventory-combos';
import type { ComboItem, MasterCodeDetail } from '@api/contracts/inventory-master-codes';
import type { LinkDeps } from '@commands/channels/channel-skus';
import { refuseCombo } from '@domain/inventory/reference';
import { isUuid } from '@domain/platform/ids';
import { type FieldRefusal, refusedTogether } from '@domain/shared/errors';
import type { Database } from '@infra/db';
import { comboItems } from '@projections/inventory/master-codes';
import type { Transaction } from 'kysely';
import { logActivity } from '../support/activity';
import type { Actor } from '../support/actor';
import { createMasterCode, masterCodeAnswer } from './master-codes';

/**
 * Writing combos (spec §3). A combo has no stock of its own: its available quantity is derived from its components,
 * and selling it moves the components. So a component is always a standard master code of the same account: a combo
 * cannot contain itself, nor another combo, which also rules out every cycle (A in B in A) without having to walk one.
 */

type Deps = LinkDeps;

/**
 * Replaces a combo's items after checking each component: the account's own, standard, not the combo itself (every
 * item that is not, in the same answer). Answers what the activity log records.
 */
export async function replaceComboItems(
  trx: Transaction<Database>,
  tenantId: string,
  comboId: string,
  items: ComboItemInput[],
): Promise<{ items: ComboItemInput[] }> {
  const ids = items.map((item) => item.component_id).filter(isUuid);
  const components =
    ids.length === 0
      ? []
      : await trx
          .selectFrom('master_codes')
          .select(['id', 'code', 'type'])
          .where('tenant_id', '=', tenantId)
          .where('id', 'in', ids)
          .execute();
  const byId = new Map(components.map((component) => [component.id, component]));
  const problems: FieldRefusal[] = [];
  const normalised = items.flatMap((item, index) => {
    const position = index + 1;
    const field = `items/${index}/component_id`;
    const component = isUuid(item.component_id) ? byId.get(item.component_id.toLowerCase()) : undefined;
    if (item.component_id.toLowerCase() === comboId.toLowerCase())
      problems.push({ field, error: refuseCombo('CONTAINS_ITSELF', { position }) });
    else if (!component) problems.push({ field, error: refuseCombo('COMPONENT_NOT_FOUND', { position }) });
    else if (component.type !== 'standard')
      problems.push({ field, error: refuseCombo('COMBO_IN_COMBO', { position, code: component.code }) });
    else return [{ component_id: component.id, quantity: item.quantity }];
    return [];
  });
  const refused = refusedTogether(problems);
  if (refused) throw refused;
  await trx
    .deleteFrom('combo_items')
    .where('tenant_id', '=', tenantId)
    .where('combo_id', '=', comboId)
    .execute();
  await trx
    .insertInto('combo_items')
    .values(
      normalised.map((item, position) => ({
        tenant_id: tenantId,
        combo_id: comboId,
        component_id: item.component_id,
        quantity: item.quantity,
        position,
      })),
    )
    .execute();
  return { items: normalised };
}

/** The combo of this account, locked for the change; a standard master code is refused. */
async function lockCombo(trx: Transaction<Database>, tenantId: string, id: string) {
  const combo = isUuid(id)
    ? await trx
        .selectFrom('master_codes')
        .select(['id', 'type'])
        .where('id', '=', id)
        .where('tenant_id', '=', tenantId)
        .forUpdate()
        .executeTakeFirst()
    : undefined;
  if (!combo) throw refuseCombo('NOT_FOUND');
  if (combo.type !== 'combo') throw refuseCombo('NOT_A_COMBO');
  return combo;
}

/** Creates a combo with its items (within the package's master-code limit). Answers it in full. */
export async function createCombo(deps: Deps, actor: Actor, input: NewCombo): Promise<MasterCodeDetail> {
  const { items, ...fields } = input;
  const id = await createMasterCode(
    deps,
    actor,
    { ...fields, type: 'combo', initial_quantity: 0 },
    (trx, comboId) => replaceComboItems(trx, actor.tenantId, comboId, items),
  );
  return masterCodeAnswer(deps.db, actor.tenantId, id);
}

/** A combo's items, in order (a standard master code is refused). */
export async function itemsOfCombo(deps: Deps, actor: Actor, input: { id: string }): Promise<ComboItem[]> {
  return deps.db.transaction().execute(async (trx) => {
    const combo = await lockCombo(trx, actor.tenantId, input.id);
    return comboItems(trx, actor.tenantId, combo.id);
  });
}

/** Replaces a combo's items: standard master codes of this account, each once. Answers the new items. */
export async function replaceItemsOfCombo(
  deps: Deps,
  actor: Actor,
  input: { id: string; items: ComboItemInput[] },
): Promise<ComboItem[]> {
  const { tenantId } = actor;
  return deps.db.transaction().execute(async (trx) => {
    const combo = await lockCombo(trx, tenantId, input.id);
    const replaced = await replaceComboItems(trx, tenantId, combo.id, input.items);
    await trx
      .updateTable('master_codes')
      .set({ updated_at: new Date() })
      .where('id', '=', combo.id)
      .execute();
    await logActivity(trx, {
      tenantId,
      userId: actor.userId,
      action: 'combo.items_replaced',
      subjectType: 'combo',
      subjectId: combo.id,
      detail: replaced,
    });
    return comboItems(trx, tenantId, combo.id);
  });
}
