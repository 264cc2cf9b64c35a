import { randomUUID } from 'node:crypto';
import { handleGoodsIssueCommand } from '@commands/goods-issue/goods-issue';
import type { PermissionKey } from '@domain/access/permissions';
import { goodsIssueStreamId } from '@domain/goods-issue/decider';
import { stockStreamId } from '@domain/inventory/stock';
import { TEXT_LIMITS } from '@domain/shared/limits';
import {
  bearer,
  createSeller,
  createSubUser,
  createTestApi,
  type TestApi,
  type TestSeller,
} from '@tests/support/api';
import { waitFor } from '@tests/support/wait';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { data, gridParams } from './inventory/inventory-api';
import { expectRefusal, stockCalls } from './inventory/stock-api';

/**
 * Issue 5, goods issue notes through the API with the real workflow on the run's Temporal dev server: three
 * approval layers, each by its own sub-user, the stock moving only at the last approval and once; double clicks,
 * wrong states, missing keys and the same user at two layers refused with nothing moved; rejection, cancel, a
 * failed issue and its retry; bad input; the list and its filters; and the reminder mailing the waiting layer's
 * approvers.
 */

interface Detail {
  id: string;
  reference: string;
  status: number;
  lines: { master_code: { id: string; code: string }; quantity: number }[];
  approval: {
    layers: number;
    current_layer: number | null;
    steps: { layer: number; state: string; by: { id: string; name: string } | null; at: string | null }[];
  } | null;
  issue: {
    failure: { lines: { master_code: { code: string }; quantity: number; on_hand: number }[] } | null;
  };
  timeline: {
    type: string;
    by: { id: string; name: string } | null;
    layer: number | null;
    recipients: string[];
  }[];
  actions: { edit: boolean; submit: boolean; approve: number | null; reject: number | null; cancel: boolean };
}

interface Staff {
  userId: string;
  token: string;
}

const BASE = '/api/inventory/goods-issue-notes';

describe('goods issue notes', () => {
  let api: TestApi;
  let seller: TestSeller;
  let other: TestSeller;
  const stock = stockCalls(() => api);
  const call = stock.call;
  let main: { id: string };
  let batik: { id: string };
  let songket: { id: string };
  let combo: { id: string };
  let otherItem: { id: string };
  let clerk: Staff;
  const layer: Staff[] = [];
  let viewer: Staff;
  let nobody: Staff;

  const staff = (permissions: PermissionKey[]) => createSubUser(api, seller.tenantId, permissions);

  beforeAll(async () => {
    api = await createTestApi({ workflows: true });
    [seller, other] = await Promise.all([createSeller(api, { packageId: 'growth' }), createSeller(api)]);
    main = await stock.warehouse(seller.token, 'MAIN');
    batik = await stock.masterCode(seller.token, 'BATIK');
    songket = await stock.masterCode(seller.token, 'SONGKET');
    combo = await stock.combo(seller.token, 'GIFTSET', [{ component_id: batik.id, quantity: 1 }]);
    otherItem = await stock.masterCode(other.token, 'ELSEWHERE');
    for (const [item, quantity] of [
      [batik, 10],
      [songket, 5],
    ] as const) {
      data(await stock.receive(seller.token, { master_code_id: item.id, warehouse_id: main.id, quantity }));
    }
    clerk = await staff(['inventory-stock-adjustment']);
    for (const n of [1, 2, 3] as const) layer.push(await staff([`gin-approval-layer-${n}`]));
    viewer = await staff(['inventory-master-code']);
    nobody = await staff(['sales-index']);
  });
  afterAll(async () => {
    await api?.close();
  });

  // ---- helpers ----

  const post = (url: string, token: string, payload?: unknown) =>
    api.app.inject({
      method: 'POST',
      url,
      headers: bearer(token),
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const body = (
    lines: { master_code_id: string; quantity: number }[],
    extra: Record<string, unknown> = {},
  ) => ({
    warehouse_id: main.id,
    reference: `GIN-${Math.random().toString(36).slice(2, 8)}`,
    reason: 'samples for the trade fair',
    lines,
    ...extra,
  });
  const create = async (token: string, lines = [{ master_code_id: batik.id, quantity: 3 }]) =>
    data<Detail>(await post(BASE, token, body(lines)));
  const submit = (token: string, id: string) => post(`${BASE}/${id}/submit`, token);
  const approve = (token: string, id: string, n: number) =>
    post(`${BASE}/${id}/approve`, token, { layer: n });
  const reject = (token: string, id: string, n: number, reason = 'not needed') =>
    post(`${BASE}/${id}/reject`, token, { layer: n, reason });
  const detail = async (id: string, token = seller.token) =>
    data<Detail>(await call('GET', `${BASE}/${id}`, token));
  const settings = async (layers: number, allowSame = false, reminderMinutes = 1440) =>
    data(
      await call('PUT', '/api/inventory/approval-settings', seller.token, {
        layers,
        reminder_minutes: reminderMinutes,
        allow_same_approver: allowSame,
      }),
    );
  /** On hand, as the stock stream's last event states it (no projection in between). */
  const onHand = async (item: { id: string }, tenantId = seller.tenantId) => {
    const last = await api.store.readLastEvent(stockStreamId(tenantId, item.id, main.id));
    return (last?.data as { onHand: number } | undefined)?.onHand ?? 0;
  };
  const stockEventCount = () => stock.eventCount(seller.tenantId);
  const noteEvents = async (id: string) => {
    const events: string[] = [];
    for await (const event of api.store.readStream(goodsIssueStreamId(seller.tenantId, id)))
      events.push(event.type);
    return events;
  };
  /** The list as the projection has it, once it has caught up with `ready`. */
  const list = async (token: string, query: Record<string, unknown>, ready: (rows: ListRow[]) => boolean) =>
    waitFor(
      async () => {
        await api.engine.catchUp('goods_issues');
        const page = data<{ rows: ListRow[]; lastRow: number }>(
          await call('GET', `${BASE}?${gridParams(query)}`, token),
        );
        return ready(page.rows) ? page : undefined;
      },
      { what: 'the goods issue list' },
    );
  interface ListRow {
    id: string;
    status: number;
    current_layer: number | null;
    layers: number | null;
    waiting_for_me: boolean;
    issue_failed: boolean;
    warehouse: { code: string };
    created_by: { name: string };
  }

  // ---- the three layers ----

  it('goes through three layers, each approved by its own sub-user; the stock moves once, at the last', async () => {
    await settings(3);
    const before = {
      batik: await onHand(batik),
      songket: await onHand(songket),
      events: await stockEventCount(),
    };
    const note = await create(clerk.token, [
      { master_code_id: batik.id, quantity: 3 },
      { master_code_id: songket.id, quantity: 2 },
    ]);
    expect(note).toMatchObject({ status: 1, approval: null });
    expect(note.lines.map((line) => [line.master_code.code, line.quantity])).toEqual([
      ['BATIK', 3],
      ['SONGKET', 2],
    ]);
    expect(note.actions).toMatchObject({ edit: true, submit: true, approve: null, cancel: true });

    const submitted = data<Detail>(await submit(clerk.token, note.id));
    expect(submitted.status).toBe(4);
    expect(submitted.approval).toMatchObject({ layers: 3, current_layer: 1 });
    expect(submitted.approval?.steps.map((step) => step.state)).toEqual([
      'waiting',
      'not_reached',
      'not_reached',
    ]);

    // Layer 2's approver can neither jump ahead nor approve layer 1.
    expectRefusal(await approve(layer[1]!.token, note.id, 2), 409, 561);
    expectRefusal(await approve(layer[1]!.token, note.id, 1), 403, 560);
    // The layer keys decide what the detail offers.
    expect((await detail(note.id, layer[0]!.token)).actions).toMatchObject({ approve: 1, reject: 1 });
    expect((await detail(note.id, layer[1]!.token)).actions).toMatchObject({ approve: null, reject: null });

    const first = await approve(layer[0]!.token, note.id, 1);
    expect(first.json().msg).toBe('Layer 1 approved');
    expect(data<Detail>(first).approval?.current_layer).toBe(2);
    const second = data<Detail>(await approve(layer[1]!.token, note.id, 2));
    expect(second).toMatchObject({ status: 4, approval: { current_layer: 3 } });
    // Two layers approved: nothing has moved.
    expect(await onHand(batik)).toBe(before.batik);
    expect(await onHand(songket)).toBe(before.songket);
    expect(await stockEventCount()).toBe(before.events);

    const last = await approve(layer[2]!.token, note.id, 3);
    expect(last.json().msg).toBe('Goods issue note approved and the stock issued');
    const complete = data<Detail>(last);
    expect(complete.status).toBe(2);
    expect(complete.approval?.steps.map((step) => [step.state, step.by?.id])).toEqual([
      ['approved', layer[0]!.userId],
      ['approved', layer[1]!.userId],
      ['approved', layer[2]!.userId],
    ]);
    expect(await onHand(batik)).toBe(before.batik - 3);
    expect(await onHand(songket)).toBe(before.songket - 2);
    // Deducted once: one write-off per line, from this note.
    const moved = await api.database.db
      .selectFrom('es_events')
      .select(['type', 'data'])
      .where('stream_id', 'like', `stock-${seller.tenantId}.%`)
      .orderBy('global_position')
      .execute();
    expect(moved.length).toBe(before.events + 2);
    const writeOffs = moved.slice(before.events);
    expect(writeOffs.map((event) => event.type)).toEqual(['StockWrittenOff', 'StockWrittenOff']);
    for (const event of writeOffs) {
      expect(event.data).toMatchObject({
        source: { type: 'gin', id: note.id },
        reason: 'samples for the trade fair',
      });
    }

    // Approving again changes nothing.
    expectRefusal(await approve(layer[2]!.token, note.id, 3), 409, 563);
    expectRefusal(await approve(layer[0]!.token, note.id, 1), 409, 563);
    expect(await stockEventCount()).toBe(before.events + 2);

    // The timeline: who did what, with names.
    const final = await detail(note.id);
    expect(final.timeline.map((entry) => [entry.type, entry.layer])).toEqual([
      ['GinCreated', null],
      ['GinSubmitted', null],
      ['GinLayerApproved', 1],
      ['GinLayerApproved', 2],
      ['GinLayerApproved', 3],
      ['GinCompleted', null],
    ]);
    expect(final.timeline[0]!.by).toEqual({ id: clerk.userId, name: 'Staff' });
    expect(final.timeline[2]!.by?.id).toBe(layer[0]!.userId);

    // The list shows it complete; the status filter finds it.
    const completeRows = await list(seller.token, { status: '2' }, (rows) =>
      rows.some((row) => row.id === note.id),
    );
    expect(completeRows.rows.find((row) => row.id === note.id)).toMatchObject({
      status: 2,
      layers: 3,
      current_layer: null,
      warehouse: { code: 'MAIN' },
      created_by: { name: 'Staff' },
    });
  });

  it('counts a double click once: parallel approvals of the same layer by the same user', async () => {
    // Allowing one user at two layers: a second click must not become layer 2's approval.
    await settings(2, true);
    const both = await staff(['gin-approval-layer-1', 'gin-approval-layer-2']);
    const note = await create(clerk.token);
    data(await submit(clerk.token, note.id));
    const answers = await Promise.all([1, 2, 3].map(() => approve(both.token, note.id, 1)));
    const statuses = answers.map((answer) => answer.statusCode).sort();
    expect(statuses).toEqual([200, 409, 409]);
    for (const answer of answers.filter((a) => a.statusCode === 409)) {
      expect(answer.json()).toMatchObject({ code: 563, msg: 'You have already approved layer 1' });
    }
    expect((await noteEvents(note.id)).filter((type) => type === 'GinLayerApproved')).toHaveLength(1);
    const now = await detail(note.id);
    expect(now).toMatchObject({ status: 4, approval: { current_layer: 2 } });

    // Two holders of layer 2 at once: one approves, the other finds layer 2 decided.
    const twin = await staff(['gin-approval-layer-2']);
    const pair = await Promise.all([approve(layer[1]!.token, note.id, 2), approve(twin.token, note.id, 2)]);
    expect(pair.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    expect((await noteEvents(note.id)).filter((type) => type === 'GinLayerApproved')).toHaveLength(2);
    expect((await detail(note.id)).status).toBe(2);
  });

  it('refuses the same user at two layers when the settings forbid it', async () => {
    await settings(2, false);
    const both = await staff(['gin-approval-layer-1', 'gin-approval-layer-2']);
    const note = await create(clerk.token);
    data(await submit(clerk.token, note.id));
    data(await approve(both.token, note.id, 1));
    const refused = expectRefusal(await approve(both.token, note.id, 2), 409, 562);
    expect(refused.msg).toBe('You approved layer 1 already; one user may not approve at two layers');
    expect((await detail(note.id, both.token)).actions.approve).toBeNull();
    // The note's settings were taken at submit: allowing it now does not change this note.
    await settings(2, true);
    expectRefusal(await approve(both.token, note.id, 2), 409, 562);
    data(await reject(both.token, note.id, 2, 'changed my mind'));
  });

  it('is rejected at any layer: Cancel with the reason, nothing moved, nothing more accepted', async () => {
    await settings(3);
    const events = await stockEventCount();
    const note = await create(clerk.token);
    data(await submit(clerk.token, note.id));
    data(await approve(layer[0]!.token, note.id, 1));
    expectRefusal(await reject(layer[1]!.token, note.id, 2, '   '), 400, 565);
    const rejected = await reject(layer[1]!.token, note.id, 2, 'wrong warehouse');
    expect(rejected.json().msg).toBe('Goods issue note rejected at layer 2');
    expect(data<Detail>(rejected).status).toBe(3);
    const shown = await detail(note.id);
    expect(shown.approval?.steps.map((step) => step.state)).toEqual(['approved', 'rejected', 'not_reached']);
    expect(shown.timeline.at(-1)).toMatchObject({
      type: 'GinRejected',
      layer: 2,
      by: { id: layer[1]!.userId },
    });
    expectRefusal(await approve(layer[2]!.token, note.id, 3), 409, 564);
    expectRefusal(await post(`${BASE}/${note.id}/cancel`, clerk.token, {}), 409, 558);
    expect(await stockEventCount()).toBe(events);
  });

  it('is cancelled by its creator only, before it completes', async () => {
    await settings(1);
    const note = await create(clerk.token);
    expectRefusal(await post(`${BASE}/${note.id}/cancel`, seller.token, {}), 403, 559);
    data(await submit(clerk.token, note.id));
    const cancelled = data<Detail>(
      await post(`${BASE}/${note.id}/cancel`, clerk.token, { reason: 'too early' }),
    );
    expect(cancelled.status).toBe(3);
    expectRefusal(await approve(layer[0]!.token, note.id, 1), 409, 558);

    const draft = await create(clerk.token);
    data(await post(`${BASE}/${draft.id}/cancel`, clerk.token));
    expect((await detail(draft.id)).status).toBe(3);
  });

  it('stays Approved with the failure when stock is short; nothing moves until a retry finds the stock', async () => {
    await settings(1);
    const start = await onHand(songket);
    const events = await stockEventCount();
    const note = await create(clerk.token, [
      { master_code_id: batik.id, quantity: 1 },
      { master_code_id: songket.id, quantity: start + 4 },
    ]);
    data(await submit(clerk.token, note.id));
    const approved = await approve(layer[0]!.token, note.id, 1);
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().msg).toBe(
      `Goods issue note approved, but there is not enough stock to issue: SONGKET (${start} on hand, ${start + 4} to issue). Add stock and retry, or cancel the note.`,
    );
    const failed = data<Detail>(approved);
    expect(failed.status).toBe(5);
    expect(failed.issue.failure?.lines).toEqual([
      { master_code: expect.objectContaining({ code: 'SONGKET' }), quantity: start + 4, on_hand: start },
    ]);
    expect(await stockEventCount()).toBe(events);
    const row = await list(seller.token, { status: '5' }, (rows) => rows.some((r) => r.id === note.id));
    expect(row.rows.find((r) => r.id === note.id)?.issue_failed).toBe(true);

    // Someone else may not retry; a retry without stock fails again, moving nothing.
    expectRefusal(await post(`${BASE}/${note.id}/retry`, layer[1]!.token), 403, 567);
    const again = await post(`${BASE}/${note.id}/retry`, clerk.token);
    expect(again.json().msg).toContain('There is still not enough stock to issue: SONGKET');
    expect(await stockEventCount()).toBe(events);

    data(
      await stock.receive(seller.token, { master_code_id: songket.id, warehouse_id: main.id, quantity: 10 }),
    );
    const batikBefore = await onHand(batik);
    const retried = await post(`${BASE}/${note.id}/retry`, layer[0]!.token);
    expect(retried.json().msg).toBe('Stock issued: the goods issue note is complete');
    expect(data<Detail>(retried).status).toBe(2);
    expect(await onHand(songket)).toBe(start + 10 - (start + 4));
    expect(await onHand(batik)).toBe(batikBefore - 1);
    expect((await detail(note.id)).timeline.map((entry) => entry.type)).toEqual([
      'GinCreated',
      'GinSubmitted',
      'GinLayerApproved',
      'GinIssueFailed',
      'GinIssueRetried',
      'GinIssueFailed',
      'GinIssueRetried',
      'GinCompleted',
    ]);
  });

  it('refuses bad input with a clear 4xx and records nothing', async () => {
    const events = await api.database.db
      .selectFrom('es_events')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('stream_id', 'like', `goodsIssue-${seller.tenantId}.%`)
      .executeTakeFirstOrThrow();
    const line = { master_code_id: batik.id, quantity: 1 };
    const cases: [Record<string, unknown>, number, number, string?][] = [
      [{ ...body([line]), reference: '' }, 400, 550, 'Please enter the reference.'],
      [
        { ...body([line]), reference: 'x'.repeat(TEXT_LIMITS.reference + 1) },
        400,
        550,
        `The reference is too long (maximum is ${TEXT_LIMITS.reference} characters).`,
      ],
      [{ ...body([line]), reason: '  ' }, 400, 551, 'Please enter the reason.'],
      [body([]), 400, 553, 'Please add at least one master code.'],
      [body([{ ...line, quantity: 0 }]), 400, 554],
      [body([{ ...line, quantity: -2 }]), 400, 554],
      [body([{ ...line, quantity: 1.5 }]), 400, 554],
      [
        body([{ master_code_id: otherItem.id, quantity: 1 }]),
        400,
        555,
        'Line 1: the master code does not exist.',
      ],
      [
        body([line, { master_code_id: 'not-an-id', quantity: 1 }]),
        400,
        555,
        'Line 2: the master code does not exist.',
      ],
      [
        body([{ master_code_id: combo.id, quantity: 1 }]),
        400,
        556,
        'Line 1: GIFTSET is a combo, which has no stock of its own; issue its components instead',
      ],
      [body([line, { ...line, quantity: 2 }]), 400, 557, 'Line 2: BATIK is already on an earlier line'],
      [{ ...body([line]), warehouse_id: otherItem.id }, 400, 552, 'The chosen warehouse does not exist.'],
      [{ ...body([line]), surprise: true }, 400, 400],
    ];
    for (const [payload, status, code, msg] of cases) {
      const answer = expectRefusal(await post(BASE, clerk.token, payload), status, code);
      if (msg) expect(answer.msg).toBe(msg);
    }
    // Who may create and see.
    expectRefusal(await post(BASE, layer[0]!.token, body([line])), 403, 403);
    expectRefusal(await call('GET', BASE, nobody.token), 403, 403);
    data(await call('GET', BASE, viewer.token));

    const after = await api.database.db
      .selectFrom('es_events')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('stream_id', 'like', `goodsIssue-${seller.tenantId}.%`)
      .executeTakeFirstOrThrow();
    expect(after.n).toBe(events.n);

    // Another account's note, a missing one and a non-id: the same 404.
    const mine = await create(clerk.token);
    const missing = [`${BASE}/${mine.id}`, `${BASE}/00000000-0000-4000-8000-000000000000`, `${BASE}/nope`];
    const bodies = new Set<string>();
    for (const url of missing) {
      const answer = await call('GET', url, other.token);
      expect(answer.statusCode).toBe(404);
      bodies.add(answer.body);
    }
    expect(bodies.size).toBe(1);
    expectRefusal(await approve(other.token, mine.id, 1), 404, 404);

    // Actions in the wrong state or by the wrong user.
    expectRefusal(await approve(layer[0]!.token, mine.id, 1), 409, 558);
    const colleague = await staff(['inventory-stock-adjustment']);
    expectRefusal(await submit(colleague.token, mine.id), 403, 559);
    expectRefusal(await call('PUT', `${BASE}/${mine.id}`, colleague.token, body([line])), 403, 559);
    const edited = data<Detail>(
      await call(
        'PUT',
        `${BASE}/${mine.id}`,
        clerk.token,
        body([{ ...line, quantity: 4 }], { reference: 'EDITED' }),
      ),
    );
    expect(edited).toMatchObject({ reference: 'EDITED', lines: [{ quantity: 4 }] });
    data(await submit(clerk.token, mine.id));
    expectRefusal(await submit(clerk.token, mine.id), 409, 558);
    expectRefusal(await call('PUT', `${BASE}/${mine.id}`, clerk.token, body([line])), 409, 558);
    expectRefusal(await post(`${BASE}/${mine.id}/approve`, layer[0]!.token, {}), 400, 561);
    expectRefusal(
      await post(`${BASE}/${mine.id}/approve`, layer[0]!.token, { layer: 1, extra: 1 }),
      400,
      400,
    );

    // The settings: the owner only, within bounds.
    expectRefusal(
      await call('PUT', '/api/inventory/approval-settings', clerk.token, {
        layers: 2,
        reminder_minutes: 60,
        allow_same_approver: false,
      }),
      403,
      403,
    );
    for (const [layers, reminder] of [
      [0, 60],
      [4, 60],
      [2, 0],
      [2, 10_081],
    ] as const) {
      expectRefusal(
        await call('PUT', '/api/inventory/approval-settings', seller.token, {
          layers,
          reminder_minutes: reminder,
          allow_same_approver: false,
        }),
        400,
        568,
      );
    }
    expect(data(await call('GET', '/api/inventory/approval-settings', viewer.token))).toMatchObject({
      layers: expect.any(Number),
      reminder_minutes: 1440,
    });
    expectRefusal(await call('GET', '/api/inventory/approval-settings', nobody.token), 403, 403);
  });

  it('starts the workflow of an open note that has none (the server was down at its creation)', async () => {
    await settings(1);
    const ginId = randomUUID();
    const at = new Date().toISOString();
    await handleGoodsIssueCommand(
      api.store,
      seller.tenantId,
      ginId,
      {
        type: 'CreateGoodsIssue',
        ginId,
        userId: clerk.userId,
        at,
        warehouseId: main.id,
        reference: 'GIN-ORPHAN',
        reason: 'created while the workflows were down',
        remark: '',
        lines: [{ masterCodeId: batik.id, quantity: 1 }],
      },
      { userId: clerk.userId, commandId: randomUUID(), occurredAt: at },
    );
    const submitted = data<Detail>(await submit(clerk.token, ginId));
    expect(submitted).toMatchObject({ status: 4, approval: { current_layer: 1 } });
    data(await reject(layer[0]!.token, ginId, 1, 'only a test'));
    expect((await detail(ginId)).status).toBe(3);
  });

  it('lists, filters and finds what waits for me', async () => {
    await settings(2);
    const second = await staff(['gin-approval-layer-2']);
    const note = await create(clerk.token);
    data(await submit(clerk.token, note.id));
    data(await approve(layer[0]!.token, note.id, 1));
    const waiting = await list(second.token, { waiting_for_me: 'true' }, (rows) =>
      rows.some((row) => row.id === note.id),
    );
    expect(
      waiting.rows.every((row) => row.status === 4 && row.current_layer === 2 && row.waiting_for_me),
    ).toBe(true);
    const notMine = data<{ rows: ListRow[] }>(
      await call('GET', `${BASE}?${gridParams({ waiting_for_me: 'true' })}`, layer[0]!.token),
    );
    expect(notMine.rows.map((row) => row.id)).not.toContain(note.id);
    const byWarehouse = data<{ rows: ListRow[]; lastRow: number }>(
      await call('GET', `${BASE}?${gridParams({ warehouse_id: main.id, status: '4' })}`, seller.token),
    );
    expect(byWarehouse.rows.map((row) => row.id)).toContain(note.id);
    const searched = data<{ rows: ListRow[] }>(
      await call('GET', `${BASE}?${gridParams({ search: note.reference })}`, seller.token),
    );
    expect(searched.rows.map((row) => row.id)).toEqual([note.id]);
    // Nothing of another account.
    const others = data<{ rows: ListRow[]; lastRow: number }>(await call('GET', BASE, other.token));
    expect(others).toEqual({ rows: [], lastRow: 0 });
    data(await reject(second.token, note.id, 2, 'done testing'));
  });

  it('mails the holders of the waiting layer key when it waits longer than the setting, and records it', async () => {
    // An account of its own, so its short reminder touches no other test's notes.
    const seller = await createSeller(api);
    const main = await stock.warehouse(seller.token, 'MAIN');
    const item = await stock.masterCode(seller.token, 'KAIN');
    const first = await createSubUser(api, seller.tenantId, ['gin-approval-layer-1']);
    const second = await createSubUser(api, seller.tenantId, ['gin-approval-layer-2']);
    const emailOf = async (userId: string) =>
      (
        await api.database.db
          .selectFrom('users')
          .select('email')
          .where('id', '=', userId)
          .executeTakeFirstOrThrow()
      ).email;
    const [ownerEmail, firstEmail, secondEmail] = [
      seller.email,
      await emailOf(first.userId),
      await emailOf(second.userId),
    ];

    data(
      await stock.call('PUT', '/api/inventory/approval-settings', seller.token, {
        layers: 2,
        reminder_minutes: 1,
        allow_same_approver: false,
      }),
    );
    // The API's least interval is a minute; the test takes a second, written where the setting is kept.
    await api.database.db
      .updateTable('approval_settings')
      .set({ reminder_seconds: 1 })
      .where('tenant_id', '=', seller.tenantId)
      .execute();

    const note = data<{ id: string; reference: string }>(
      await stock.call('POST', BASE, seller.token, {
        warehouse_id: main.id,
        reference: 'GIN-REMIND',
        reason: 'display samples',
        lines: [{ master_code_id: item.id, quantity: 1 }],
      }),
    );
    data(await stock.call('POST', `${BASE}/${note.id}/submit`, seller.token));

    const mails = (purpose = 'gin-approval-reminder') =>
      api.database.db
        .selectFrom('mail_outbox')
        .select(['recipient', 'subject', 'body'])
        .where('purpose', '=', purpose)
        .orderBy('id')
        .execute();
    const layerOne = await waitFor(
      async () => {
        const sent = await mails();
        return sent.length >= 2 ? sent : undefined;
      },
      { what: 'the first reminder' },
    );
    expect(new Set(layerOne.slice(0, 2).map((mail) => mail.recipient))).toEqual(
      new Set([ownerEmail, firstEmail]),
    );
    expect(layerOne[0]!.subject).toBe('Goods issue note GIN-REMIND is waiting for your approval (layer 1)');
    expect(layerOne[0]!.body).toContain('approval at layer 1');
    // The timeline says who was reminded.
    const reminded = await waitFor(async () => {
      const shown = data<Detail>(await stock.call('GET', `${BASE}/${note.id}`, seller.token));
      return shown.timeline.find((entry) => entry.type === 'GinApprovalReminded');
    });
    expect(reminded.layer).toBe(1);
    expect(reminded.recipients.sort()).toEqual(['Siti Aminah', 'Staff'].sort());

    // Layer 1 approves; the reminders now go to layer 2's holders.
    data(await stock.call('POST', `${BASE}/${note.id}/approve`, first.token, { layer: 1 }));
    await waitFor(
      async () =>
        (await mails()).some((mail) => mail.recipient === secondEmail && mail.subject.includes('layer 2')),
      { what: 'the reminder of layer 2' },
    );
    const all = await mails();
    // Layer 2's holder was never reminded of layer 1, layer 1's never of layer 2.
    expect(
      all.filter((mail) => mail.recipient === secondEmail).every((mail) => mail.subject.includes('layer 2')),
    ).toBe(true);
    expect(
      all.filter((mail) => mail.recipient === firstEmail).every((mail) => mail.subject.includes('layer 1')),
    ).toBe(true);
    // At most a few reminders a layer.
    expect(all.filter((mail) => mail.recipient === firstEmail).length).toBeLessThanOrEqual(3);
    data(await stock.call('POST', `${BASE}/${note.id}/reject`, second.token, { layer: 2, reason: 'enough' }));
  });
});
