import { randomUUID } from 'node:crypto';
import type { ErrorAnswer } from '@api/contracts/common';
import { TeamCode } from '@domain/access/team';
import { InventoryCode } from '@domain/inventory/codes';
import { TEXT_LIMITS } from '@domain/shared/limits';
import {
  caller,
  createGroup,
  createSeller,
  createTestApi,
  type TestApi,
  type TestSeller,
} from '@tests/support/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The console's forms, through their APIs: a form sent with several problems hears of all of them in one answer,
 * each by its field (`errors`), so the seller puts them right in one go; a text over its limit is refused with the
 * limit in the message, and one at the limit is kept whole, never cut.
 */
describe('forms: every problem in one answer, one rule for long text', () => {
  let api: TestApi;
  let seller: TestSeller;
  const call = caller(() => api);
  const unique = () => randomUUID().slice(0, 8);

  beforeAll(async () => {
    api = await createTestApi();
    seller = await createSeller(api, { packageId: 'growth' });
  });
  afterAll(async () => {
    await api?.close();
  });

  const fieldsOf = (answer: ErrorAnswer) =>
    Object.fromEntries((answer.errors ?? []).map((error) => [error.path, error.message]));

  it('a warehouse with no code, a name over the limit and a bad phone: all three in one 400', async () => {
    const response = await call('POST', '/api/inventory/warehouse', seller.token, {
      code: '',
      name: 'W'.repeat(TEXT_LIMITS.name + 1),
      phone: 'call me',
    });
    expect(response.statusCode).toBe(400);
    expect(fieldsOf(response.json())).toEqual({
      'body/code': 'Please enter the code.',
      'body/name': `This entry is too long (maximum is ${TEXT_LIMITS.name} characters).`,
      'body/phone': 'The phone number may contain only digits, spaces, +, -, ( and ).',
    });
  });

  it('a master code whose code is taken and whose category, brand and unit are gone: all four in one answer', async () => {
    const code = `FORM-${unique()}`;
    const first = await call('POST', '/api/inventory/master-code', seller.token, { code, name: 'First' });
    expect(first.statusCode, first.body).toBe(200);
    const gone = randomUUID();
    const response = await call('POST', '/api/inventory/master-code', seller.token, {
      code,
      name: 'Second',
      category_id: gone,
      brand_id: gone,
      unit_id: gone,
    });
    const answer = response.json() as ErrorAnswer;
    // The first problem decides the answer's code and message; every one is listed by its field.
    expect(response.statusCode).toBe(409);
    expect(answer).toMatchObject({
      code: InventoryCode.codeTaken,
      msg: `The master code ${code} already exists.`,
    });
    expect(fieldsOf(answer)).toEqual({
      'body/code': `The master code ${code} already exists.`,
      'body/category_id': 'The chosen category does not exist.',
      'body/brand_id': 'The chosen brand does not exist.',
      'body/unit_id': 'The chosen unit does not exist.',
    });
    const codes = await api.database.db
      .selectFrom('master_codes')
      .select('name')
      .where('tenant_id', '=', seller.tenantId)
      .where('code', '=', code)
      .execute();
    expect(codes).toEqual([{ name: 'First' }]);
  });

  it('a master code changed to gone references hears of each, and may keep its own code in another case', async () => {
    const code = `EDIT-${unique()}`;
    const created = (
      await call('POST', '/api/inventory/master-code', seller.token, { code, name: 'Editable' })
    ).json().data as { id: string };
    const gone = randomUUID();
    const refused = await call('PUT', `/api/inventory/master-code/${created.id}`, seller.token, {
      brand_id: gone,
      unit_id: gone,
    });
    expect(refused.statusCode).toBe(400);
    expect(Object.keys(fieldsOf(refused.json()))).toEqual(['body/brand_id', 'body/unit_id']);
    const recased = await call('PUT', `/api/inventory/master-code/${created.id}`, seller.token, {
      code: code.toLowerCase(),
    });
    expect(recased.statusCode, recased.body).toBe(200);
  });

  it('a sub-user whose username and e-mail are both in use: both in one answer', async () => {
    const group = await createGroup(api, seller, `Packers ${unique()}`, ['sales-index']);
    const password = 'packing day 7';
    const user = (username: string) => ({
      username,
      email: `${username}@shop.test`,
      first_name: 'Nur',
      last_name: '',
      phone: '',
      password,
      confirm_password: password,
      group_id: group,
      status: 'active',
    });
    const username = `packer_${unique()}`;
    const first = await call('POST', '/api/setting/users', seller.token, user(username));
    expect(first.statusCode, first.body).toBe(200);
    const again = await call('POST', '/api/setting/users', seller.token, {
      ...user(username),
      group_id: randomUUID(),
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: TeamCode.usernameTaken });
    expect(fieldsOf(again.json())).toEqual({
      'body/username': `The username ${username} is already taken.`,
      'body/email': `The e-mail address ${username}@shop.test is already in use.`,
      'body/group_id': 'The chosen group does not exist.',
    });
  });

  it('a purchase order naming a supplier, a warehouse and an item the account does not have: all three', async () => {
    const gone = randomUUID();
    const response = await call('POST', '/api/purchases', seller.token, {
      supplier_id: gone,
      warehouse_id: gone,
      items: [{ master_code_id: gone, quantity: 1, unit_cost: '1.00' }],
    });
    expect(response.statusCode).toBe(404);
    expect(Object.keys(fieldsOf(response.json()))).toEqual([
      'body/supplier_id',
      'body/warehouse_id',
      'body/items/0/master_code_id',
    ]);
  });

  it('a supplier missing several fields hears of each at once', async () => {
    const response = await call('POST', '/api/purchases/suppliers', seller.token, { name: 'Kilang' });
    expect(response.statusCode).toBe(400);
    expect(Object.keys(fieldsOf(response.json())).sort()).toEqual(
      [
        'body/address',
        'body/city',
        'body/company',
        'body/contact_number',
        'body/country',
        'body/postal_code',
        'body/state',
      ].sort(),
    );
  });

  it('refuses a name over the limit with the limit in the message, and keeps one at the limit whole', async () => {
    const long = await call('POST', '/api/inventory/brand', seller.token, {
      name: 'B'.repeat(TEXT_LIMITS.name + 1),
    });
    expect(long.statusCode).toBe(400);
    expect(long.json()).toMatchObject({
      code: InventoryCode.textInvalid,
      msg: `This entry is too long (maximum is ${TEXT_LIMITS.name} characters).`,
    });
    const name = `${unique()}${'B'.repeat(TEXT_LIMITS.name - 8)}`;
    const kept = await call('POST', '/api/inventory/brand', seller.token, { name });
    expect(kept.statusCode, kept.body).toBe(200);
    expect((kept.json().data as { name: string }).name).toBe(name);
    const zh = await call(
      'POST',
      '/api/inventory/unit',
      seller.token,
      { name: 'U'.repeat(TEXT_LIMITS.name + 1) },
      'zh-cn',
    );
    expect(zh.json().msg).toBe(`输入内容过长（最多 ${TEXT_LIMITS.name} 个字符）。`);
  });
});
