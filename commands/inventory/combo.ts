import { refuseStock } from '@domain/inventory/stock';
import type { Database } from '@infra/db';
import type { EventStore } from '@infra/eventstore/port';
import type { Kysely } from 'kysely';
import { type CommandContext, handleStockCommand, type StockCommandResult } from './stock';

/**
 * A combo has no stock of its own: selling one moves its components. A combo command names the combo, the
 * warehouse and how many combos; it becomes one stock command per component, for the component's quantity times
 * that many, each with its own id derived from the combo command's (`<commandId>/<componentId>`). A retried combo
 * command therefore moves each component once, and one interrupted half-way finishes when it is run again.
 *
 * Only the movements that cannot be refused once their quantity is valid are combo commands (reserve, start
 * processing, ship, return): a release must name what each component's order line holds.
 */

export interface ComboComponent {
  masterCodeId: string;
  /** Units of the component in one combo. */
  quantity: number;
}

interface ComboTarget {
  comboId: string;
  warehouseId: string;
  /** How many combos. */
  quantity: number;
  reason?: string;
  source?: { type: string; id: string };
}

export type ComboCommand =
  | ({ type: 'ReserveStock' } & ComboTarget)
  | ({ type: 'StartProcessing' } & ComboTarget)
  | ({ type: 'ShipStock'; from: 'reserved' | 'inProcess' | 'free' } & ComboTarget)
  | ({ type: 'ReturnStock' } & ComboTarget);

export interface ComboCommandResult {
  /** One result per component, in the combo's order. */
  components: (StockCommandResult & { masterCodeId: string; quantity: number })[];
  /** True when every component's movement had already been recorded. */
  replayed: boolean;
}

const MAX = 1_000_000_000;

/** The components of a combo of the tenant, in the combo's order; empty when it is not a combo. */
export async function comboComponents(
  db: Kysely<Database>,
  tenantId: string,
  comboId: string,
): Promise<ComboComponent[]> {
  const rows = await db
    .selectFrom('combo_items')
    .select(['component_id', 'quantity'])
    .where('tenant_id', '=', tenantId)
    .where('combo_id', '=', comboId)
    .orderBy('position')
    .execute();
  return rows.map((row) => ({ masterCodeId: row.component_id, quantity: row.quantity }));
}

export async function handleComboCommand(
  store: EventStore,
  command: ComboCommand,
  components: readonly ComboComponent[],
  context: CommandContext,
): Promise<ComboCommandResult> {
  if (components.length === 0) throw new Error(`combo ${command.comboId} has no components`);
  const { comboId, quantity: combos, ...rest } = command;
  const moves = components.map((component) => ({ ...component, quantity: component.quantity * combos }));
  // Every component's quantity is checked before any moves, so a refusal leaves all of them as they were.
  if (!Number.isInteger(combos) || combos < 1 || moves.some((move) => move.quantity > MAX)) {
    throw refuseStock('QUANTITY_NOT_POSITIVE', { max: MAX });
  }
  const results: ComboCommandResult['components'] = [];
  for (const move of moves) {
    const result = await handleStockCommand(
      store,
      { ...rest, masterCodeId: move.masterCodeId, quantity: move.quantity },
      { ...context, commandId: `${context.commandId}/${move.masterCodeId}`, causationId: context.commandId },
    );
    results.push({ ...result, masterCodeId: move.masterCodeId, quantity: move.quantity });
  }
  return { components: results, replayed: results.every((result) => result.replayed) };
}
