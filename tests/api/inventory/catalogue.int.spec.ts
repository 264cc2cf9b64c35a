import { randomUUID } from 'node:crypto';
import { InventoryCode } from '@domain/inventory/codes';
import { TEXT_LIMITS } from '@domain/shared/limits';
import {
  createSeller,
  createSubUser,
  createTestApi,
  type TestApi,
  type TestSeller,
} from '@tests/support/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activities, caller, data, refusal } from './inventory-api';

type Node = {
  id: string;
  name: string;
  parent_id: string | null;
  master_code_count: number;
  children: Node[];
};
type Entry = { id: string; name: string; master_code_count: number };

describe('inventory categories, brands and units', () => {
  let api: TestApi;
  let owner: TestSeller;
  let other: TestSeller;
  const call = caller(() => api);

  beforeAll(async () => {
    api = await createTestApi();
    owner = await createSeller(api, { packageId: 'growth' });
    other = await createSeller(api, { packageId: 'growth' });
  });
  afterAll(async () => {
    await api?.close();
  });

  const addCategory = async (seller: TestSeller, name: string, parent_id?: string) =>
    data<{ id: string; name: string; parent_id: string | null }>(
      await call('POST', '/api/inventory/category', seller.token, { name, parent_id }),
    );
  const useIn = async (seller: TestSeller, field: string, id: string) =>
    data(
      await call('POST', '/api/inventory/master-code', seller.token, {
        code: `USE-${randomUUID().slice(0, 8)}`,
        name: 'User',
        [field]: id,
      }),
    );

  describe('categories', () => {
    it('builds a tree, renames and moves a category, and logs each change', async () => {
      const food = await addCategory(owner, 'Food');
      const drinks = await addCategory(owner, ' Drinks ');
      const coffee = await addCategory(owner, 'Coffee', food.id);
      expect(drinks.name).toBe('Drinks');
      const moved = await call('PUT', `/api/inventory/category/${coffee.id}`, owner.token, {
        name: 'Coffee beans',
        parent_id: drinks.id,
      });
      expect(moved.json()).toMatchObject({
        code: 0,
        msg: 'Category updated',
        data: { id: coffee.id, name: 'Coffee beans', parent_id: drinks.id },
      });
      await useIn(owner, 'category_id', coffee.id);
      const tree = data<Node[]>(await call('GET', '/api/inventory/category', owner.token));
      expect(tree).toEqual([
        {
          id: drinks.id,
          name: 'Drinks',
          parent_id: null,
          master_code_count: 0,
          children: [
            { id: coffee.id, name: 'Coffee beans', parent_id: drinks.id, master_code_count: 1, children: [] },
          ],
        },
        { id: food.id, name: 'Food', parent_id: null, master_code_count: 0, children: [] },
      ]);
      // To the root again.
      expect(
        data<{ parent_id: string | null }>(
          await call('PUT', `/api/inventory/category/${coffee.id}`, owner.token, { parent_id: null }),
        ).parent_id,
      ).toBeNull();
      expect((await activities(api, owner.tenantId, coffee.id)).map((row) => row.action)).toEqual([
        'inventory_category.created',
        'inventory_category.updated',
        'inventory_category.updated',
      ]);
    });

    it('refuses a duplicate name, a missing name, an unknown parent and a cycle', async () => {
      const top = await addCategory(owner, 'Toys');
      const middle = await addCategory(owner, 'Puzzles', top.id);
      const bottom = await addCategory(owner, 'Jigsaws', middle.id);
      expect(refusal(await call('POST', '/api/inventory/category', owner.token, { name: 'toys' }))).toEqual({
        status: 409,
        code: InventoryCode.nameTaken,
        msg: 'A category named toys already exists.',
      });
      expect(refusal(await call('POST', '/api/inventory/category', owner.token, { name: ' ' }))).toEqual({
        status: 400,
        code: InventoryCode.nameRequired,
        msg: 'Please enter the category name.',
      });
      const foreign = await addCategory(other, 'Foreign');
      for (const parent_id of [randomUUID(), foreign.id, 'nope']) {
        expect(
          refusal(await call('POST', '/api/inventory/category', owner.token, { name: 'Orphan', parent_id })),
        ).toEqual({
          status: 400,
          code: InventoryCode.categoryNotFound,
          msg: 'The parent category does not exist.',
        });
      }
      for (const parent_id of [top.id, bottom.id]) {
        expect(
          refusal(await call('PUT', `/api/inventory/category/${top.id}`, owner.token, { parent_id })),
        ).toEqual({
          status: 409,
          code: InventoryCode.categoryCycle,
          msg: 'A category cannot be placed under itself or one of its sub-categories.',
        });
      }
      expect(refusal(await call('PUT', `/api/inventory/category/${top.id}`, owner.token, {}))).toMatchObject({
        status: 400,
        code: InventoryCode.nothingToChange,
      });
      const still = await api.database.db
        .selectFrom('inventory_categories')
        .select('parent_id')
        .where('id', '=', top.id)
        .executeTakeFirstOrThrow();
      expect(still.parent_id).toBeNull();
    });

    it('deletes only a category without sub-categories that no master code uses', async () => {
      const parent = await addCategory(owner, 'Garden');
      const child = await addCategory(owner, 'Seeds', parent.id);
      expect(refusal(await call('DELETE', `/api/inventory/category/${parent.id}`, owner.token))).toEqual({
        status: 409,
        code: InventoryCode.hasSubcategories,
        msg: 'This category has 1 sub-category. Move or delete it first.',
      });
      await useIn(owner, 'category_id', child.id);
      expect(refusal(await call('DELETE', `/api/inventory/category/${child.id}`, owner.token))).toEqual({
        status: 409,
        code: InventoryCode.inUse,
        msg: '1 master code uses this category. Change its category before deleting it.',
      });
      const empty = await addCategory(owner, 'Empty', parent.id);
      const deleted = await call('DELETE', `/api/inventory/category/${empty.id}`, owner.token);
      expect(deleted.json()).toEqual({ code: 0, msg: 'Category deleted', data: { id: empty.id } });
      expect((await activities(api, owner.tenantId, empty.id)).map((row) => row.action)).toEqual([
        'inventory_category.created',
        'inventory_category.deleted',
      ]);
    });

    it("keeps each account's categories to itself", async () => {
      const mine = await addCategory(owner, 'Private');
      const missing = await call('PUT', `/api/inventory/category/${randomUUID()}`, other.token, {
        name: 'X',
      });
      expect(missing.statusCode).toBe(404);
      for (const response of [
        await call('PUT', `/api/inventory/category/${mine.id}`, other.token, { name: 'X' }),
        await call('DELETE', `/api/inventory/category/${mine.id}`, other.token),
      ]) {
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual(missing.json());
      }
      const theirs = data<Node[]>(await call('GET', '/api/inventory/category', other.token));
      expect(theirs.map((node) => node.name)).toEqual(['Foreign']);
    });
  });

  describe.each(['brand', 'unit'] as const)('%ss', (kind) => {
    const path = `/api/inventory/${kind}`;
    const field = `${kind}_id`;
    const title = kind === 'brand' ? 'Brand' : 'Unit';

    it('adds, lists, renames and deletes, logging each change', async () => {
      const seller = await createSeller(api, { packageId: 'growth' });
      const zeta = data<Entry>(await call('POST', path, seller.token, { name: 'Zeta' }));
      const created = await call('POST', path, seller.token, { name: ' alpha ' });
      expect(created.json()).toMatchObject({
        code: 0,
        msg: `${title} created`,
        data: { name: 'alpha', master_code_count: 0 },
      });
      const alpha = data<Entry>(created);
      await useIn(seller, field, zeta.id);
      expect(
        data<Entry[]>(await call('GET', path, seller.token)).map((row) => [row.name, row.master_code_count]),
      ).toEqual([
        ['alpha', 0],
        ['Zeta', 1],
      ]);
      const renamed = await call('PUT', `${path}/${alpha.id}`, seller.token, { name: 'Alpha' });
      expect(renamed.json()).toMatchObject({
        code: 0,
        msg: `${title} updated`,
        data: { id: alpha.id, name: 'Alpha' },
      });
      expect((await call('DELETE', `${path}/${alpha.id}`, seller.token)).json()).toEqual({
        code: 0,
        msg: `${title} deleted`,
        data: { id: alpha.id },
      });
      expect((await activities(api, seller.tenantId, alpha.id)).map((row) => row.action)).toEqual([
        `${kind}.created`,
        `${kind}.updated`,
        `${kind}.deleted`,
      ]);
    });

    it('refuses a duplicate or missing name, deleting one in use, and another account', async () => {
      const seller = await createSeller(api, { packageId: 'growth' });
      const used = data<Entry>(await call('POST', path, seller.token, { name: 'Used' }));
      const free = data<Entry>(await call('POST', path, seller.token, { name: 'Free' }));
      expect(refusal(await call('POST', path, seller.token, { name: 'USED' }))).toEqual({
        status: 409,
        code: InventoryCode.nameTaken,
        msg: `A ${kind} named USED already exists.`,
      });
      expect(refusal(await call('PUT', `${path}/${free.id}`, seller.token, { name: 'used' }))).toMatchObject({
        status: 409,
        code: InventoryCode.nameTaken,
      });
      expect(refusal(await call('POST', path, seller.token, {}))).toEqual({
        status: 400,
        code: InventoryCode.nameRequired,
        msg: `Please enter the ${kind} name.`,
      });
      expect(
        refusal(await call('POST', path, seller.token, { name: 'x'.repeat(TEXT_LIMITS.name + 1) })),
      ).toMatchObject({
        status: 400,
        code: InventoryCode.textInvalid,
      });
      await useIn(seller, field, used.id);
      expect(refusal(await call('DELETE', `${path}/${used.id}`, seller.token))).toEqual({
        status: 409,
        code: InventoryCode.inUse,
        msg: `1 master code uses this ${kind}. Change its ${kind} before deleting it.`,
      });
      // Another seller may use the same name, and cannot touch this one.
      data(await call('POST', path, other.token, { name: 'Used' }));
      expect((await call('DELETE', `${path}/${free.id}`, other.token)).statusCode).toBe(404);
      expect((await call('PUT', `${path}/${free.id}`, other.token, { name: 'Mine' })).statusCode).toBe(404);
      expect(data<Entry[]>(await call('GET', path, seller.token)).map((row) => row.name)).toEqual([
        'Free',
        'Used',
      ]);
    });
  });

  it('translates refusals', async () => {
    await addCategory(owner, 'Books');
    expect(
      refusal(await call('POST', '/api/inventory/category', owner.token, { name: 'Books' }, 'zh-cn')),
    ).toEqual({
      status: 409,
      code: InventoryCode.nameTaken,
      msg: '名为 Books 的分类已存在。',
    });
    expect(refusal(await call('POST', '/api/inventory/brand', owner.token, { name: '' }, 'th-th')).msg).toBe(
      'กรุณากรอกชื่อแบรนด์',
    );
  });

  it('lets the categories key manage and the master code key read the pickers', async () => {
    const manager = await createSubUser(api, owner.tenantId, ['inventory-categories']);
    const editor = await createSubUser(api, owner.tenantId, ['inventory-master-code']);
    const outsider = await createSubUser(api, owner.tenantId, ['inventory-rack']);
    for (const kind of ['category', 'brand', 'unit']) {
      const path = `/api/inventory/${kind}`;
      const created = data<{ id: string }>(
        await call('POST', path, manager.token, { name: `By manager ${kind}` }),
      );
      expect((await call('GET', path, editor.token)).statusCode).toBe(200);
      expect((await call('POST', path, editor.token, { name: 'Editor' })).statusCode).toBe(403);
      expect((await call('PUT', `${path}/${created.id}`, editor.token, { name: 'Editor' })).statusCode).toBe(
        403,
      );
      expect((await call('DELETE', `${path}/${created.id}`, editor.token)).statusCode).toBe(403);
      expect((await call('GET', path, outsider.token)).statusCode).toBe(403);
    }
  });
});
