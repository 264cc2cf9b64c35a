import { randomUUID } from 'node:crypto';
import type { AddCategory, Category, DeletedCategory, UpdateCategory } from '@api/contracts/categories';
import { refuseCategory } from '@domain/platform/categories';
import type { Database } from '@infra/db';
import { findCategory, subtreeIds } from '@projections/categories/tree';
import { type Kysely, sql, type Transaction } from 'kysely';
import { logActivity } from '../support/activity';
import type { Actor } from '../support/actor';

/**
 * Changes to a category tree: add, rename or move, delete with its sub-tree. One writer at a time per tree, so two
 * moves cannot together make a cycle; each change writes its activity-log row in the same transaction.
 */

export interface CategoryDeps {
  db: Kysely<Database>;
}

async function lockTree(trx: Transaction<Database>, tenantId: string, platform: string) {
  await sql`SELECT pg_advisory_xact_lock(hashtext(${`categories|${tenantId}|${platform}`}))`.execute(trx);
}

/** A parent must be a category of the same account and platform; any other id answers as not found. */
async function requireParent(
  trx: Transaction<Database>,
  tenantId: string,
  platform: string,
  parentId: string,
) {
  const parent = await findCategory(trx, tenantId, platform, parentId);
  if (!parent) throw refuseCategory('PARENT_NOT_FOUND');
  return parent;
}

const log = (
  trx: Transaction<Database>,
  actor: Actor,
  action: string,
  id: string,
  detail: Record<string, unknown>,
) =>
  logActivity(trx, {
    tenantId: actor.tenantId,
    userId: actor.userId,
    action,
    subjectType: 'category',
    subjectId: id,
    detail,
  });

export async function addCategory(
  { db }: CategoryDeps,
  actor: Actor,
  input: AddCategory & { platform: string },
): Promise<Category> {
  const { platform, name, parent_id = null } = input;
  return db.transaction().execute(async (trx) => {
    await lockTree(trx, actor.tenantId, platform);
    if (parent_id !== null) await requireParent(trx, actor.tenantId, platform, parent_id);
    const category = await trx
      .insertInto('categories')
      .values({ id: randomUUID(), tenant_id: actor.tenantId, platform, name, parent_id })
      .returning(['id', 'name', 'parent_id'])
      .executeTakeFirstOrThrow();
    await log(trx, actor, 'category.created', category.id, { platform, name, parent_id });
    return category;
  });
}

/** A category renamed or moved; never under itself or one of its descendants. */
export async function updateCategory(
  { db }: CategoryDeps,
  actor: Actor,
  input: UpdateCategory & { platform: string },
): Promise<Category> {
  const { platform, id, name, parent_id } = input;
  return db.transaction().execute(async (trx) => {
    await lockTree(trx, actor.tenantId, platform);
    const before = await findCategory(trx, actor.tenantId, platform, id);
    if (!before) throw refuseCategory('NOT_FOUND');
    const parentId = parent_id === undefined ? before.parent_id : parent_id;
    if (parentId !== null && parentId !== before.parent_id) {
      await requireParent(trx, actor.tenantId, platform, parentId);
      if ((await subtreeIds(trx, id)).includes(parentId.toLowerCase())) throw refuseCategory('PARENT_CYCLE');
    }
    const category = await trx
      .updateTable('categories')
      .set({ name, parent_id: parentId, updated_at: new Date() })
      .where('id', '=', before.id)
      .returning(['id', 'name', 'parent_id'])
      .executeTakeFirstOrThrow();
    await log(trx, actor, 'category.updated', id, {
      platform,
      from: { name: before.name, parent_id: before.parent_id },
      to: { name, parent_id: parentId },
    });
    return category;
  });
}

/** A category deleted with its sub-categories. */
export async function deleteCategory(
  { db }: CategoryDeps,
  actor: Actor,
  input: { platform: string; id: string },
): Promise<DeletedCategory> {
  const { platform, id } = input;
  return db.transaction().execute(async (trx) => {
    await lockTree(trx, actor.tenantId, platform);
    const category = await findCategory(trx, actor.tenantId, platform, id);
    if (!category) throw refuseCategory('NOT_FOUND');
    const ids = await subtreeIds(trx, category.id);
    // The foreign key removes the sub-tree with its root.
    await trx.deleteFrom('categories').where('id', '=', category.id).execute();
    await log(trx, actor, 'category.deleted', category.id, {
      platform,
      name: category.name,
      deleted: ids.length,
    });
    return { id: category.id, deleted: ids.length };
  });
}
