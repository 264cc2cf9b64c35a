import { randomUUID } from 'node:crypto';
import type {
  CatalogueEntry,
  CategoryChanges,
  InventoryCategory,
  NewCategory,
} from '@api/contracts/inventory-catalogue';
import { refuseCatalogue } from '@domain/inventory/reference';
import { isUuid } from '@domain/platform/ids';
import type { Database } from '@infra/db';
import { violation } from '@infra/db/errors';
import {
  categoryAnswer,
  entryById,
  type FlatKind,
  findCategory,
  flatColumn,
  flatTable,
  subtreeIds,
  usedBy,
} from '@projections/inventory/catalogue';
import type { Kysely, Transaction } from 'kysely';
import { logActivity } from '../support/activity';
import type { Actor } from '../support/actor';
import { lockFor } from '../support/locks';

/**
 * Writing the inventory's categories (a tree per account), brands and units. Names are unique per account whatever
 * their case, so a name in an upload names one row. A row a master code still uses is not deleted (the seller is told
 * how many use it), nor a category with sub-categories. One writer of the category tree at a time per account.
 */

type Deps = { db: Kysely<Database> };
type Db = Kysely<Database> | Transaction<Database>;

const lockTree = (trx: Transaction<Database>, tenantId: string) =>
  lockFor(trx, 'inventory_categories', tenantId);

const nameTaken = {
  category: 'CATEGORY_NAME_TAKEN',
  brand: 'BRAND_NAME_TAKEN',
  unit: 'UNIT_NAME_TAKEN',
} as const;
const inUse = { category: 'CATEGORY_IN_USE', brand: 'BRAND_IN_USE', unit: 'UNIT_IN_USE' } as const;

function categoryRefusal(error: unknown, name: string | undefined): unknown {
  if (violation(error, '23505', 'inventory_categories_name_idx')) {
    return refuseCatalogue(nameTaken.category, { name: name ?? '' });
  }
  return error;
}

async function requireParent(trx: Db, tenantId: string, parentId: string) {
  const parent = await findCategory(trx, tenantId, parentId);
  if (!parent) throw refuseCatalogue('PARENT_NOT_FOUND');
  return parent;
}

/** Adds a category at the root or under a parent. */
export async function createCategory(
  deps: Deps,
  actor: Actor,
  input: NewCategory,
): Promise<InventoryCategory> {
  const { name, parent_id = null } = input;
  try {
    const created = await deps.db.transaction().execute(async (trx) => {
      await lockTree(trx, actor.tenantId);
      const parent = parent_id === null ? null : await requireParent(trx, actor.tenantId, parent_id);
      const row = await trx
        .insertInto('inventory_categories')
        .values({ id: randomUUID(), tenant_id: actor.tenantId, name, parent_id: parent?.id ?? null })
        .returning(['id', 'name', 'parent_id', 'created_at', 'updated_at'])
        .executeTakeFirstOrThrow();
      await logActivity(trx, {
        tenantId: actor.tenantId,
        userId: actor.userId,
        action: 'inventory_category.created',
        subjectType: 'inventory_category',
        subjectId: row.id,
        detail: { name, parent_id: row.parent_id },
      });
      return row;
    });
    return categoryAnswer(created);
  } catch (error) {
    throw categoryRefusal(error, name);
  }
}

/** Renames or moves a category (never under itself or one of its sub-categories). */
export async function changeCategory(
  deps: Deps,
  actor: Actor,
  input: { id: string; changes: CategoryChanges },
): Promise<InventoryCategory> {
  const { tenantId } = actor;
  const { name, parent_id } = input.changes;
  try {
    const updated = await deps.db.transaction().execute(async (trx) => {
      await lockTree(trx, tenantId);
      const before = await findCategory(trx, tenantId, input.id);
      if (!before) throw refuseCatalogue('NOT_FOUND');
      let parentId = before.parent_id;
      if (parent_id !== undefined && parent_id !== null) {
        const parent = await requireParent(trx, tenantId, parent_id);
        if ((await subtreeIds(trx, tenantId, before.id)).includes(parent.id)) {
          throw refuseCatalogue('PARENT_CYCLE');
        }
        parentId = parent.id;
      } else if (parent_id === null) {
        parentId = null;
      }
      const row = await trx
        .updateTable('inventory_categories')
        .set({ name: name ?? before.name, parent_id: parentId, updated_at: new Date() })
        .where('id', '=', before.id)
        .returning(['id', 'name', 'parent_id', 'created_at', 'updated_at'])
        .executeTakeFirstOrThrow();
      await logActivity(trx, {
        tenantId,
        userId: actor.userId,
        action: 'inventory_category.updated',
        subjectType: 'inventory_category',
        subjectId: before.id,
        detail: {
          from: { name: before.name, parent_id: before.parent_id },
          to: { name: row.name, parent_id: row.parent_id },
        },
      });
      return row;
    });
    return categoryAnswer(updated);
  } catch (error) {
    throw categoryRefusal(error, name);
  }
}

/** Deletes a category no master code uses and without sub-categories. */
export async function deleteCategory(deps: Deps, actor: Actor, input: { id: string }): Promise<string> {
  const { tenantId } = actor;
  try {
    return await deps.db.transaction().execute(async (trx) => {
      await lockTree(trx, tenantId);
      const category = await findCategory(trx, tenantId, input.id);
      if (!category) throw refuseCatalogue('NOT_FOUND');
      const children = await trx
        .selectFrom('inventory_categories')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('tenant_id', '=', tenantId)
        .where('parent_id', '=', category.id)
        .executeTakeFirstOrThrow();
      if (Number(children.n) > 0) {
        throw refuseCatalogue('HAS_SUBCATEGORIES', { count: Number(children.n) });
      }
      const used = await usedBy(trx, tenantId, 'category_id', category.id);
      if (used > 0) throw refuseCatalogue(inUse.category, { count: used });
      await trx.deleteFrom('inventory_categories').where('id', '=', category.id).execute();
      await logActivity(trx, {
        tenantId,
        userId: actor.userId,
        action: 'inventory_category.deleted',
        subjectType: 'inventory_category',
        subjectId: category.id,
        detail: { name: category.name, parent_id: category.parent_id },
      });
      return category.id;
    });
  } catch (error) {
    // A master code took the category between the check and the delete.
    if (violation(error, '23503')) throw refuseCatalogue(inUse.category, { count: 1 });
    throw error;
  }
}

// ---- brands and units: a name each ----

const entryRefusal = (kind: FlatKind, error: unknown, name: string) =>
  violation(error, '23505', `${flatTable(kind)}_name_idx`)
    ? refuseCatalogue(nameTaken[kind], { name })
    : error;

const lockEntry = async (trx: Db, kind: FlatKind, tenantId: string, id: string) =>
  isUuid(id)
    ? trx
        .selectFrom(flatTable(kind))
        .select(['id', 'name'])
        .where('id', '=', id)
        .where('tenant_id', '=', tenantId)
        .forUpdate()
        .executeTakeFirst()
    : undefined;

/** Adds a brand or a unit. */
export async function createEntry(
  deps: Deps,
  actor: Actor,
  input: { kind: FlatKind; name: string },
): Promise<CatalogueEntry> {
  const { kind, name } = input;
  try {
    return await deps.db.transaction().execute(async (trx) => {
      const id = randomUUID();
      await trx.insertInto(flatTable(kind)).values({ id, tenant_id: actor.tenantId, name }).execute();
      await logActivity(trx, {
        tenantId: actor.tenantId,
        userId: actor.userId,
        action: `${kind}.created`,
        subjectType: kind,
        subjectId: id,
        detail: { name },
      });
      return entryById(trx, kind, id);
    });
  } catch (error) {
    throw entryRefusal(kind, error, name);
  }
}

/** Renames a brand or a unit. */
export async function renameEntry(
  deps: Deps,
  actor: Actor,
  input: { kind: FlatKind; id: string; name: string },
): Promise<CatalogueEntry> {
  const { kind, name } = input;
  try {
    return await deps.db.transaction().execute(async (trx) => {
      const before = await lockEntry(trx, kind, actor.tenantId, input.id);
      if (!before) throw refuseCatalogue('NOT_FOUND');
      await trx
        .updateTable(flatTable(kind))
        .set({ name, updated_at: new Date() })
        .where('id', '=', before.id)
        .execute();
      await logActivity(trx, {
        tenantId: actor.tenantId,
        userId: actor.userId,
        action: `${kind}.updated`,
        subjectType: kind,
        subjectId: before.id,
        detail: { name: { from: before.name, to: name } },
      });
      return entryById(trx, kind, before.id);
    });
  } catch (error) {
    throw entryRefusal(kind, error, name);
  }
}

/** Deletes a brand or a unit no master code uses. */
export async function deleteEntry(
  deps: Deps,
  actor: Actor,
  input: { kind: FlatKind; id: string },
): Promise<string> {
  const { kind } = input;
  try {
    return await deps.db.transaction().execute(async (trx) => {
      const row = await lockEntry(trx, kind, actor.tenantId, input.id);
      if (!row) throw refuseCatalogue('NOT_FOUND');
      const used = await usedBy(trx, actor.tenantId, flatColumn(kind), row.id);
      if (used > 0) throw refuseCatalogue(inUse[kind], { count: used });
      await trx.deleteFrom(flatTable(kind)).where('id', '=', row.id).execute();
      await logActivity(trx, {
        tenantId: actor.tenantId,
        userId: actor.userId,
        action: `${kind}.deleted`,
        subjectType: kind,
        subjectId: row.id,
        detail: { name: row.name },
      });
      return row.id;
    });
  } catch (error) {
    if (violation(error, '23503')) throw refuseCatalogue(inUse[kind], { count: 1 });
    throw error;
  }
}
