import { ErrorAnswer, GridPage, Ok, ok, refusals } from '@api/answers';
import { seller } from '@api/auth/session';
import { DateFilter, gridQuery, setFilter, TextFilter } from '@api/contracts/grid';
import { ApiError, invalid, notFound } from '@api/errors';
import { InventoryCode } from '@domain/inventory/codes';
import type { Database } from '@infra/db';
import {
  allOf,
  dateWhere,
  literal,
  pageWindow,
  setWhere,
  sortTerms,
  textWhere,
} from '@projections/runtime/grid';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { type Kysely, type RawBuilder, type SqlBool, sql, type Transaction } from 'kysely';
import { z } from 'zod';
import { IdParams, type InventoryDeps, isUuid, logActivity, QUANTITY_MAX, referenceId } from './common';
import {
  ComboItem,
  comboItems,
  createMasterCode,
  findMasterCode,
  MASTER_CODE_STATUSES,
  MasterCode,
  MasterCodeDetail,
  masterCode,
  newMasterCodeShape,
  selectMasterCodes,
} from './master-code-data';

/**
 * Combos (spec §3: a combo master code, its name, items each with a master code and quantity). A combo has no stock
 * of its own: its available quantity is derived from its components, and selling it moves the components. So a
 * component is always a standard master code of the same account: a combo cannot contain itself, nor another combo,
 * which also rules out every cycle (A in B in A) without having to walk one.
 */

export const COMBO_ITEMS_MAX = 100;

const quantityInvalid = invalid(InventoryCode.quantityInvalid, 'inventory.combo.quantity_invalid');
const itemsRequired = invalid(InventoryCode.comboItemsRequired, 'inventory.combo.items_required');
const componentRepeated = invalid(InventoryCode.componentRepeated, 'inventory.combo.component_repeated');

export const ComboItemInput = z.strictObject({
  component_id: referenceId,
  quantity: z
    .number({ error: quantityInvalid })
    .int(quantityInvalid)
    .min(1, quantityInvalid)
    .max(QUANTITY_MAX, quantityInvalid),
});
export type ComboItemInput = z.infer<typeof ComboItemInput>;

export const ComboItems = z
  .array(ComboItemInput, { error: itemsRequired })
  .min(1, itemsRequired)
  .max(
    COMBO_ITEMS_MAX,
    invalid(InventoryCode.comboItemsRequired, 'inventory.combo.too_many_items', { max: COMBO_ITEMS_MAX }),
  )
  .superRefine((items, ctx) => {
    const seen = new Set<string>();
    items.forEach((item, index) => {
      const key = item.component_id.toLowerCase();
      if (seen.has(key))
        ctx.addIssue({ code: 'custom', path: [index, 'component_id'], message: componentRepeated });
      seen.add(key);
    });
  });

export const ComboItemsBody = z.strictObject({ items: ComboItems }, { error: itemsRequired });

/** A new combo: the master code fields (its type is combo, it has no initial quantity) and its items. */
const { type: _type, initial_quantity: _initialQuantity, ...comboFields } = newMasterCodeShape;
export const NewCombo = z.strictObject({ ...comboFields, items: ComboItems });

export const ComboRow = MasterCode.extend({ items: z.array(ComboItem) });

/**
 * Replaces a combo's items after checking each component: the account's own, standard, not the combo itself.
 * Answers what the activity log records.
 */
export async function replaceComboItems(
  trx: Transaction<Database>,
  tenantId: string,
  comboId: string,
  items: ComboItemInput[],
): Promise<{ items: ComboItemInput[] }> {
  items.forEach((item, index) => {
    if (item.component_id.toLowerCase() === comboId.toLowerCase()) {
      throw new ApiError(400, InventoryCode.comboContainsItself, 'inventory.combo.contains_itself', {
        position: index + 1,
      });
    }
  });
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
  const normalised = items.map((item, index) => {
    const component = isUuid(item.component_id) ? byId.get(item.component_id.toLowerCase()) : undefined;
    if (!component) {
      throw new ApiError(400, InventoryCode.componentNotFound, 'inventory.combo.component_not_found', {
        position: index + 1,
      });
    }
    if (component.type !== 'standard') {
      throw new ApiError(400, InventoryCode.comboInCombo, 'inventory.combo.combo_in_combo', {
        position: index + 1,
        code: component.code,
      });
    }
    return { component_id: component.id, quantity: item.quantity };
  });
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

// ---- the combo grid ----

export const COMBO_SORT_COLUMNS = ['code', 'name', 'status', 'created_at', 'updated_at'] as const;

export const ComboGridQuery = gridQuery(COMBO_SORT_COLUMNS, {
  code: TextFilter,
  name: TextFilter,
  status: setFilter(MASTER_CODE_STATUSES),
  updated_at: DateFilter,
});
type ComboGridQuery = z.infer<typeof ComboGridQuery>;

const sortColumns: Record<(typeof COMBO_SORT_COLUMNS)[number], RawBuilder<unknown>> = {
  code: sql`lower(m.code)`,
  name: sql`lower(m.name)`,
  status: sql`m.status`,
  created_at: sql`m.created_at`,
  updated_at: sql`m.updated_at`,
};

function conditions(query: ComboGridQuery): RawBuilder<SqlBool> {
  const where: RawBuilder<SqlBool>[] = [];
  const { filterModel } = query;
  if (filterModel.code) where.push(textWhere(sql<string>`m.code`, filterModel.code));
  if (filterModel.name) where.push(textWhere(sql<string>`m.name`, filterModel.name));
  if (filterModel.status) where.push(setWhere(sql`m.status`, filterModel.status.values));
  if (filterModel.updated_at) where.push(dateWhere(sql<Date>`m.updated_at`, filterModel.updated_at));
  const search = query.search?.trim();
  if (search) {
    // The combo's own code or name, or the code of one of its components: "which combos hold this item?".
    const pattern = `%${literal(search)}%`;
    where.push(sql<SqlBool>`(m.code ILIKE ${pattern} OR m.name ILIKE ${pattern} OR EXISTS (
      SELECT 1 FROM combo_items i JOIN master_codes p ON p.id = i.component_id
       WHERE i.combo_id = m.id AND p.code ILIKE ${pattern}))`);
  }
  return allOf(where);
}

async function listCombos(db: Kysely<Database>, tenantId: string, query: ComboGridQuery) {
  const filtered = selectMasterCodes(db, tenantId).where('m.type', '=', 'combo').where(conditions(query));
  let page = filtered;
  for (const term of sortTerms(query.sortModel, sortColumns)) page = page.orderBy(term);
  if (query.sortModel.length === 0) page = page.orderBy('m.updated_at', 'desc');
  const { limit, offset } = pageWindow(query);
  const [rows, total] = await Promise.all([
    page.orderBy('m.id').limit(limit).offset(offset).execute(),
    filtered
      .clearSelect()
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  const items =
    rows.length === 0
      ? []
      : await db
          .selectFrom('combo_items as i')
          .innerJoin('master_codes as p', 'p.id', 'i.component_id')
          .select(['i.combo_id', 'i.component_id', 'p.code', 'p.name', 'p.status', 'i.quantity'])
          .where('i.tenant_id', '=', tenantId)
          .where(
            'i.combo_id',
            'in',
            rows.map((row) => row.id),
          )
          .orderBy('i.combo_id')
          .orderBy('i.position')
          .execute();
  const itemsOf = new Map<string, ComboItem[]>();
  for (const { combo_id, ...item } of items) {
    itemsOf.set(combo_id, [...(itemsOf.get(combo_id) ?? []), item]);
  }
  return {
    rows: rows.map((row) => ({ ...masterCode(row), items: itemsOf.get(row.id) ?? [] })),
    lastRow: Number(total.n),
  };
}

// ---- the routes ----

const access = { access: { permission: 'inventory-combo-list' } } as const;
const tags = ['inventory'];
const conflicts = { 409: ErrorAnswer };

export const comboRoutes: FastifyPluginAsyncZod<InventoryDeps> = async (app, { db }) => {
  /** The combo of this account, locked for the change; a standard master code is refused. */
  const lockCombo = async (trx: Transaction<Database>, tenantId: string, id: string) => {
    const combo = isUuid(id)
      ? await trx
          .selectFrom('master_codes')
          .select(['id', 'type'])
          .where('id', '=', id)
          .where('tenant_id', '=', tenantId)
          .forUpdate()
          .executeTakeFirst()
      : undefined;
    if (!combo) throw notFound();
    if (combo.type !== 'combo')
      throw new ApiError(409, InventoryCode.notACombo, 'inventory.combo.not_a_combo');
    return combo;
  };

  app.get(
    '/api/inventory/combo',
    {
      config: access,
      schema: {
        tags,
        summary: "The account's combos with their items, for ag-grid's Infinite Row Model",
        querystring: ComboGridQuery,
        response: { 200: Ok(GridPage(ComboRow)), ...refusals },
      },
    },
    async (request) => ok(request, await listCombos(db, seller(request).tenantId, request.query)),
  );

  app.post(
    '/api/inventory/combo',
    {
      config: access,
      schema: {
        tags,
        summary: "Create a combo with its items (within the package's master-code limit)",
        body: NewCombo,
        response: { 200: Ok(MasterCodeDetail), ...refusals, ...conflicts },
      },
    },
    async (request) => {
      const session = seller(request);
      const { items, ...fields } = request.body;
      const id = await createMasterCode(
        { db },
        session,
        { ...fields, type: 'combo', initial_quantity: 0 },
        (trx, comboId) => replaceComboItems(trx, session.tenantId, comboId, items),
      );
      return ok(request, await findMasterCode(db, session.tenantId, id), 'inventory.combo.created');
    },
  );

  app.get(
    '/api/inventory/combo/:id/items',
    {
      config: access,
      schema: {
        tags,
        summary: "A combo's items, in order",
        params: IdParams,
        response: { 200: Ok(z.array(ComboItem)), ...refusals, ...conflicts },
      },
    },
    async (request) => {
      const { tenantId } = seller(request);
      const items = await db.transaction().execute(async (trx) => {
        const combo = await lockCombo(trx, tenantId, request.params.id);
        return comboItems(trx, tenantId, combo.id);
      });
      return ok(request, items);
    },
  );

  app.put(
    '/api/inventory/combo/:id/items',
    {
      config: access,
      schema: {
        tags,
        summary:
          "Replace a combo's items: standard master codes of this account, each once, quantity 1 or more",
        params: IdParams,
        body: ComboItemsBody,
        response: { 200: Ok(z.array(ComboItem)), ...refusals, ...conflicts },
      },
    },
    async (request) => {
      const session = seller(request);
      const { tenantId } = session;
      const items = await db.transaction().execute(async (trx) => {
        const combo = await lockCombo(trx, tenantId, request.params.id);
        const replaced = await replaceComboItems(trx, tenantId, combo.id, request.body.items);
        await trx
          .updateTable('master_codes')
          .set({ updated_at: new Date() })
          .where('id', '=', combo.id)
          .execute();
        await logActivity(trx, {
          tenantId,
          userId: session.userId,
          action: 'combo.items_replaced',
          subjectType: 'combo',
          subjectId: combo.id,
          detail: replaced,
        });
        return comboItems(trx, tenantId, combo.id);
      });
      return ok(request, items, 'inventory.combo.items_saved');
    },
  );
};
