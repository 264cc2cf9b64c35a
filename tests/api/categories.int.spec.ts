import { randomUUID } from 'node:crypto';
import { ErrorAnswer } from '@api/answers';
import type { CategoryNode } from '@api/contracts/categories';
import { CATEGORY_NAME_MAX_LENGTH } from '@domain/platform/categories';
import {
  bearer,
  createSeller,
  createSubUser,
  createTestApi,
  type TestApi,
  type TestSeller,
} from '@tests/support/api';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

/** The tree as `name` or `name > [children]`, easy to compare. */
const outline = (nodes: CategoryNode[]): unknown[] =>
  nodes.map((node) => (node.children.length ? { [node.name]: outline(node.children) } : node.name));

describe('storefront and other-platform categories (spec §3, §5, §8, §9)', () => {
  let api: TestApi;
  let sellerA: TestSeller;
  let sellerB: TestSeller;

  const inject = (method: 'GET' | 'POST', url: string, token: string, payload?: unknown, language?: string) =>
    api.app.inject({
      method,
      url,
      headers: bearer(token, language),
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const failure = (response: { statusCode: number; json: () => unknown }) => ({
    status: response.statusCode,
    ...ErrorAnswer.pick({ code: true, msg: true }).parse(response.json()),
  });
  const add = async (token: string, platform: string, name: string, parent_id: string | null = null) => {
    const response = await inject('POST', `/api/category/${platform}/add`, token, { name, parent_id });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data.id as string;
  };
  const tree = async (token: string, platform: string) => {
    const response = await inject('GET', `/api/category/${platform}`, token);
    expect(response.statusCode, response.body).toBe(200);
    return outline(response.json().data);
  };
  const snapshot = () =>
    api.database.db
      .selectFrom('categories')
      .select(['id', 'tenant_id', 'platform', 'name', 'parent_id'])
      .orderBy('id')
      .execute();

  beforeAll(async () => {
    api = await createTestApi();
    sellerA = await createSeller(api);
    sellerB = await createSeller(api);
  });
  afterAll(async () => {
    await api?.close();
  });
  beforeEach(async () => {
    await api.database.db.deleteFrom('categories').execute();
  });

  it('builds a tree per platform: roots and sub-categories, sorted by name (0 created)', async () => {
    const response = await inject('POST', '/api/category/webstore/add', sellerA.token, { name: '  Women  ' });
    expect(response.json()).toMatchObject({
      code: 0,
      msg: 'Category created',
      data: { name: 'Women', parent_id: null },
    });
    const women = response.json().data.id;
    const men = await add(sellerA.token, 'webstore', 'Men');
    await add(sellerA.token, 'webstore', 'Shoes', women);
    const dresses = await add(sellerA.token, 'webstore', 'dresses', women);
    await add(sellerA.token, 'webstore', 'Maxi', dresses);
    await add(sellerA.token, 'shopee', 'Electronics');

    expect(await tree(sellerA.token, 'webstore')).toEqual([
      'Men',
      { Women: [{ dresses: ['Maxi'] }, 'Shoes'] },
    ]);
    expect(await tree(sellerA.token, 'shopee')).toEqual(['Electronics']);
    expect(await tree(sellerA.token, 'lazada')).toEqual([]);
    const full = await inject('GET', '/api/category/webstore', sellerA.token);
    expect(full.json().data[0]).toEqual({ id: men, name: 'Men', parent_id: null, children: [] });

    const log = await api.database.db
      .selectFrom('activity_log')
      .select(['action', 'tenant_id', 'user_id'])
      .where('subject_id', '=', women)
      .execute();
    expect(log).toEqual([
      { action: 'category.created', tenant_id: sellerA.tenantId, user_id: sellerA.userId },
    ]);
  });

  it('answers 410 "Name is required" for a missing, blank or mistyped name, and stores nothing', async () => {
    for (const body of [{}, { name: '' }, { name: '   \t ' }, { name: null }, { name: 42 }, undefined]) {
      const response = await inject('POST', '/api/category/webstore/add', sellerA.token, body);
      expect(failure(response), JSON.stringify(body)).toEqual({
        status: 400,
        code: 410,
        msg: 'Name is required',
      });
    }
    const long = await inject('POST', '/api/category/webstore/add', sellerA.token, {
      name: 'n'.repeat(CATEGORY_NAME_MAX_LENGTH + 1),
    });
    expect(failure(long)).toEqual({
      status: 400,
      code: 410,
      msg: `Name is more than ${CATEGORY_NAME_MAX_LENGTH} characters`,
    });
    const exact = await inject('POST', '/api/category/webstore/add', sellerA.token, {
      name: 'n'.repeat(CATEGORY_NAME_MAX_LENGTH),
    });
    expect(exact.statusCode).toBe(200);
    await api.database.db.deleteFrom('categories').execute();

    const malformed: unknown[] = [
      { name: 'Bags', tenant_id: sellerB.tenantId },
      { name: 'Bags', parent_id: 7 },
      { name: 'Bags', parent_id: 'p'.repeat(65) },
      ['Bags'],
    ];
    for (const body of malformed) {
      const response = await inject('POST', '/api/category/webstore/add', sellerA.token, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
    }
    const unknownPlatform = await inject('POST', '/api/category/ebay/add', sellerA.token, { name: 'Bags' });
    expect(failure(unknownPlatform)).toEqual({ status: 400, code: 400, msg: 'Unknown platform' });
    expect(await snapshot()).toEqual([]);
  });

  it('refuses a parent of another platform, another account or nowhere, as not found', async () => {
    const shopeeRoot = await add(sellerA.token, 'shopee', 'Phones');
    const theirs = await add(sellerB.token, 'webstore', 'Theirs');
    const before = await snapshot();
    for (const parent_id of [shopeeRoot, theirs, randomUUID(), 'not-a-uuid']) {
      const response = await inject('POST', '/api/category/webstore/add', sellerA.token, {
        name: 'Cases',
        parent_id,
      });
      expect(failure(response)).toEqual({ status: 404, code: 404, msg: 'The parent category was not found' });
    }
    expect(await snapshot()).toEqual(before);
  });

  it('renames and moves a category (0 updated), and refuses a move under itself or its sub-tree', async () => {
    const women = await add(sellerA.token, 'webstore', 'Women');
    const men = await add(sellerA.token, 'webstore', 'Men');
    const shoes = await add(sellerA.token, 'webstore', 'Shoes', women);
    const boots = await add(sellerA.token, 'webstore', 'Boots', shoes);
    const update = (body: unknown) => inject('POST', '/api/category/webstore/update', sellerA.token, body);

    const renamed = await update({ id: shoes, name: 'Footwear' });
    expect(renamed.json()).toEqual({
      code: 0,
      msg: 'Category updated',
      data: { id: shoes, name: 'Footwear', parent_id: women },
    });
    const moved = await update({ id: shoes, name: 'Footwear', parent_id: men });
    expect(moved.json().data).toEqual({ id: shoes, name: 'Footwear', parent_id: men });
    expect(await tree(sellerA.token, 'webstore')).toEqual([{ Men: [{ Footwear: ['Boots'] }] }, 'Women']);

    for (const parent_id of [shoes, boots]) {
      const cycle = await update({ id: shoes, name: 'Footwear', parent_id });
      expect(failure(cycle)).toEqual({
        status: 409,
        code: 409,
        msg: 'A category cannot be placed under itself or one of its sub-categories',
      });
    }
    const toRoot = await update({ id: boots, name: 'Boots', parent_id: null });
    expect(toRoot.json().data.parent_id).toBeNull();
    expect(await tree(sellerA.token, 'webstore')).toEqual(['Boots', { Men: ['Footwear'] }, 'Women']);

    const log = await api.database.db
      .selectFrom('activity_log')
      .select('detail')
      .where('subject_id', '=', shoes)
      .where('action', '=', 'category.updated')
      .orderBy('id')
      .execute();
    expect(log[0]?.detail).toMatchObject({ from: { name: 'Shoes' }, to: { name: 'Footwear' } });
  });

  it('answers 400 "Missing ID", 410 "Name is required" and 404 for an unknown id on update', async () => {
    const id = await add(sellerA.token, 'webstore', 'Women');
    const before = await snapshot();
    const update = (body: unknown) => inject('POST', '/api/category/webstore/update', sellerA.token, body);
    const missing = { status: 400, code: 400, msg: 'Missing ID' };
    expect(failure(await update({ name: 'X' }))).toEqual(missing);
    expect(failure(await update({ id: '', name: 'X' }))).toEqual(missing);
    expect(failure(await update({ id: null, name: 'X' }))).toEqual(missing);
    expect(failure(await update(undefined))).toEqual(missing);
    const nameRequired = { status: 400, code: 410, msg: 'Name is required' };
    expect(failure(await update({ id }))).toEqual(nameRequired);
    expect(failure(await update({ id, name: '  ' }))).toEqual(nameRequired);
    const notFound = { status: 404, code: 404, msg: 'No record found!' };
    expect(failure(await update({ id: randomUUID(), name: 'X' }))).toEqual(notFound);
    expect(failure(await update({ id: 'not-a-uuid', name: 'X' }))).toEqual(notFound);
    // The same id under another platform's path is not found either.
    const elsewhere = await inject('POST', '/api/category/shopee/update', sellerA.token, { id, name: 'X' });
    expect(failure(elsewhere)).toEqual(notFound);
    expect((await update({ id, name: 'X', platform: 'shopee' })).statusCode).toBe(400);
    expect((await update({ id, name: 'n'.repeat(CATEGORY_NAME_MAX_LENGTH + 1) })).statusCode).toBe(400);
    expect(await snapshot()).toEqual(before);
  });

  it('deletes a category with its sub-tree (0 deleted), and answers 400 "Missing ID" or 404', async () => {
    const women = await add(sellerA.token, 'webstore', 'Women');
    const shoes = await add(sellerA.token, 'webstore', 'Shoes', women);
    await add(sellerA.token, 'webstore', 'Boots', shoes);
    await add(sellerA.token, 'webstore', 'Men');
    const remove = (body: unknown) => inject('POST', '/api/category/webstore/delete', sellerA.token, body);

    const deleted = await remove({ id: women });
    expect(deleted.json()).toEqual({ code: 0, msg: 'Category deleted', data: { id: women, deleted: 3 } });
    expect(await tree(sellerA.token, 'webstore')).toEqual(['Men']);
    const log = await api.database.db
      .selectFrom('activity_log')
      .select('detail')
      .where('subject_id', '=', women)
      .where('action', '=', 'category.deleted')
      .executeTakeFirstOrThrow();
    expect(log.detail).toMatchObject({ name: 'Women', deleted: 3 });

    const missing = { status: 400, code: 400, msg: 'Missing ID' };
    for (const body of [{}, { id: '' }, undefined]) expect(failure(await remove(body))).toEqual(missing);
    const notFound = { status: 404, code: 404, msg: 'No record found!' };
    expect(failure(await remove({ id: women }))).toEqual(notFound);
    expect(failure(await remove({ id: 'drop table' }))).toEqual(notFound);
    expect(failure(await remove({ id: 12 }))).toMatchObject({ status: 400, code: 400 });
    expect((await remove({ id: shoes, cascade: false })).statusCode).toBe(400);
  });

  it("keeps each account's trees apart: another account's id answers like a missing one", async () => {
    const mine = await add(sellerA.token, 'webstore', 'Mine');
    await add(sellerB.token, 'webstore', 'Theirs');
    expect(await tree(sellerA.token, 'webstore')).toEqual(['Mine']);
    expect(await tree(sellerB.token, 'webstore')).toEqual(['Theirs']);
    const before = await snapshot();
    const notFound = { status: 404, code: 404, msg: 'No record found!' };
    const renamed = await inject('POST', '/api/category/webstore/update', sellerB.token, {
      id: mine,
      name: 'Taken',
    });
    expect(failure(renamed)).toEqual(notFound);
    const removed = await inject('POST', '/api/category/webstore/delete', sellerB.token, { id: mine });
    expect(failure(removed)).toEqual(notFound);
    const child = await inject('POST', '/api/category/webstore/add', sellerB.token, {
      name: 'Child',
      parent_id: mine,
    });
    expect(child.statusCode).toBe(404);
    const search = await inject('GET', '/api/category/webstore/search?q=mi', sellerB.token);
    expect(search.json().data).toEqual([]);
    expect(await snapshot()).toEqual(before);
  });

  it('searches from 2 characters, with the path of each match', async () => {
    const home = await add(sellerA.token, 'lazada', 'Home & Living');
    const kitchen = await add(sellerA.token, 'lazada', 'Kitchen', home);
    await add(sellerA.token, 'lazada', 'Kitchen_Knives', kitchen);
    await add(sellerA.token, 'lazada', 'Garden');
    await add(sellerA.token, 'shopee', 'Kitchenware');

    const search = (q: string, language?: string) =>
      inject(
        'GET',
        `/api/category/lazada/search?q=${encodeURIComponent(q)}`,
        sellerA.token,
        undefined,
        language,
      );
    const found = await search('KITCH');
    expect(found.statusCode, found.body).toBe(200);
    expect(found.json().data).toEqual([
      { id: kitchen, name: 'Kitchen', parent_id: home, path: ['Home & Living', 'Kitchen'] },
      {
        id: expect.any(String),
        name: 'Kitchen_Knives',
        parent_id: kitchen,
        path: ['Home & Living', 'Kitchen', 'Kitchen_Knives'],
      },
    ]);
    // LIKE wildcards are plain text.
    expect((await search('n_')).json().data.map((c: { name: string }) => c.name)).toEqual(['Kitchen_Knives']);
    expect((await search('%%')).json().data).toEqual([]);

    const tooShort = { status: 400, code: 400, msg: 'This entry is too short (minimum is 2 characters)' };
    expect(failure(await search('k'))).toEqual(tooShort);
    expect(failure(await search(' k '))).toEqual(tooShort);
    expect(failure(await inject('GET', '/api/category/lazada/search', sellerA.token))).toEqual(tooShort);
    expect(failure(await search('k', 'zh-cn'))).toEqual({
      status: 400,
      code: 400,
      msg: '内容太短（至少 2 个字符）',
    });
    expect((await search('k'.repeat(CATEGORY_NAME_MAX_LENGTH + 1))).statusCode).toBe(400);
  });

  it('needs listings-index to read and listings-manage to write (403 otherwise)', async () => {
    const id = await add(sellerA.token, 'webstore', 'Women');
    const reader = (await createSubUser(api, sellerA.tenantId, ['listings-index'])).token;
    const nobody = (await createSubUser(api, sellerA.tenantId, ['sales-index'])).token;
    const manager = (await createSubUser(api, sellerA.tenantId, ['listings-index', 'listings-manage'])).token;

    expect(await tree(reader, 'webstore')).toEqual(['Women']);
    expect((await inject('GET', '/api/category/webstore/search?q=wo', reader)).statusCode).toBe(200);
    const before = await snapshot();
    const writes = [
      inject('POST', '/api/category/webstore/add', reader, { name: 'Men' }),
      inject('POST', '/api/category/webstore/update', reader, { id, name: 'Ladies' }),
      inject('POST', '/api/category/webstore/delete', reader, { id }),
    ];
    for (const response of await Promise.all(writes)) {
      expect(failure(response)).toEqual({
        status: 403,
        code: 403,
        msg: 'You do not have permission to do this.',
      });
    }
    expect(await snapshot()).toEqual(before);
    expect((await inject('GET', '/api/category/webstore', nobody)).statusCode).toBe(403);
    expect((await inject('GET', '/api/category/webstore/search?q=wo', nobody)).statusCode).toBe(403);

    const managed = await inject('POST', '/api/category/webstore/update', manager, { id, name: 'Ladies' });
    expect(managed.json()).toMatchObject({ code: 0, data: { name: 'Ladies' } });
    expect((await api.app.inject({ method: 'GET', url: '/api/category/webstore' })).statusCode).toBe(401);
  });

  it('answers in the language header', async () => {
    const zh = await inject('POST', '/api/category/webstore/add', sellerA.token, { name: '' }, 'zh-cn');
    expect(failure(zh)).toEqual({ status: 400, code: 410, msg: '名称为必填项' });
    const th = await inject('POST', '/api/category/webstore/update', sellerA.token, { name: 'x' }, 'th-th');
    expect(failure(th)).toEqual({ status: 400, code: 400, msg: 'ไม่มี ID' });
    const created = await inject(
      'POST',
      '/api/category/webstore/add',
      sellerA.token,
      { name: 'Bags' },
      'zh-cn',
    );
    expect(created.json()).toMatchObject({ code: 0, msg: '分类已创建' });
  });

  it('documents the routes in the OpenAPI document, the recursive tree as a named schema', async () => {
    const response = await api.app.inject({ method: 'GET', url: '/docs/json' });
    expect(response.statusCode).toBe(200);
    const paths = response.json().paths as Record<string, Record<string, unknown>>;
    for (const path of ['', '/search', '/add', '/update', '/delete']) {
      expect(paths[`/api/category/{platform}${path}`], path).toBeDefined();
    }
    expect(JSON.stringify(paths['/api/category/{platform}'])).toContain(
      '"$ref":"#/components/schemas/CategoryNode"',
    );
  });
});
