import { randomUUID } from 'node:crypto';
import { PERMISSION_KEYS } from '@domain/access/permissions';
import { SUB_USER_LIMIT_REACHED, TeamCode } from '@domain/access/team';
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
  tokenRequest,
} from '@tests/support/api';
import { waitFor } from '@tests/support/wait';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

describe('sub-users of a seller account', () => {
  let api: TestApi;
  /** On the growth package (10 sub-users), for everything but the limit. */
  let owner: TestSeller;
  let other: TestSeller;
  let staffGroup: string;

  beforeAll(async () => {
    api = await createTestApi();
    owner = await createSeller(api, { packageId: 'growth' });
    other = await createSeller(api, { packageId: 'growth' });
    staffGroup = await createGroup(owner, 'Staff', ['sales-index', 'orders-batch']);
  });
  afterAll(async () => {
    await api?.close();
  });

  const call = caller(() => api);

  const createGroup = (seller: TestSeller, name: string, permissions: string[]) =>
    createSharedGroup(api, seller, name, permissions);

  const password = 'shift start 7';
  let seq = 0;
  const newUser = (groupId: string, extra: Record<string, unknown> = {}) => {
    seq += 1;
    const username = `staff_${seq}.${randomUUID().slice(0, 6)}`;
    return {
      username,
      email: `${username}@shop.test`,
      first_name: 'Nur',
      last_name: 'Aisyah',
      phone: '+60 12-345 6789',
      password,
      confirm_password: password,
      group_id: groupId,
      status: 'active',
      ...extra,
    };
  };

  async function createUser(seller: TestSeller, groupId: string, extra: Record<string, unknown> = {}) {
    const body = newUser(groupId, extra);
    const response = await call('POST', '/api/setting/users', seller.token, body);
    expect(response.statusCode, response.body).toBe(200);
    return { id: response.json().data.id as string, username: body.username, email: body.email };
  }

  const subUserCount = async (tenantId: string) =>
    Number(
      (
        await api.database.db
          .selectFrom('users')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('tenant_id', '=', tenantId)
          .where('kind', '=', 'subuser')
          .executeTakeFirstOrThrow()
      ).n,
    );

  const status = async (token: string) => (await call('GET', '/api/user/info', token)).statusCode;

  it('creates, lists, reads, edits and deletes a sub-user, logging each change', async () => {
    const body = newUser(staffGroup, {
      username: `  Amir.K_${randomUUID().slice(0, 4)} `,
      email: ' AMIR@Shop.Test ',
    });
    const created = await call('POST', '/api/setting/users', owner.token, body);
    expect(created.statusCode, created.body).toBe(200);
    const user = created.json();
    expect(user).toMatchObject({
      code: 0,
      msg: 'Sub-user created',
      data: {
        kind: 'subuser',
        username: body.username.trim().toLowerCase(),
        email: 'amir@shop.test',
        first_name: 'Nur',
        last_name: 'Aisyah',
        phone: '+60 12-345 6789',
        status: 'active',
        group: { id: staffGroup, name: 'Staff' },
        editable: true,
        last_sign_in_at: null,
      },
    });
    expect(JSON.stringify(user)).not.toContain('password');
    const id = user.data.id as string;

    const read = await call('GET', `/api/setting/users/${id}`, owner.token);
    expect(read.json().data).toEqual(user.data);

    const list = await call('GET', '/api/setting/users', owner.token);
    expect(list.statusCode).toBe(200);
    const rows = list.json().data.rows as { id: string; kind: string; editable: boolean }[];
    expect(rows[0]).toMatchObject({ id: owner.userId, kind: 'owner', editable: false });
    expect(rows).toContainEqual(user.data);
    expect(list.json().data.lastRow).toBe(rows.length);

    const managers = await createGroup(owner, 'Managers', ['sales-manage']);
    const edited = await call('PUT', `/api/setting/users/${id}`, owner.token, {
      first_name: 'Amir',
      last_name: '',
      group_id: managers,
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({
      code: 0,
      msg: 'Sub-user updated',
      data: { id, first_name: 'Amir', last_name: '', group: { id: managers, name: 'Managers' } },
    });

    const token = await signIn(api.app, 'amir@shop.test', password);
    expect(await status(token)).toBe(200);
    const deleted = await call('DELETE', `/api/setting/users/${id}`, owner.token);
    expect(deleted.json()).toEqual({ code: 0, msg: 'Sub-user deleted', data: { id } });
    expect((await call('GET', `/api/setting/users/${id}`, owner.token)).statusCode).toBe(404);
    expect(await status(token)).toBe(401);

    const log = await api.database.db
      .selectFrom('activity_log')
      .select(['action', 'tenant_id', 'user_id', 'detail'])
      .where('subject_id', '=', id)
      .orderBy('id')
      .execute();
    expect(log.map((row) => row.action)).toEqual(['user.created', 'user.updated', 'user.deleted']);
    expect(log.every((row) => row.tenant_id === owner.tenantId && row.user_id === owner.userId)).toBe(true);
    expect(log[1]!.detail).toMatchObject({ group_id: { from: staffGroup, to: managers } });
    expect(JSON.stringify(log)).not.toContain(password);
  });

  it('signs a sub-user in by username, with exactly their group keys', async () => {
    const user = await createUser(owner, staffGroup);
    const token = await signIn(api.app, user.username.toUpperCase(), password);
    const info = await call('GET', '/api/user/info', token);
    expect(info.json().data).toMatchObject({
      kind: 'subuser',
      username: user.username,
      group: { id: staffGroup, name: 'Staff' },
      tenant: { id: owner.tenantId },
    });
    const map = (await call('GET', '/api/info/permission', token)).json().data as Record<string, boolean>;
    expect(Object.keys(map).sort()).toEqual([...PERMISSION_KEYS].sort());
    expect(
      Object.entries(map)
        .filter(([, held]) => held)
        .map(([key]) => key)
        .sort(),
    ).toEqual(['orders-batch', 'sales-index']);
  });

  it('keeps usernames and e-mails unique across all accounts', async () => {
    const taken = await createUser(other, await createGroup(other, 'Their staff', []));
    const before = await subUserCount(owner.tenantId);

    const sameUsername = await call('POST', '/api/setting/users', owner.token, {
      ...newUser(staffGroup),
      username: taken.username.toUpperCase(),
    });
    expect(sameUsername.statusCode).toBe(409);
    expect(sameUsername.json()).toEqual({
      code: TeamCode.usernameTaken,
      msg: `The username ${taken.username} is already taken.`,
    });

    const sameEmail = await call('POST', '/api/setting/users', owner.token, {
      ...newUser(staffGroup),
      email: taken.email.toUpperCase(),
    });
    expect(sameEmail.statusCode).toBe(409);
    expect(sameEmail.json()).toEqual({
      code: TeamCode.emailTaken,
      msg: `The e-mail address ${taken.email} is already in use.`,
    });

    const ownersEmail = await call('POST', '/api/setting/users', owner.token, {
      ...newUser(staffGroup),
      email: other.email,
    });
    expect(ownersEmail.json().code).toBe(TeamCode.emailTaken);

    const mine = await createUser(owner, staffGroup);
    const renameToTaken = await call('PUT', `/api/setting/users/${mine.id}`, owner.token, {
      username: taken.username,
    });
    expect(renameToTaken.statusCode).toBe(409);
    expect(renameToTaken.json().code).toBe(TeamCode.usernameTaken);
    expect(await subUserCount(owner.tenantId)).toBe(before + 1);
  });

  it('applies the password rule: more than 8 characters and at least one digit', async () => {
    const before = await subUserCount(owner.tenantId);
    for (const weak of ['abcdefg1', 'no digits here', '12345678']) {
      const response = await call('POST', '/api/setting/users', owner.token, {
        ...newUser(staffGroup),
        password: weak,
        confirm_password: weak,
      });
      expect(response.statusCode, weak).toBe(400);
      expect(response.json()).toMatchObject({
        code: TeamCode.passwordRule,
        msg: 'The password must be more than 8 characters and contain at least one digit.',
      });
    }
    const mismatch = await call('POST', '/api/setting/users', owner.token, {
      ...newUser(staffGroup),
      confirm_password: 'something 9 else',
    });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json()).toMatchObject({ code: TeamCode.passwordMismatch });
    expect(mismatch.json().errors[0].path).toBe('body/confirm_password');
    expect(
      (
        await call(
          'POST',
          '/api/setting/users',
          owner.token,
          newUser(staffGroup, { password: 'abcdefgh9', confirm_password: 'abcdefgh9' }),
        )
      ).statusCode,
    ).toBe(200);
    expect(await subUserCount(owner.tenantId)).toBe(before + 1);
  });

  it('refuses one sub-user more than the package allows, naming the limit and the package', async () => {
    const trial = await createSeller(api);
    const group = await createGroup(trial, 'Pickers', ['orders-order-by-task']);
    const first = await createUser(trial, group);
    // Inactive sub-users count too, so reactivating one never needs a free slot.
    await createUser(trial, group, { status: 'inactive' });
    const refused = await call('POST', '/api/setting/users', trial.token, newUser(group));
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({
      code: SUB_USER_LIMIT_REACHED,
      msg: 'Your package (Trial) allows 2 sub-user accounts. Upgrade your package to add more.',
    });
    expect(SUB_USER_LIMIT_REACHED).toBe(430);
    expect(await subUserCount(trial.tenantId)).toBe(2);

    const zh = await call('POST', '/api/setting/users', trial.token, newUser(group), 'zh-cn');
    expect(zh.statusCode).toBe(403);
    expect(zh.json()).toEqual({
      code: 430,
      msg: '您的套餐（Trial）最多允许 2 个子用户账号。请升级套餐以添加更多。',
    });
    const th = await call('POST', '/api/setting/users', trial.token, newUser(group), 'th-th');
    expect(th.json().msg).toMatch(/[\u0e00-\u0e7f]/);

    const usage = await call('GET', '/api/info/usage', trial.token);
    expect(usage.json().data.subUsers).toEqual({ used: 2, limit: 2 });

    expect((await call('DELETE', `/api/setting/users/${first.id}`, trial.token)).statusCode).toBe(200);
    await createUser(trial, group);
    expect(await subUserCount(trial.tenantId)).toBe(2);
  });

  it('lets exactly one of two simultaneous creations take the last free slot', async () => {
    const race = async (trial: TestSeller, group: string) => {
      const [a, b] = await Promise.all([
        call('POST', '/api/setting/users', trial.token, newUser(group)),
        call('POST', '/api/setting/users', trial.token, newUser(group)),
      ]);
      expect([a!.statusCode, b!.statusCode].sort()).toEqual([200, 403]);
      expect([a!.json().code, b!.json().code].sort()).toEqual([0, SUB_USER_LIMIT_REACHED]);
      expect(await subUserCount(trial.tenantId)).toBe(2);
    };

    // As it comes.
    const plain = await createSeller(api);
    const plainGroup = await createGroup(plain, 'Cashiers', ['pos-close-shift']);
    await createUser(plain, plainGroup);
    await race(plain, plainGroup);

    // Forced to overlap: while another transaction holds the group row, a creation that has counted the
    // sub-users cannot insert its own (the foreign key needs a lock on that row), so both requests reach their
    // check before either can finish. Only the account lock keeps the second from counting a stale number.
    const forced = await createSeller(api);
    const group = await createGroup(forced, 'Pickers', ['orders-order-by-task']);
    await createUser(forced, group);
    const holder = await api.database.pool.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT id FROM user_groups WHERE id = $1 FOR UPDATE', [group]);
      const racing = race(forced, group);
      await waitFor(
        async () => {
          const waiting = await api.database.pool.query<{ n: number }>(
            "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
          );
          return waiting.rows[0]!.n >= 2;
        },
        { what: 'both creations to wait on a lock' },
      );
      await holder.query('COMMIT');
      await racing;
    } finally {
      holder.release(true);
    }
  });

  it('refuses the owner routes to a sub-user, even with every key, and changes nothing', async () => {
    const everything = await createGroup(owner, 'All keys', [...PERMISSION_KEYS]);
    const staff = await createUser(owner, staffGroup);
    const token = await signIn(api.app, staff.username, password);
    const before = await subUserCount(owner.tenantId);
    const attempts = await Promise.all([
      call('GET', '/api/setting/users', token),
      call('GET', `/api/setting/users/${staff.id}`, token),
      call('POST', '/api/setting/users', token, newUser(everything)),
      call('PUT', `/api/setting/users/${staff.id}`, token, { group_id: everything }),
      call('PUT', `/api/setting/users/${owner.userId}`, token, { status: 'inactive' }),
      call('DELETE', `/api/setting/users/${owner.userId}`, token),
      call('POST', '/api/setting/groups', token, { name: 'Escalate', permissions: [...PERMISSION_KEYS] }),
      call('PUT', `/api/setting/groups/${staffGroup}`, token, { permissions: [...PERMISSION_KEYS] }),
    ]);
    for (const response of attempts) {
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ code: 403, msg: 'You do not have permission to do this.' });
    }
    expect(await subUserCount(owner.tenantId)).toBe(before);
    const stored = await api.database.db
      .selectFrom('users')
      .select('group_id')
      .where('id', '=', staff.id)
      .executeTakeFirstOrThrow();
    expect(stored.group_id).toBe(staffGroup);
    expect(await status(owner.token)).toBe(200);
  });

  it('revokes the tokens of a deactivated sub-user at once, and lets them back in when reactivated', async () => {
    const staff = await createUser(owner, staffGroup);
    const token = await signIn(api.app, staff.username, password);
    expect(await status(token)).toBe(200);

    const deactivated = await call('PUT', `/api/setting/users/${staff.id}`, owner.token, {
      status: 'inactive',
    });
    expect(deactivated.json().data.status).toBe('inactive');
    const refused = await call('GET', '/api/info/permission', token);
    expect(refused.statusCode).toBe(401);
    expect(refused.json().code).toBe(401);
    const tokens = await api.database.db
      .selectFrom('access_tokens')
      .select('revoked_at')
      .where('user_id', '=', staff.id)
      .execute();
    expect(tokens.length).toBe(1);
    expect(tokens[0]!.revoked_at).toBeInstanceOf(Date);
    const signInRefused = await api.app.inject({
      method: 'POST',
      url: '/oauth/token',
      payload: tokenRequest(staff.username, password),
    });
    expect(signInRefused.statusCode).toBe(400);

    await call('PUT', `/api/setting/users/${staff.id}`, owner.token, { status: 'active' });
    expect(await status(token)).toBe(401);
    const fresh = await signIn(api.app, staff.username, password);
    expect(await status(fresh)).toBe(200);
  });

  it("changes a sub-user's password, ending their sessions", async () => {
    const staff = await createUser(owner, staffGroup);
    const token = await signIn(api.app, staff.email, password);
    const newPassword = 'new shift 2024';
    const withoutConfirmation = await call('PUT', `/api/setting/users/${staff.id}`, owner.token, {
      password: newPassword,
    });
    expect(withoutConfirmation.statusCode).toBe(400);
    expect(withoutConfirmation.json().code).toBe(TeamCode.passwordMismatch);
    expect(await status(token)).toBe(200);

    const changed = await call('PUT', `/api/setting/users/${staff.id}`, owner.token, {
      password: newPassword,
      confirm_password: newPassword,
    });
    expect(changed.statusCode).toBe(200);
    expect(await status(token)).toBe(401);
    const old = await api.app.inject({
      method: 'POST',
      url: '/oauth/token',
      payload: tokenRequest(staff.email, password),
    });
    expect(old.statusCode).toBe(400);
    expect(await status(await signIn(api.app, staff.email, newPassword))).toBe(200);
  });

  it('lists the owner but does not let them be edited or deleted here', async () => {
    for (const [method, payload] of [
      ['PUT', { first_name: 'Changed' }],
      ['DELETE', undefined],
    ] as const) {
      const response = await call(method, `/api/setting/users/${owner.userId}`, owner.token, payload);
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({
        code: TeamCode.ownerNotEditable,
        msg: 'The account owner cannot be changed or deleted here.',
      });
    }
    const read = await call('GET', `/api/setting/users/${owner.userId}`, owner.token);
    expect(read.json().data).toMatchObject({ kind: 'owner', editable: false, first_name: 'Siti' });
  });

  it("treats another account's user exactly like a missing one, and refuses its groups", async () => {
    const theirGroup = await createGroup(other, 'Their pickers', ['orders-batch']);
    const theirs = await createUser(other, theirGroup);
    const missing = randomUUID();
    for (const [method, payload] of [
      ['GET', undefined],
      ['PUT', { status: 'inactive', group_id: staffGroup }],
      ['DELETE', undefined],
    ] as const) {
      const foreign = await call(method, `/api/setting/users/${theirs.id}`, owner.token, payload);
      const absent = await call(method, `/api/setting/users/${missing}`, owner.token, payload);
      expect(foreign.statusCode).toBe(404);
      expect(foreign.json()).toEqual(absent.json());
      expect(foreign.json()).toEqual({ code: 404, msg: 'No record found!' });
    }
    for (const id of [other.userId, 'not-a-uuid']) {
      expect((await call('GET', `/api/setting/users/${id}`, owner.token)).statusCode).toBe(404);
    }
    const stored = await api.database.db
      .selectFrom('users')
      .select(['status', 'group_id'])
      .where('id', '=', theirs.id)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ status: 'active', group_id: theirGroup });

    const before = await subUserCount(owner.tenantId);
    const foreignGroup = await call('POST', '/api/setting/users', owner.token, newUser(theirGroup));
    expect(foreignGroup.statusCode).toBe(400);
    // The refusal names its field, so the form shows it beside the group.
    expect(foreignGroup.json()).toEqual({
      code: TeamCode.groupNotFound,
      msg: 'The chosen group does not exist.',
      errors: [{ path: 'body/group_id', message: 'The chosen group does not exist.' }],
    });
    const mine = await createUser(owner, staffGroup);
    const moveToForeign = await call('PUT', `/api/setting/users/${mine.id}`, owner.token, {
      group_id: theirGroup,
    });
    expect(moveToForeign.json().code).toBe(TeamCode.groupNotFound);
    expect(await subUserCount(owner.tenantId)).toBe(before + 1);

    const list = await call('GET', '/api/setting/users?endRow=1000', owner.token);
    const ids = (list.json().data.rows as { id: string }[]).map((row) => row.id);
    expect(ids).not.toContain(theirs.id);
    expect(ids).not.toContain(other.userId);
  });

  it('pages, sorts, filters and searches the users grid in SQL', async () => {
    const shop = await createSeller(api, { packageId: 'growth' });
    const packers = await createGroup(shop, 'Packers', []);
    const drivers = await createGroup(shop, 'Drivers', []);
    const people = [
      { username: 'zara.lim', first_name: 'Zara', last_name: 'Lim', group_id: packers, status: 'active' },
      { username: 'adam_tan', first_name: 'Adam', last_name: 'Tan', group_id: drivers, status: 'inactive' },
      { username: 'mei-ling', first_name: 'Mei', last_name: 'Ling', group_id: packers, status: 'active' },
      {
        username: 'bala100',
        first_name: 'Bala',
        last_name: 'Subramaniam',
        group_id: drivers,
        status: 'active',
      },
    ];
    for (const person of people) {
      const response = await call('POST', '/api/setting/users', shop.token, {
        ...person,
        email: `${person.username}@grid.test`,
        password,
        confirm_password: password,
      });
      expect(response.statusCode, response.body).toBe(200);
    }
    const grid = async (query: Record<string, unknown>) => {
      const search = new URLSearchParams(
        Object.entries(query).map(([k, v]): [string, string] => [
          k,
          typeof v === 'string' ? v : JSON.stringify(v),
        ]),
      );
      const response = await call('GET', `/api/setting/users?${search}`, shop.token);
      expect(response.statusCode, response.body).toBe(200);
      const data = response.json().data as {
        rows: { username: string | null; kind: string }[];
        lastRow: number;
      };
      return { usernames: data.rows.map((row) => row.username), lastRow: data.lastRow, rows: data.rows };
    };

    const all = await grid({});
    expect(all.lastRow).toBe(5);
    expect(all.rows[0]!.kind).toBe('owner');
    expect(all.usernames.slice(1)).toEqual(['zara.lim', 'adam_tan', 'mei-ling', 'bala100']);

    const byUsername = await grid({ sortModel: [{ colId: 'username', sort: 'asc' }] });
    expect(byUsername.usernames).toEqual(['adam_tan', 'bala100', 'mei-ling', 'zara.lim', null]);
    const page = await grid({ sortModel: [{ colId: 'username', sort: 'desc' }], startRow: 1, endRow: 3 });
    expect(page).toMatchObject({ usernames: ['mei-ling', 'bala100'], lastRow: 5 });
    const byGroup = await grid({
      sortModel: [
        { colId: 'group', sort: 'asc' },
        { colId: 'name', sort: 'desc' },
      ],
    });
    expect(byGroup.usernames).toEqual(['bala100', 'adam_tan', 'zara.lim', 'mei-ling', null]);

    const active = await grid({
      filterModel: { status: { filterType: 'set', values: ['inactive'] } },
    });
    expect(active).toMatchObject({ usernames: ['adam_tan'], lastRow: 1 });
    const none = await grid({ filterModel: { status: { filterType: 'set', values: [] } } });
    expect(none).toMatchObject({ usernames: [], lastRow: 0 });

    const contains = await grid({
      filterModel: { username: { filterType: 'text', type: 'contains', filter: 'A' } },
      sortModel: [{ colId: 'username', sort: 'asc' }],
    });
    expect(contains.usernames).toEqual(['adam_tan', 'bala100', 'zara.lim']);
    const combined = await grid({
      filterModel: {
        name: {
          filterType: 'text',
          operator: 'OR',
          conditions: [
            { filterType: 'text', type: 'startsWith', filter: 'mei' },
            { filterType: 'text', type: 'endsWith', filter: 'lim' },
          ],
        },
        email: { filterType: 'text', type: 'endsWith', filter: '@grid.test' },
      },
      sortModel: [{ colId: 'email', sort: 'asc' }],
    });
    expect(combined.usernames).toEqual(['mei-ling', 'zara.lim']);
    const literal = await grid({
      filterModel: { username: { filterType: 'text', type: 'contains', filter: '_' } },
    });
    expect(literal.usernames).toEqual(['adam_tan']);
    const equals = await grid({
      filterModel: { username: { filterType: 'text', type: 'equals', filter: 'BALA100' } },
    });
    expect(equals.usernames).toEqual(['bala100']);

    expect((await grid({ search: 'subram' })).usernames).toEqual(['bala100']);
    expect(
      (await grid({ search: 'drivers', sortModel: [{ colId: 'created_at', sort: 'desc' }] })).usernames,
    ).toEqual(['bala100', 'adam_tan']);
    expect((await grid({ search: '%' })).lastRow).toBe(0);

    for (const query of [
      'sortModel=%5B%7B%22colId%22%3A%22password_hash%22%2C%22sort%22%3A%22asc%22%7D%5D',
      `filterModel=${encodeURIComponent(JSON.stringify({ tenant_id: { filterType: 'text', type: 'equals', filter: 'x' } }))}`,
      `filterModel=${encodeURIComponent(JSON.stringify({ username: { filterType: 'text', type: 'regex', filter: '.*' } }))}`,
      `filterModel=${encodeURIComponent(JSON.stringify({ status: { filterType: 'set', values: ['deleted'] } }))}`,
      'filterModel=not-json',
      'startRow=-1',
      'endRow=abc',
      `search=${'s'.repeat(201)}`,
      'unknown=1',
    ]) {
      const response = await call('GET', `/api/setting/users?${query}`, shop.token);
      expect(response.statusCode, query).toBe(400);
      expect(response.json()).toMatchObject({ code: 400, msg: expect.any(String) });
    }
  });

  it('answers malformed bodies with a 4xx, a code and a message, and changes nothing', async () => {
    const staff = await createUser(owner, staffGroup);
    const before = await subUserCount(owner.tenantId);
    const valid = newUser(staffGroup);
    const { first_name: _first, ...withoutFirstName } = valid;
    const { group_id: _group, ...withoutGroup } = valid;
    const { password: _password, ...withoutPassword } = valid;
    const badCreates: [string, unknown, number][] = [
      ['empty', {}, TeamCode.usernameInvalid],
      ['array', [valid], 400],
      ['no first name', withoutFirstName, TeamCode.firstNameRequired],
      ['no group', withoutGroup, TeamCode.groupNotFound],
      ['no password', withoutPassword, TeamCode.passwordRule],
      ['username too short', { ...valid, username: 'ab' }, TeamCode.usernameInvalid],
      ['username with space', { ...valid, username: 'two words' }, TeamCode.usernameInvalid],
      ['username with @', { ...valid, username: 'me@shop' }, TeamCode.usernameInvalid],
      ['username too long', { ...valid, username: 'u'.repeat(51) }, TeamCode.usernameInvalid],
      ['username a number', { ...valid, username: 12345 }, TeamCode.usernameInvalid],
      ['bad e-mail', { ...valid, email: 'not-an-email' }, TeamCode.emailInvalid],
      ['huge e-mail', { ...valid, email: `${'e'.repeat(300)}@shop.test` }, TeamCode.emailInvalid],
      ['first name too long', { ...valid, first_name: 'n'.repeat(TEXT_LIMITS.name + 1) }, 400],
      ['blank first name', { ...valid, first_name: '   ' }, TeamCode.firstNameRequired],
      ['phone with letters', { ...valid, phone: 'call me' }, 400],
      [
        'huge password',
        { ...valid, password: `1${'p'.repeat(300)}`, confirm_password: `1${'p'.repeat(300)}` },
        400,
      ],
      ['status unknown', { ...valid, status: 'deleted' }, 400],
      ['status boolean', { ...valid, status: true }, 400],
      ['group a number', { ...valid, group_id: 7 }, TeamCode.groupNotFound],
      ['group unknown', { ...valid, group_id: randomUUID() }, TeamCode.groupNotFound],
      ['group not a uuid', { ...valid, group_id: 'staff' }, TeamCode.groupNotFound],
      ['unknown field kind', { ...valid, kind: 'owner' }, 400],
      ['unknown field tenant', { ...valid, tenant_id: other.tenantId }, 400],
    ];
    for (const [label, payload, code] of badCreates) {
      const response = await call('POST', '/api/setting/users', owner.token, payload);
      expect(response.statusCode, label).toBe(400);
      expect(response.json().code, label).toBe(code);
      expect(response.json().msg, label).toEqual(expect.any(String));
    }
    const badEdits: [string, unknown][] = [
      ['empty', {}],
      ['unknown field', { kind: 'owner' }],
      ['tenant', { tenant_id: other.tenantId }],
      ['wrong type', { first_name: 5 }],
      ['null status', { status: null }],
      ['weak password', { password: 'short1', confirm_password: 'short1' }],
      ['oversize phone', { phone: '1'.repeat(31) }],
    ];
    for (const [label, payload] of badEdits) {
      const response = await call('PUT', `/api/setting/users/${staff.id}`, owner.token, payload);
      expect(response.statusCode, label).toBe(400);
      expect(response.json()).toMatchObject({ code: expect.any(Number), msg: expect.any(String) });
    }
    const brokenJson = await api.app.inject({
      method: 'POST',
      url: '/api/setting/users',
      headers: { ...bearer(owner.token), 'content-type': 'application/json' },
      payload: '{"username": ',
    });
    expect(brokenJson.statusCode).toBe(400);
    expect(brokenJson.json()).toMatchObject({ code: 400, msg: expect.any(String) });

    expect(await subUserCount(owner.tenantId)).toBe(before);
    const unchanged = (await call('GET', `/api/setting/users/${staff.id}`, owner.token)).json().data;
    expect(unchanged).toMatchObject({ username: staff.username, status: 'active', first_name: 'Nur' });
    expect(await status(await signIn(api.app, staff.username, password))).toBe(200);

    const zh = await call('POST', '/api/setting/users', owner.token, { ...valid, username: 'ab' }, 'zh-cn');
    expect(zh.json()).toMatchObject({
      code: TeamCode.usernameInvalid,
      msg: '用户名须为 3 至 50 个字符，只能包含小写字母、数字、点、下划线或连字符。',
    });
    const th = await call('POST', '/api/setting/users', owner.token, { ...valid, username: 'ab' }, 'th-th');
    expect(th.json().msg).toMatch(/[\u0e00-\u0e7f]/);
  });
});
