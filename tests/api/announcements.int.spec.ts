import { randomUUID } from 'node:crypto';
import { ErrorAnswer } from '@api/answers';
import { TITLE_MAX_LENGTH } from '@domain/platform/announcements';
import {
  bearer,
  createAdmin,
  createSeller,
  createSubUser,
  createTestApi,
  type TestApi,
  type TestSeller,
} from '@tests/support/api';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

const DAY = 24 * 60 * 60 * 1000;
const at = (offsetDays: number) => new Date(Date.now() + offsetDays * DAY).toISOString();

/** A provider admin, written straight into the users table as the first start does, then signed in at /admin-login/. */
const validAnnouncement = () => ({
  priority: 5,
  subject: 'Scheduled maintenance',
  content: 'The console will be unavailable on Sunday from 01:00 to 03:00.',
  start_at: at(-1),
  end_at: at(7),
  is_active: true,
  requires_ack: false,
  country: null as string | null,
  prompt: false,
});

describe('announcements (spec §3–5, §8)', () => {
  let api: TestApi;
  let admin: { userId: string; token: string };
  let sellerMy: TestSeller;
  let sellerTh: TestSeller;

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
  const count = async () =>
    Number(
      (
        await api.database.db
          .selectFrom('announcements')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const insert = async (fields: Partial<ReturnType<typeof validAnnouncement>> = {}) => {
    const values = { ...validAnnouncement(), ...fields };
    const id = randomUUID();
    await api.database.db
      .insertInto('announcements')
      .values({ id, ...values, created_by: admin.userId })
      .execute();
    return id;
  };

  beforeAll(async () => {
    api = await createTestApi();
    admin = await createAdmin(api);
    sellerMy = await createSeller(api, { country: 'MY' });
    sellerTh = await createSeller(api, { country: 'TH' });
  });
  afterAll(async () => {
    await api?.close();
  });
  beforeEach(async () => {
    await api.database.db.deleteFrom('announcements').execute();
  });

  describe('admin: add', () => {
    it('creates an announcement (0 created) and logs the change', async () => {
      const body = { ...validAnnouncement(), country: 'MY', subject: '  Padded title  ' };
      const response = await inject('POST', '/api/admin/announcement/add', admin.token, body);
      expect(response.statusCode, response.body).toBe(200);
      const answer = response.json();
      expect(answer).toMatchObject({
        code: 0,
        msg: 'Announcement created',
        data: { subject: 'Padded title', priority: 5, country: 'MY', is_active: true },
      });
      const stored = await api.database.db
        .selectFrom('announcements')
        .selectAll()
        .where('id', '=', answer.data.id)
        .executeTakeFirstOrThrow();
      expect(stored).toMatchObject({ subject: 'Padded title', created_by: admin.userId });
      expect(stored.start_at.toISOString()).toBe(new Date(body.start_at).toISOString());
      const log = await api.database.db
        .selectFrom('activity_log')
        .selectAll()
        .where('subject_id', '=', answer.data.id)
        .execute();
      expect(log).toEqual([
        expect.objectContaining({
          action: 'announcement.created',
          subject_type: 'announcement',
          user_id: admin.userId,
          tenant_id: null,
        }),
      ]);
    });

    it('answers "Please provide priority" when priority is missing, even with other fields missing too', async () => {
      const { priority: _, ...noPriority } = validAnnouncement();
      for (const body of [noPriority, { ...noPriority, priority: null }, { content: 'x' }]) {
        const response = await inject('POST', '/api/admin/announcement/add', admin.token, body);
        expect(failure(response)).toEqual({ status: 400, code: 400, msg: 'Please provide priority' });
      }
      expect(await count()).toBe(0);
    });

    it('answers "Missing announcement {field}" for each other missing field', async () => {
      const labels = {
        subject: 'title',
        content: 'content',
        start_at: 'start date',
        end_at: 'end date',
        is_active: 'active status',
        requires_ack: 'acknowledgement requirement',
        country: 'country',
        prompt: 'prompt flag',
      } as const;
      for (const [field, label] of Object.entries(labels)) {
        const body: Record<string, unknown> = validAnnouncement();
        delete body[field];
        const response = await inject('POST', '/api/admin/announcement/add', admin.token, body);
        expect(failure(response)).toEqual({ status: 400, code: 400, msg: `Missing announcement ${label}` });
      }
      const blank = await inject('POST', '/api/admin/announcement/add', admin.token, {
        ...validAnnouncement(),
        subject: '   ',
      });
      expect(failure(blank)).toEqual({ status: 400, code: 400, msg: 'Missing announcement title' });
      const nullContent = await inject('POST', '/api/admin/announcement/add', admin.token, {
        ...validAnnouncement(),
        content: null,
      });
      expect(failure(nullContent)).toEqual({ status: 400, code: 400, msg: 'Missing announcement content' });
      expect(await count()).toBe(0);
    });

    it('refuses a title longer than the bound with "Title is more than N characters"', async () => {
      const atBound = await inject('POST', '/api/admin/announcement/add', admin.token, {
        ...validAnnouncement(),
        subject: 't'.repeat(TITLE_MAX_LENGTH),
      });
      expect(atBound.statusCode).toBe(200);
      const over = await inject('POST', '/api/admin/announcement/add', admin.token, {
        ...validAnnouncement(),
        subject: 't'.repeat(TITLE_MAX_LENGTH + 1),
      });
      expect(failure(over)).toEqual({
        status: 400,
        code: 400,
        msg: `Title is more than ${TITLE_MAX_LENGTH} characters`,
      });
      expect(await count()).toBe(1);
    });

    it('refuses an end date that is not after the start date', async () => {
      const start = at(1);
      const response = await inject('POST', '/api/admin/announcement/add', admin.token, {
        ...validAnnouncement(),
        start_at: start,
        end_at: start,
      });
      expect(failure(response)).toEqual({
        status: 400,
        code: 400,
        msg: 'The end date must be after the start date',
      });
      expect(await count()).toBe(0);
    });

    it('refuses malformed bodies with a 4xx and stores nothing', async () => {
      const bodies: [Record<string, unknown>, string][] = [
        [{ ...validAnnouncement(), priority: '5' }, 'Priority must be a whole number from 0 to 1000000'],
        [{ ...validAnnouncement(), priority: 1.5 }, 'Priority must be a whole number from 0 to 1000000'],
        [{ ...validAnnouncement(), priority: -1 }, 'Priority must be a whole number from 0 to 1000000'],
        [{ ...validAnnouncement(), is_active: 'yes' }, 'Invalid announcement active status'],
        [{ ...validAnnouncement(), country: 'US' }, 'Invalid announcement country'],
        [{ ...validAnnouncement(), start_at: 'next tuesday' }, 'Invalid announcement start date'],
        [{ ...validAnnouncement(), subject: { en: 'x' } }, 'Invalid announcement title'],
        [{ ...validAnnouncement(), content: 'c'.repeat(20_001) }, 'Content is more than 20000 characters'],
        [{ ...validAnnouncement(), created_by: randomUUID() }, 'The body is invalid.'],
      ];
      for (const [body, msg] of bodies) {
        const response = await inject('POST', '/api/admin/announcement/add', admin.token, body);
        expect(failure(response), JSON.stringify(body).slice(0, 80)).toEqual({ status: 400, code: 400, msg });
      }
      const notJson = await api.app.inject({
        method: 'POST',
        url: '/api/admin/announcement/add',
        headers: { ...bearer(admin.token), 'content-type': 'application/json' },
        payload: '{"subject": ',
      });
      expect(notJson.statusCode).toBe(400);
      expect(await count()).toBe(0);
    });

    it('answers 410 "Failed to create announcement" when the database refuses the row', async () => {
      const db = api.database.db;
      await sql`CREATE FUNCTION refuse_announcement() RETURNS trigger LANGUAGE plpgsql AS
        $$ BEGIN RAISE EXCEPTION 'storage refused'; END $$`.execute(db);
      await sql`CREATE TRIGGER refuse_announcement BEFORE INSERT OR UPDATE ON announcements
        FOR EACH ROW EXECUTE FUNCTION refuse_announcement()`.execute(db);
      const existing = await db.transaction().execute(async (trx) => {
        await sql`ALTER TABLE announcements DISABLE TRIGGER refuse_announcement`.execute(trx);
        const id = randomUUID();
        await trx
          .insertInto('announcements')
          .values({ id, ...validAnnouncement(), created_by: admin.userId })
          .execute();
        await sql`ALTER TABLE announcements ENABLE TRIGGER refuse_announcement`.execute(trx);
        return id;
      });
      try {
        const created = await inject('POST', '/api/admin/announcement/add', admin.token, validAnnouncement());
        expect(failure(created)).toEqual({ status: 400, code: 410, msg: 'Failed to create announcement' });
        const updated = await inject('POST', '/api/admin/announcement/update', admin.token, {
          id: existing,
          ...validAnnouncement(),
          subject: 'Changed',
        });
        expect(failure(updated)).toEqual({ status: 400, code: 410, msg: 'Failed to update announcement' });
      } finally {
        await sql`DROP TRIGGER refuse_announcement ON announcements`.execute(db);
        await sql`DROP FUNCTION refuse_announcement()`.execute(db);
      }
      const rows = await db.selectFrom('announcements').select(['id', 'subject']).execute();
      expect(rows).toEqual([{ id: existing, subject: 'Scheduled maintenance' }]);
    });

    it('translates the message into the language header (zh-cn, th-th)', async () => {
      const { priority: _, ...noPriority } = validAnnouncement();
      const zh = await inject('POST', '/api/admin/announcement/add', admin.token, noPriority, 'zh-cn');
      expect(failure(zh)).toEqual({ status: 400, code: 400, msg: '请提供优先级' });
      const th = await inject(
        'POST',
        '/api/admin/announcement/add',
        admin.token,
        {
          ...validAnnouncement(),
          subject: 'x'.repeat(TITLE_MAX_LENGTH + 1),
        },
        'th-th',
      );
      expect(failure(th)).toEqual({ status: 400, code: 400, msg: `หัวข้อยาวเกิน ${TITLE_MAX_LENGTH} ตัวอักษร` });
      const created = await inject(
        'POST',
        '/api/admin/announcement/add',
        admin.token,
        validAnnouncement(),
        'zh-cn',
      );
      expect(created.json()).toMatchObject({ code: 0, msg: '公告已创建' });
    });
  });

  describe('admin: update and delete', () => {
    it('replaces an announcement (0 updated) and logs what changed', async () => {
      const id = await insert();
      const response = await inject('POST', '/api/admin/announcement/update', admin.token, {
        id,
        ...validAnnouncement(),
        subject: 'Maintenance moved',
        priority: 9,
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toMatchObject({
        code: 0,
        msg: 'Announcement updated',
        data: { id, subject: 'Maintenance moved', priority: 9 },
      });
      const log = await api.database.db
        .selectFrom('activity_log')
        .select(['action', 'detail'])
        .where('subject_id', '=', id)
        .executeTakeFirstOrThrow();
      expect(log.action).toBe('announcement.updated');
      expect(log.detail).toMatchObject({
        changes: {
          subject: { from: 'Scheduled maintenance', to: 'Maintenance moved' },
          priority: { from: 5, to: 9 },
        },
      });
    });

    it('answers 401 "Missing ID" and 402 "Invalid ID" without touching anything', async () => {
      const id = await insert();
      const update = (body: unknown) => inject('POST', '/api/admin/announcement/update', admin.token, body);
      const missing = { status: 400, code: 401, msg: 'Missing ID' };
      expect(failure(await update(validAnnouncement()))).toEqual(missing);
      expect(failure(await update({ id: '', ...validAnnouncement() }))).toEqual(missing);
      expect(failure(await update({ id: null, ...validAnnouncement() }))).toEqual(missing);
      expect(failure(await update(undefined))).toEqual(missing);
      const unknown = { status: 404, code: 402, msg: 'Invalid ID' };
      expect(failure(await update({ id: randomUUID(), ...validAnnouncement() }))).toEqual(unknown);
      expect(failure(await update({ id: 'not-a-uuid', ...validAnnouncement() }))).toEqual(unknown);
      expect(failure(await update({ id: 42, ...validAnnouncement() }))).toEqual({
        status: 400,
        code: 402,
        msg: 'Invalid ID',
      });
      // A valid id with a bad field: the server's message (400).
      const { priority: _, ...noPriority } = validAnnouncement();
      expect(failure(await update({ id, ...noPriority }))).toEqual({
        status: 400,
        code: 400,
        msg: 'Please provide priority',
      });
      expect(failure(await update({ id, ...validAnnouncement(), extra: 1 }))).toMatchObject({
        status: 400,
        code: 400,
      });
      const row = await api.database.db
        .selectFrom('announcements')
        .select(['subject', 'priority'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ subject: 'Scheduled maintenance', priority: 5 });
    });

    it('deletes an announcement with its acknowledgements (0 deleted), then answers 402', async () => {
      const id = await insert({ requires_ack: true });
      const ack = await inject('POST', '/api/announcement/acknowledge', sellerMy.token, { id, status: 100 });
      expect(ack.statusCode, ack.body).toBe(200);
      const response = await inject('POST', '/api/admin/announcement/delete', admin.token, { id });
      expect(response.json()).toEqual({ code: 0, msg: 'Announcement deleted', data: { id } });
      expect(await count()).toBe(0);
      const acks = await api.database.db
        .selectFrom('announcement_acks')
        .selectAll()
        .where('announcement_id', '=', id)
        .execute();
      expect(acks).toEqual([]);
      const log = await api.database.db
        .selectFrom('activity_log')
        .select('action')
        .where('subject_id', '=', id)
        .where('action', '=', 'announcement.deleted')
        .execute();
      expect(log).toHaveLength(1);

      const again = await inject('POST', '/api/admin/announcement/delete', admin.token, { id });
      expect(failure(again)).toEqual({ status: 404, code: 402, msg: 'Invalid ID' });
      const malformed = await inject('POST', '/api/admin/announcement/delete', admin.token, { id: 'abc' });
      expect(failure(malformed)).toEqual({ status: 404, code: 402, msg: 'Invalid ID' });
      for (const body of [{}, { id: '' }, undefined]) {
        const missing = await inject('POST', '/api/admin/announcement/delete', admin.token, body);
        expect(failure(missing)).toEqual({ status: 400, code: 401, msg: 'Missing ID' });
      }
      const extra = await inject('POST', '/api/admin/announcement/delete', admin.token, { id, force: true });
      expect(extra.statusCode).toBe(400);
    });
  });

  describe('admin: list and read', () => {
    it('pages, sorts, searches and filters for ag-grid', async () => {
      for (let i = 1; i <= 7; i++) {
        await insert({ subject: `Notice ${i}`, priority: i, country: i % 2 === 0 ? 'TH' : 'MY' });
      }
      const list = (query: string) => inject('GET', `/api/admin/announcement?${query}`, admin.token);

      const first = await list('startRow=0&endRow=3');
      expect(first.statusCode, first.body).toBe(200);
      expect(first.json().data.lastRow).toBe(7);
      expect(first.json().data.rows.map((r: { priority: number }) => r.priority)).toEqual([7, 6, 5]);
      const second = await list('startRow=3&endRow=6');
      expect(second.json().data.rows.map((r: { priority: number }) => r.priority)).toEqual([4, 3, 2]);

      const sorted = await list(
        `startRow=0&endRow=2&sortModel=${encodeURIComponent(JSON.stringify([{ colId: 'priority', sort: 'asc' }]))}`,
      );
      expect(sorted.json().data.rows.map((r: { subject: string }) => r.subject)).toEqual([
        'Notice 1',
        'Notice 2',
      ]);

      const searched = await list('search=notice%203');
      expect(searched.json().data).toMatchObject({ lastRow: 1, rows: [{ subject: 'Notice 3' }] });

      const filterModel = {
        country: { filterType: 'text', type: 'equals', filter: 'th' },
        priority: { filterType: 'number', type: 'greaterThan', filter: 2 },
      };
      const filtered = await list(`filterModel=${encodeURIComponent(JSON.stringify(filterModel))}`);
      expect(filtered.json().data.rows.map((r: { priority: number }) => r.priority)).toEqual([6, 4]);

      const wildcard = await list('search=%25');
      expect(wildcard.json().data.lastRow).toBe(0);

      const badSort = await list(
        `sortModel=${encodeURIComponent(JSON.stringify([{ colId: 'password_hash', sort: 'asc' }]))}`,
      );
      expect(badSort.statusCode).toBe(400);
      const badFilter = await list(
        `filterModel=${encodeURIComponent(JSON.stringify({ created_by: { filterType: 'text', type: 'equals', filter: 'x' } }))}`,
      );
      expect(badFilter.statusCode).toBe(400);
      expect((await list('endRow=abc')).statusCode).toBe(400);
    });

    it('counts the answers of each announcement', async () => {
      const id = await insert({ requires_ack: true });
      await inject('POST', '/api/announcement/acknowledge', sellerMy.token, { id, status: 100 });
      await inject('POST', '/api/announcement/acknowledge', sellerTh.token, { id, status: 110 });
      const list = await inject('GET', '/api/admin/announcement', admin.token);
      expect(list.json().data.rows[0].acks).toEqual({ acknowledged: 1, rejected: 1, read: 0 });
    });

    it('reads one announcement, and answers "No record found!" for an unknown id', async () => {
      const id = await insert({ subject: 'One of a kind' });
      const one = await inject('GET', `/api/admin/announcement/${id}`, admin.token);
      expect(one.json()).toMatchObject({ code: 0, data: { id, subject: 'One of a kind' } });
      for (const other of [randomUUID(), 'nonsense']) {
        const missing = await inject('GET', `/api/admin/announcement/${other}`, admin.token);
        expect(failure(missing)).toEqual({ status: 404, code: 404, msg: 'No record found!' });
      }
    });

    it('refuses sellers on the admin routes (403) and admins on the seller routes (403)', async () => {
      const id = await insert();
      const sellerCalls = [
        inject('GET', '/api/admin/announcement', sellerMy.token),
        inject('GET', `/api/admin/announcement/${id}`, sellerMy.token),
        inject('POST', '/api/admin/announcement/add', sellerMy.token, validAnnouncement()),
        inject('POST', '/api/admin/announcement/update', sellerMy.token, { id, ...validAnnouncement() }),
        inject('POST', '/api/admin/announcement/delete', sellerMy.token, { id }),
      ];
      for (const response of await Promise.all(sellerCalls)) expect(response.statusCode).toBe(403);
      const adminCalls = [
        inject('GET', '/api/announcement', admin.token),
        inject('GET', '/api/announcement/prompt', admin.token),
        inject('POST', '/api/announcement/acknowledge', admin.token, { id, status: 120 }),
      ];
      for (const response of await Promise.all(adminCalls)) expect(response.statusCode).toBe(403);
      const anonymous = await api.app.inject({ method: 'GET', url: '/api/admin/announcement' });
      expect(anonymous.statusCode).toBe(401);
      const row = await api.database.db
        .selectFrom('announcements')
        .select('subject')
        .executeTakeFirstOrThrow();
      expect(row.subject).toBe('Scheduled maintenance');
      expect(await count()).toBe(1);
    });
  });

  describe('seller: what is shown', () => {
    it('shows active announcements within their dates for every country or mine, highest priority first', async () => {
      const low = await insert({ subject: 'Low', priority: 1 });
      const highOld = await insert({ subject: 'High, older', priority: 9, start_at: at(-5) });
      const highNew = await insert({ subject: 'High, newer', priority: 9, start_at: at(-2) });
      const mine = await insert({ subject: 'For Malaysia', priority: 3, country: 'MY' });
      const thai = await insert({ subject: 'For Thailand', priority: 4, country: 'TH' });
      await insert({ subject: 'Inactive', is_active: false });
      await insert({ subject: 'Future', start_at: at(1), end_at: at(3) });
      await insert({ subject: 'Expired', start_at: at(-5), end_at: at(-1) });

      const my = await inject('GET', '/api/announcement', sellerMy.token);
      expect(my.statusCode, my.body).toBe(200);
      expect(my.json().data.map((a: { id: string }) => a.id)).toEqual([highNew, highOld, mine, low]);
      expect(my.json().data[0]).toMatchObject({ ack_status: null, dont_show_again: false });
      const th = await inject('GET', '/api/announcement', sellerTh.token);
      expect(th.json().data.map((a: { id: string }) => a.id)).toEqual([highNew, highOld, thai, low]);

      const one = await inject('GET', `/api/announcement/${mine}`, sellerMy.token);
      expect(one.json()).toMatchObject({ code: 0, data: { id: mine, subject: 'For Malaysia' } });
      for (const hidden of [thai, randomUUID(), 'not-a-uuid']) {
        const response = await inject('GET', `/api/announcement/${hidden}`, sellerMy.token);
        expect(failure(response)).toEqual({ status: 404, code: 404, msg: 'No record found!' });
      }
    });

    it('shows an announcement to a sub-user of the account too', async () => {
      const id = await insert({ country: 'MY' });
      const staff = await createSubUser(api, sellerMy.tenantId);
      const list = await inject('GET', '/api/announcement', staff.token);
      expect(list.json().data.map((a: { id: string }) => a.id)).toEqual([id]);
    });
  });

  describe('seller: prompt and acknowledge', () => {
    it('prompts until acknowledged; rejected and acknowledged are final (420); the same answer again is fine', async () => {
      const id = await insert({ requires_ack: true, prompt: true, subject: 'New terms' });
      await insert({ prompt: false, subject: 'Not prompted' });
      const prompt = async (token: string) =>
        (await inject('GET', '/api/announcement/prompt', token)).json().data.map((a: { id: string }) => a.id);
      expect(await prompt(sellerMy.token)).toEqual([id]);

      const read = await inject('POST', '/api/announcement/acknowledge', sellerMy.token, { id, status: 120 });
      expect(read.json()).toEqual({
        code: 0,
        msg: 'Read',
        data: { id, status: 120, dont_show_again: false },
      });
      expect(await prompt(sellerMy.token)).toEqual([id]);

      const accepted = await inject('POST', '/api/announcement/acknowledge', sellerMy.token, {
        id,
        status: 100,
      });
      expect(accepted.json()).toEqual({
        code: 0,
        msg: 'Acknowledged',
        data: { id, status: 100, dont_show_again: false },
      });
      expect(await prompt(sellerMy.token)).toEqual([]);
      const list = await inject('GET', '/api/announcement', sellerMy.token);
      expect(list.json().data.find((a: { id: string }) => a.id === id)).toMatchObject({ ack_status: 100 });

      const again = await inject('POST', '/api/announcement/acknowledge', sellerMy.token, {
        id,
        status: 100,
      });
      expect(again.json()).toMatchObject({ code: 0, data: { status: 100 } });
      for (const status of [110, 120]) {
        const changed = await inject('POST', '/api/announcement/acknowledge', sellerMy.token, { id, status });
        expect(failure(changed)).toEqual({
          status: 400,
          code: 420,
          msg: 'Error: you have already answered this announcement',
        });
      }

      // Another user of the same account answers for themselves.
      const staff = await createSubUser(api, sellerMy.tenantId);
      expect(await prompt(staff.token)).toEqual([id]);
      const rejected = await inject('POST', '/api/announcement/acknowledge', staff.token, {
        id,
        status: 110,
      });
      expect(rejected.json()).toMatchObject({ code: 0, msg: 'Rejected', data: { status: 110 } });
      expect(await prompt(staff.token)).toEqual([]);
      const flip = await inject('POST', '/api/announcement/acknowledge', staff.token, { id, status: 100 });
      expect(failure(flip)).toMatchObject({ status: 400, code: 420 });

      const stored = await api.database.db
        .selectFrom('announcement_acks')
        .select(['user_id', 'status'])
        .where('announcement_id', '=', id)
        .orderBy('status')
        .execute();
      expect(stored).toEqual([
        { user_id: sellerMy.userId, status: 100 },
        { user_id: staff.userId, status: 110 },
      ]);
    });

    it('stops prompting after "don\'t show again", and keeps the choice on a later read', async () => {
      const id = await insert({ prompt: true });
      const prompt = async () =>
        (await inject('GET', '/api/announcement/prompt', sellerTh.token))
          .json()
          .data.map((a: { id: string }) => a.id);
      expect(await prompt()).toEqual([id]);
      const dismissed = await inject('POST', '/api/announcement/acknowledge', sellerTh.token, {
        id,
        status: 120,
        dont_show_again: true,
      });
      expect(dismissed.json()).toEqual({
        code: 0,
        msg: 'Read',
        data: { id, status: 120, dont_show_again: true },
      });
      expect(await prompt()).toEqual([]);
      const readAgain = await inject('POST', '/api/announcement/acknowledge', sellerTh.token, {
        id,
        status: 120,
      });
      expect(readAgain.json().data.dont_show_again).toBe(true);
      expect(await prompt()).toEqual([]);
      // Still listed, with the user's choice, for the announcements screen.
      const list = await inject('GET', '/api/announcement', sellerTh.token);
      expect(list.json().data).toEqual([
        expect.objectContaining({ id, ack_status: 120, dont_show_again: true }),
      ]);
    });

    it('answers 400 invalid ID, 401 invalid status and 410 invalid action', async () => {
      const plain = await insert({ requires_ack: false, prompt: true });
      const thai = await insert({ requires_ack: true, country: 'TH' });
      const inactive = await insert({ requires_ack: true, is_active: false });
      const expired = await insert({ start_at: at(-5), end_at: at(-1) });
      const ack = (body: unknown, language?: string) =>
        inject('POST', '/api/announcement/acknowledge', sellerMy.token, body, language);

      const invalidId = { status: 404, code: 400, msg: 'Invalid ID' };
      expect(failure(await ack({ id: randomUUID(), status: 120 }))).toEqual(invalidId);
      expect(failure(await ack({ id: thai, status: 100 }))).toEqual(invalidId);
      expect(failure(await ack({ id: 'not-a-uuid', status: 120 }))).toEqual(invalidId);
      expect(failure(await ack({ status: 120 }))).toEqual({ ...invalidId, status: 400 });
      expect(failure(await ack(undefined))).toEqual({ ...invalidId, status: 400 });

      const invalidStatus = { status: 400, code: 401, msg: 'Invalid status' };
      for (const status of [130, 0, '100', null, undefined]) {
        expect(failure(await ack({ id: plain, status }))).toEqual(invalidStatus);
      }

      const invalidAction = { status: 400, code: 410, msg: 'Invalid action' };
      expect(failure(await ack({ id: plain, status: 100 }))).toEqual(invalidAction);
      expect(failure(await ack({ id: plain, status: 110 }))).toEqual(invalidAction);
      expect(failure(await ack({ id: inactive, status: 100 }))).toEqual(invalidAction);
      expect(failure(await ack({ id: expired, status: 120 }))).toEqual(invalidAction);

      expect((await ack({ id: plain, status: 120, dont_show_again: 'yes' })).statusCode).toBe(400);
      expect((await ack({ id: plain, status: 120, user_id: sellerTh.userId })).statusCode).toBe(400);
      expect(failure(await ack({ id: plain, status: 7 }, 'zh-cn'))).toEqual({
        status: 400,
        code: 401,
        msg: '无效的状态',
      });
      const acks = await api.database.db.selectFrom('announcement_acks').selectAll().execute();
      expect(acks).toEqual([]);
    });
  });

  it('documents the routes in the OpenAPI document', async () => {
    const response = await api.app.inject({ method: 'GET', url: '/docs/json' });
    expect(response.statusCode).toBe(200);
    const paths = Object.keys(response.json().paths);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/api/admin/announcement',
        '/api/admin/announcement/{id}',
        '/api/admin/announcement/add',
        '/api/admin/announcement/update',
        '/api/admin/announcement/delete',
        '/api/announcement',
        '/api/announcement/prompt',
        '/api/announcement/{id}',
        '/api/announcement/acknowledge',
      ]),
    );
  });
});
