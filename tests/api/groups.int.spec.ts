import { randomUUID } from 'node:crypto';
import { PERMISSION_AREAS, PERMISSION_KEYS } from '@domain/access/permissions';
import { TeamCode } from '@domain/access/team';
import { TEXT_LIMITS } from '@domain/shared/limits';
import {
  bearer,
  caller,
  createSeller,
  createGroup as createSharedGroup,
  createTestApi,
  signIn,
  type TestApi,
  type TestSeller,
} from '@tests/support/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

describe('user groups and the permission checklist', () => {
  let api: TestApi;
  let owner: TestSeller;
  let other: TestSeller;

  beforeAll(async () => {
    api = await createTestApi();
    owner = await createSeller(api, { packageId: 'growth' });
    other = await createSeller(api, { packageId: 'growth' });
  });
  afterAll(async () => {
    await api?.close();
  });

  const call = caller(() => api);

  const createGroup = (seller: TestSeller, name: string, permissions: string[]) =>
    createSharedGroup(api, seller, name, permissions);

  let subUserSeq = 0;
  async function createSubUser(seller: TestSeller, groupId: string) {
    subUserSeq += 1;
    const username = `staff.${subUserSeq}.${randomUUID().slice(0, 6)}`;
    const password = 'picker pass 9';
    const response = await call('POST', '/api/setting/users', seller.token, {
      username,
      email: `${username}@shop.test`,
      first_name: 'Staff',
      password,
      confirm_password: password,
      group_id: groupId,
      status: 'active',
    });
    expect(response.statusCode, response.body).toBe(200);
    return { id: response.json().data.id as string, username, password };
  }

  const groupCount = async (tenantId: string) =>
    Number(
      (
        await api.database.db
          .selectFrom('user_groups')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('tenant_id', '=', tenantId)
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('answers the permission keys by area for the checklist, to any seller user', async () => {
    const groupId = await createGroup(owner, 'Checklist readers', []);
    const subUser = await createSubUser(owner, groupId);
    const subToken = await signIn(api.app, subUser.username, subUser.password);
    for (const token of [owner.token, subToken]) {
      const response = await call('GET', '/api/setting/permission-keys', token);
      expect(response.statusCode).toBe(200);
      const areas = response.json().data.areas as { area: string; keys: string[] }[];
      expect(areas).toEqual(
        Object.entries(PERMISSION_AREAS).map(([area, keys]) => ({ area, keys: [...keys] })),
      );
      expect(areas.flatMap((a) => a.keys)).toEqual([...PERMISSION_KEYS]);
    }
    expect((await api.app.inject({ method: 'GET', url: '/api/setting/permission-keys' })).statusCode).toBe(
      401,
    );
  });

  it('creates, lists, reads, updates and deletes a group, logging each change', async () => {
    const created = await call('POST', '/api/setting/groups', owner.token, {
      name: '  Pickers ',
      permissions: ['orders-order-by-task', 'mobile-scan-login', 'orders-order-by-task'],
    });
    expect(created.statusCode).toBe(200);
    const group = created.json();
    expect(group).toMatchObject({
      code: 0,
      msg: 'Group created',
      data: { name: 'Pickers', permissions: ['orders-order-by-task', 'mobile-scan-login'], member_count: 0 },
    });
    const id = group.data.id as string;

    const list = await call('GET', '/api/setting/groups', owner.token);
    expect(list.statusCode).toBe(200);
    expect(list.json().data).toContainEqual(group.data);

    const read = await call('GET', `/api/setting/groups/${id}`, owner.token);
    expect(read.json().data).toEqual(group.data);

    const updated = await call('PUT', `/api/setting/groups/${id}`, owner.token, {
      name: 'Pickers (day)',
      permissions: ['mobile-scan-login', 'mobile-scan-tracking'],
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({
      code: 0,
      msg: 'Group updated',
      data: { id, name: 'Pickers (day)', permissions: ['mobile-scan-login', 'mobile-scan-tracking'] },
    });
    const renamed = await call('PUT', `/api/setting/groups/${id}`, owner.token, { name: 'Pickers (night)' });
    expect(renamed.json().data).toMatchObject({
      name: 'Pickers (night)',
      permissions: ['mobile-scan-login', 'mobile-scan-tracking'],
    });

    const deleted = await call('DELETE', `/api/setting/groups/${id}`, owner.token);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toEqual({ code: 0, msg: 'Group deleted', data: { id } });
    expect((await call('GET', `/api/setting/groups/${id}`, owner.token)).statusCode).toBe(404);

    const log = await api.database.db
      .selectFrom('activity_log')
      .select(['action', 'tenant_id', 'user_id', 'detail'])
      .where('subject_id', '=', id)
      .orderBy('id')
      .execute();
    expect(log.map((row) => row.action)).toEqual([
      'group.created',
      'group.updated',
      'group.updated',
      'group.deleted',
    ]);
    expect(log.every((row) => row.tenant_id === owner.tenantId && row.user_id === owner.userId)).toBe(true);
    expect(log[1]!.detail).toMatchObject({
      granted: ['mobile-scan-tracking'],
      revoked: ['orders-order-by-task'],
    });
  });

  it('refuses a duplicate name, whatever its case, with a clear message', async () => {
    await createGroup(owner, 'Cashiers', ['pos-close-shift']);
    const before = await groupCount(owner.tenantId);
    const duplicate = await call('POST', '/api/setting/groups', owner.token, {
      name: 'CASHIERS',
      permissions: [],
    });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json()).toEqual({
      code: TeamCode.groupNameTaken,
      msg: 'A group named CASHIERS already exists.',
    });

    const managersId = await createGroup(owner, 'Managers', []);
    const rename = await call('PUT', `/api/setting/groups/${managersId}`, owner.token, { name: 'cashiers' });
    expect(rename.statusCode).toBe(409);
    expect(rename.json().code).toBe(TeamCode.groupNameTaken);
    expect(await groupCount(owner.tenantId)).toBe(before + 1);

    const zh = await call(
      'POST',
      '/api/setting/groups',
      owner.token,
      { name: 'Cashiers', permissions: [] },
      'zh-cn',
    );
    expect(zh.statusCode).toBe(409);
    expect(zh.json()).toEqual({ code: TeamCode.groupNameTaken, msg: '名为 Cashiers 的用户组已存在。' });

    // Another seller account may use the same name.
    await createGroup(other, 'Cashiers', []);
  });

  it('refuses an unknown permission key, naming it, and changes nothing', async () => {
    const before = await groupCount(owner.tenantId);
    const unknown = await call('POST', '/api/setting/groups', owner.token, {
      name: 'Sneaky',
      permissions: ['sales-index', 'god-mode'],
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({
      code: TeamCode.unknownPermission,
      msg: 'Unknown permission key: god-mode',
    });
    expect(unknown.json().errors[0].path).toBe('body/permissions/1');

    const id = await createGroup(owner, 'Packers', ['warehouse-app-pack']);
    const update = await call('PUT', `/api/setting/groups/${id}`, owner.token, { permissions: ['root'] });
    expect(update.statusCode).toBe(400);
    expect(update.json().code).toBe(TeamCode.unknownPermission);
    expect((await call('GET', `/api/setting/groups/${id}`, owner.token)).json().data.permissions).toEqual([
      'warehouse-app-pack',
    ]);
    expect(await groupCount(owner.tenantId)).toBe(before + 1);
  });

  it('refuses to delete a group while users are in it', async () => {
    const id = await createGroup(owner, 'Supervisors', ['pos-supervisor-access']);
    const member = await createSubUser(owner, id);
    expect((await call('GET', `/api/setting/groups/${id}`, owner.token)).json().data.member_count).toBe(1);
    const refused = await call('DELETE', `/api/setting/groups/${id}`, owner.token);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      code: TeamCode.groupInUse,
      msg: 'This group still has 1 user. Move them to another group before deleting it.',
    });
    expect((await call('GET', `/api/setting/groups/${id}`, owner.token)).statusCode).toBe(200);

    expect((await call('DELETE', `/api/setting/users/${member.id}`, owner.token)).statusCode).toBe(200);
    expect((await call('DELETE', `/api/setting/groups/${id}`, owner.token)).statusCode).toBe(200);
  });

  it("applies a group's new permissions on the member's next request", async () => {
    const id = await createGroup(owner, 'Sales desk', ['sales-index', 'sales-manage']);
    const member = await createSubUser(owner, id);
    const token = await signIn(api.app, member.username, member.password);
    const granted = async () => {
      const response = await call('GET', '/api/info/permission', token);
      expect(response.statusCode).toBe(200);
      const map = response.json().data as Record<string, boolean>;
      expect(Object.keys(map).sort()).toEqual([...PERMISSION_KEYS].sort());
      return Object.keys(map).filter((key) => map[key]);
    };
    expect((await granted()).sort()).toEqual(['sales-index', 'sales-manage']);

    const changed = await call('PUT', `/api/setting/groups/${id}`, owner.token, {
      permissions: ['orders-batch'],
    });
    expect(changed.statusCode).toBe(200);
    expect(await granted()).toEqual(['orders-batch']);

    await call('PUT', `/api/setting/groups/${id}`, owner.token, { permissions: [] });
    expect(await granted()).toEqual([]);
  });

  it('refuses every group route to a sub-user, even one holding every key', async () => {
    const id = await createGroup(owner, 'Everything', [...PERMISSION_KEYS]);
    const member = await createSubUser(owner, id);
    const token = await signIn(api.app, member.username, member.password);
    const attempts = [
      call('GET', '/api/setting/groups', token),
      call('GET', `/api/setting/groups/${id}`, token),
      call('POST', '/api/setting/groups', token, { name: 'Mine', permissions: [] }),
      call('PUT', `/api/setting/groups/${id}`, token, { name: 'Hijacked' }),
      call('DELETE', `/api/setting/groups/${id}`, token),
    ];
    for (const response of await Promise.all(attempts)) {
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ code: 403, msg: 'You do not have permission to do this.' });
    }
    expect((await call('GET', `/api/setting/groups/${id}`, owner.token)).json().data.name).toBe('Everything');
    expect((await api.app.inject({ method: 'GET', url: '/api/setting/groups' })).statusCode).toBe(401);
  });

  it("treats another account's group exactly like a missing one", async () => {
    const theirs = await createGroup(other, 'Their group', ['sales-index']);
    const missing = randomUUID();
    for (const [method, payload] of [
      ['GET', undefined],
      ['PUT', { name: 'Taken over', permissions: [...PERMISSION_KEYS] }],
      ['DELETE', undefined],
    ] as const) {
      const foreign = await call(method, `/api/setting/groups/${theirs}`, owner.token, payload);
      const absent = await call(method, `/api/setting/groups/${missing}`, owner.token, payload);
      expect(foreign.statusCode).toBe(404);
      expect(foreign.json()).toEqual(absent.json());
      expect(foreign.json()).toEqual({ code: 404, msg: 'No record found!' });
    }
    expect((await call('GET', '/api/setting/groups/not-a-uuid', owner.token)).statusCode).toBe(404);
    const list = (await call('GET', '/api/setting/groups', owner.token)).json().data as { id: string }[];
    expect(list.map((g) => g.id)).not.toContain(theirs);
    const stored = await api.database.db
      .selectFrom('user_groups')
      .select(['name', 'permissions'])
      .where('id', '=', theirs)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ name: 'Their group', permissions: ['sales-index'] });
  });

  it('answers malformed bodies with a 4xx, a code and a message, and changes nothing', async () => {
    const id = await createGroup(owner, 'Stable', ['billing']);
    const before = await groupCount(owner.tenantId);
    const badCreates: [unknown, number][] = [
      [{}, TeamCode.groupNameRequired],
      [{ permissions: [] }, TeamCode.groupNameRequired],
      [{ name: '', permissions: [] }, TeamCode.groupNameRequired],
      [{ name: '   ', permissions: [] }, TeamCode.groupNameRequired],
      [{ name: 42, permissions: [] }, TeamCode.groupNameRequired],
      [{ name: 'x'.repeat(TEXT_LIMITS.name + 1), permissions: [] }, TeamCode.groupNameTooLong],
      [{ name: 'No keys' }, TeamCode.permissionsInvalid],
      [{ name: 'Wrong type', permissions: 'sales-index' }, TeamCode.permissionsInvalid],
      [{ name: 'Wrong items', permissions: [1, 2] }, TeamCode.permissionsInvalid],
      [{ name: 'Long key', permissions: ['k'.repeat(5000)] }, TeamCode.permissionsInvalid],
      [{ name: 'Extra', permissions: [], tenant_id: other.tenantId }, 400],
      [[], 400],
    ];
    for (const [payload, code] of badCreates) {
      const response = await call('POST', '/api/setting/groups', owner.token, payload);
      const label = JSON.stringify(payload).slice(0, 80);
      expect(response.statusCode, label).toBe(400);
      expect(response.json().code, label).toBe(code);
      expect(response.json().msg).toEqual(expect.any(String));
    }
    const notJson = await call('POST', '/api/setting/groups', owner.token, 'just text');
    expect(notJson.statusCode).toBe(415);
    expect(notJson.json()).toMatchObject({ code: 415, msg: expect.any(String) });
    const brokenJson = await api.app.inject({
      method: 'POST',
      url: '/api/setting/groups',
      headers: { ...bearer(owner.token), 'content-type': 'application/json' },
      payload: '{"name": "Half',
    });
    expect(brokenJson.statusCode).toBe(400);
    expect(brokenJson.json()).toMatchObject({ code: 400, msg: expect.any(String) });

    for (const payload of [{}, { name: null }, { permissions: {} }, { name: 'Ok', extra: true }]) {
      const response = await call('PUT', `/api/setting/groups/${id}`, owner.token, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json()).toMatchObject({ code: expect.any(Number), msg: expect.any(String) });
    }
    expect(await groupCount(owner.tenantId)).toBe(before);
    expect((await call('GET', `/api/setting/groups/${id}`, owner.token)).json().data).toMatchObject({
      name: 'Stable',
      permissions: ['billing'],
    });

    const zh = await call('POST', '/api/setting/groups', owner.token, { name: '', permissions: [] }, 'zh-cn');
    expect(zh.json()).toMatchObject({ code: TeamCode.groupNameRequired, msg: '请输入用户组名称。' });
  });
});
