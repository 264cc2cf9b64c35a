import {
  createSeller,
  createSubUser,
  createTestApi,
  type TestApi,
  type TestSeller,
} from '@tests/support/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { data } from './inventory/inventory-api';
import { expectCode, type TransferAnswer, transferCalls } from './transfers-support';

/**
 * Issue 14, a transfer asking for more than is on hand: warned about at creation and on each edit (every short line,
 * with the source's figures), refused only when shipping; and edited before it ships — lines, quantities,
 * destination, remark — through its workflow, against the revision the editor read, so a concurrent edit is refused
 * rather than lost, and an edit after shipping is refused with the catalogue's code.
 */
describe('transfer shortfalls and edits before shipping', () => {
  let api: TestApi;
  let seller: TestSeller;
  let other: TestSeller;
  const t = transferCalls(() => api);
  type Ref = { id: string };
  let main: Ref, shop: Ref, mall: Ref, batik: Ref, songket: Ref, sarung: Ref;

  beforeAll(async () => {
    api = await createTestApi({ workflows: true });
    [seller, other] = await Promise.all([createSeller(api, { packageId: 'growth' }), createSeller(api)]);
    main = await t.stock.warehouse(seller.token, 'MAIN');
    shop = await t.stock.branch(seller.token, 'KL1');
    mall = await t.stock.warehouse(seller.token, 'MALL');
    ({
      BATIK: batik,
      SONGKET: songket,
      SARUNG: sarung,
    } = await t.stocked(seller.token, main, { BATIK: 10, SONGKET: 4, SARUNG: 6 }));
  });
  afterAll(async () => {
    await api?.close();
  });

  const at = async (item: { id: string }, place: { id: string }) =>
    t.figures(seller.tenantId, item.id, place.id);

  it('warns at creation about every line beyond what the source has on hand, with the figures, and refuses only at ship', async () => {
    const lines = [
      { master_code_id: batik.id, quantity: 12 },
      { master_code_id: songket.id, quantity: 4 },
      { master_code_id: sarung.id, quantity: 7 },
    ];
    // The form's check, before anything is made: both short lines at once.
    const checked = data<{ master_code: { code: string }; quantity: number; on_hand: number }[]>(
      await t.post('/api/transfer-stock/shortfalls', seller.token, { from_warehouse_id: main.id, lines }),
    );
    expect(checked).toEqual([
      { master_code: expect.objectContaining({ code: 'BATIK' }), quantity: 12, on_hand: 10 },
      { master_code: expect.objectContaining({ code: 'SARUNG' }), quantity: 7, on_hand: 6 },
    ]);
    const enough = await t.post('/api/transfer-stock/shortfalls', seller.token, {
      from_warehouse_id: main.id,
      lines: [{ master_code_id: batik.id, quantity: 10 }],
    });
    expect(data(enough)).toEqual([]);

    // Made all the same, its answer carrying the same warnings.
    const made = data<TransferAnswer>(
      await t.createTransfer(seller.token, {
        from_warehouse_id: main.id,
        to_warehouse_id: shop.id,
        lines,
      }),
    );
    expect(made.status).toBe('pending');
    expect(made.shortfalls.map((line) => [line.master_code.code, line.quantity, line.on_hand])).toEqual([
      ['BATIK', 12, 10],
      ['SARUNG', 7, 6],
    ]);
    expect(made.actions).toContain('edit');
    // Shipping is the hard rule: refused, nothing moved.
    expectCode(await t.transferAction(seller.token, made.id, 'ship'), 409, 513);
    expect(await at(batik, main)).toEqual({ onHand: 10, incoming: 0 });
    data(await t.transferAction(seller.token, made.id, 'cancel'));
    expect((await t.transfer(seller.token, made.id)).shortfalls).toEqual([]);
  });

  it('edits lines, quantities, destination and remark before shipping, and ships what the edit left', async () => {
    const made = data<TransferAnswer>(
      await t.createTransfer(seller.token, {
        from_warehouse_id: main.id,
        to_warehouse_id: shop.id,
        remark: 'for the bazaar',
        lines: [
          { master_code_id: batik.id, quantity: 15 },
          { master_code_id: songket.id, quantity: 2 },
        ],
      }),
    );
    expect(made.shortfalls.map((line) => line.master_code.code)).toEqual(['BATIK']);
    // Confirming is a change too: the edit is made against the revision after it.
    const confirmed = data<TransferAnswer>(await t.transferAction(seller.token, made.id, 'confirm'));
    expect(confirmed.revision).toBeGreaterThan(made.revision);

    const edited = await t.editTransfer(seller.token, made.id, {
      revision: confirmed.revision,
      to_warehouse_id: mall.id,
      remark: 'half to the mall',
      lines: [
        { master_code_id: batik.id, quantity: 3 },
        { master_code_id: sarung.id, quantity: 9 },
      ],
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json<{ msg: string }>().msg).toBe('Transfer updated');
    const after = data<TransferAnswer>(edited);
    expect(after).toMatchObject({
      status: 'pending',
      confirmed: true,
      remark: 'half to the mall',
      to_warehouse: { id: mall.id, code: 'MALL' },
    });
    expect(after.lines.map((line) => [line.master_code.code, line.quantity])).toEqual([
      ['BATIK', 3],
      ['SARUNG', 9],
    ]);
    // The warnings follow the edit: batik now fits, sarung does not.
    expect(after.shortfalls.map((line) => [line.master_code.code, line.quantity, line.on_hand])).toEqual([
      ['SARUNG', 9, 6],
    ]);
    const edit = after.timeline.find((entry) => entry.type === 'TransferEdited');
    expect(edit?.user?.id).toBe(seller.userId);
    // The list follows: destination, count and total.
    await expect
      .poll(async () => {
        const page = await t.list<{ id: string; to_warehouse: { id: string }; total_quantity: number }>(
          seller.token,
          'transfers',
          { search: '' },
        );
        const row = page.rows.find((found) => found.id === made.id);
        return row && [row.to_warehouse.id, row.total_quantity];
      })
      .toEqual([mall.id, 12]);

    // Still short of sarung: edit it down, then ship what the transfer now holds.
    data(
      await t.editTransfer(seller.token, made.id, {
        revision: after.revision,
        to_warehouse_id: mall.id,
        lines: [
          { master_code_id: batik.id, quantity: 3 },
          { master_code_id: sarung.id, quantity: 5 },
        ],
      }),
    );
    const before = { batik: await at(batik, main), songket: await at(songket, main) };
    const shipped = data<TransferAnswer>(await t.transferAction(seller.token, made.id, 'ship'));
    expect(shipped.remark).toBe('half to the mall');
    expect(shipped.lines.map((line) => [line.master_code.code, line.in_transit])).toEqual([
      ['BATIK', 3],
      ['SARUNG', 5],
    ]);
    expect(await at(batik, main)).toEqual({ onHand: before.batik.onHand - 3, incoming: 0 });
    expect(await at(songket, main)).toEqual(before.songket);
    expect(await at(batik, mall)).toEqual({ onHand: 0, incoming: 3 });
    expect(await at(sarung, mall)).toEqual({ onHand: 0, incoming: 5 });
    expect(await at(batik, shop)).toEqual({ onHand: 0, incoming: 0 });

    // Received at the new destination.
    const received = data<TransferAnswer>(
      await t.transferAction(seller.token, made.id, 'receive', {
        lines: [
          { master_code_id: batik.id, quantity: 3 },
          { master_code_id: sarung.id, quantity: 5 },
        ],
      }),
    );
    expect(received.status).toBe('completed');
    expect(await at(sarung, mall)).toEqual({ onHand: 5, incoming: 0 });
  });

  it('refuses an edit once shipped, with the code of the wrong state, and records nothing', async () => {
    const made = data<TransferAnswer>(
      await t.createTransfer(seller.token, {
        from_warehouse_id: main.id,
        to_warehouse_id: shop.id,
        lines: [{ master_code_id: batik.id, quantity: 1 }],
      }),
    );
    const shipped = data<TransferAnswer>(await t.transferAction(seller.token, made.id, 'ship'));
    const count = await t.documentEventCount(seller.tenantId);
    for (const key of [undefined, 'edit-after-ship']) {
      const refused = expectCode(
        await t.editTransfer(seller.token, made.id, {
          revision: shipped.revision,
          to_warehouse_id: shop.id,
          lines: [{ master_code_id: batik.id, quantity: 5 }],
          ...(key ? { idempotency_key: key } : {}),
        }),
        409,
        509,
      );
      expect(refused.msg).toBe('Cannot edit a transfer that is in transit.');
    }
    expect(await t.documentEventCount(seller.tenantId)).toBe(count);
    expect((await t.transfer(seller.token, made.id)).lines[0]).toMatchObject({ quantity: 1, in_transit: 1 });
    data(
      await t.transferAction(seller.token, made.id, 'receive', {
        lines: [{ master_code_id: batik.id, quantity: 1 }],
      }),
    );
  });

  it('refuses an edit made against a revision another change has passed: nothing is lost', async () => {
    const made = data<TransferAnswer>(
      await t.createTransfer(seller.token, {
        from_warehouse_id: main.id,
        to_warehouse_id: shop.id,
        lines: [{ master_code_id: songket.id, quantity: 1 }],
      }),
    );
    const read = made.revision;
    const first = data<TransferAnswer>(
      await t.editTransfer(seller.token, made.id, {
        revision: read,
        to_warehouse_id: shop.id,
        lines: [{ master_code_id: songket.id, quantity: 2 }],
        idempotency_key: 'first-edit',
      }),
    );
    expect(first.lines[0]?.quantity).toBe(2);
    const count = await t.documentEventCount(seller.tenantId);
    // The second editor read the transfer before the first edit: refused at once without a key, and by the
    // workflow's record with one (the path a console click takes).
    for (const key of [undefined, 'second-edit']) {
      const stale = expectCode(
        await t.editTransfer(seller.token, made.id, {
          revision: read,
          to_warehouse_id: shop.id,
          lines: [{ master_code_id: songket.id, quantity: 3 }],
          ...(key ? { idempotency_key: key } : {}),
        }),
        409,
        519,
      );
      expect(stale.msg).toMatch(/^Someone else changed this transfer since you opened it\./);
    }
    // A resent first edit answers as before and records nothing again.
    const resent = await t.editTransfer(seller.token, made.id, {
      revision: read,
      to_warehouse_id: shop.id,
      lines: [{ master_code_id: songket.id, quantity: 2 }],
      idempotency_key: 'first-edit',
    });
    expect(resent.statusCode, resent.body).toBe(200);
    expect(await t.documentEventCount(seller.tenantId)).toBe(count);
    expect((await t.transfer(seller.token, made.id)).lines[0]?.quantity).toBe(2);

    // Two editors at once from the same revision: one edit stands whole, the other is refused.
    const now = first.revision;
    const [a, b] = await Promise.all(
      [4, 1].map((quantity) =>
        t.editTransfer(seller.token, made.id, {
          revision: now,
          to_warehouse_id: shop.id,
          lines: [{ master_code_id: songket.id, quantity }],
          idempotency_key: `race-${quantity}`,
        }),
      ),
    );
    const answers = [a!, b!];
    expect(answers.map((answer) => answer.statusCode).sort(), `${a!.body} ${b!.body}`).toEqual([200, 409]);
    const refused = answers.find((answer) => answer.statusCode === 409)!;
    expect([510, 519]).toContain(refused.json<{ code: number }>().code);
    const winner = data<TransferAnswer>(answers.find((answer) => answer.statusCode === 200)!);
    const final = await t.transfer(seller.token, made.id);
    expect(final.lines).toEqual(winner.lines);
    expect(final.timeline.filter((entry) => entry.type === 'TransferEdited')).toHaveLength(2);
    data(await t.transferAction(seller.token, made.id, 'cancel'));
  });

  it('refuses bad edits with the catalogue codes, users without the key and other accounts, changing nothing', async () => {
    const made = data<TransferAnswer>(
      await t.createTransfer(seller.token, {
        from_warehouse_id: main.id,
        to_warehouse_id: mall.id,
        lines: [{ master_code_id: batik.id, quantity: 1 }],
      }),
    );
    const body = (changes: Record<string, unknown>) => ({
      revision: made.revision,
      to_warehouse_id: mall.id,
      lines: [{ master_code_id: batik.id, quantity: 2 }],
      ...changes,
    });
    const count = await t.documentEventCount(seller.tenantId);
    // The source as destination: said as warehouses, for warehouses.
    const same = expectCode(
      await t.editTransfer(seller.token, made.id, body({ to_warehouse_id: main.id })),
      400,
      500,
    );
    expect(same.msg).toBe('Transfer source and destination warehouses must differ');
    expectCode(await t.editTransfer(seller.token, made.id, body({ revision: -1 })), 400, 400);
    expectCode(await t.editTransfer(seller.token, made.id, body({ revision: undefined })), 400, 400);
    expectCode(await t.editTransfer(seller.token, made.id, body({ lines: [] })), 400, 501);
    expectCode(
      await t.editTransfer(
        seller.token,
        made.id,
        body({ lines: [{ master_code_id: batik.id, quantity: 0 }] }),
      ),
      400,
      502,
    );
    expectCode(
      await t.editTransfer(
        seller.token,
        made.id,
        body({
          lines: [
            { master_code_id: batik.id, quantity: 1 },
            { master_code_id: batik.id, quantity: 1 },
          ],
        }),
      ),
      400,
      503,
    );
    expectCode(
      await t.editTransfer(
        seller.token,
        made.id,
        body({ to_warehouse_id: '00000000-0000-4000-8000-000000000001' }),
      ),
      404,
      506,
    );
    const combo = await t.stock.combo(seller.token, 'PAIR', [{ component_id: batik.id, quantity: 2 }]);
    expectCode(
      await t.editTransfer(
        seller.token,
        made.id,
        body({ lines: [{ master_code_id: combo.id, quantity: 1 }] }),
      ),
      400,
      505,
    );
    const viewer = await createSubUser(api, seller.tenantId, ['transfer-manage-request']);
    expectCode(await t.editTransfer(viewer.token, made.id, body({})), 403, 403);
    const foreign = await t.editTransfer(other.token, made.id, body({}));
    const missing = await t.editTransfer(other.token, '00000000-0000-4000-8000-000000000002', body({}));
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual(missing.json());
    expectCode(
      await t.post('/api/transfer-stock/shortfalls', other.token, {
        from_warehouse_id: main.id,
        lines: [{ master_code_id: batik.id, quantity: 1 }],
      }),
      404,
      506,
    );
    expect(await t.documentEventCount(seller.tenantId)).toBe(count);
    expect((await t.transfer(seller.token, made.id)).lines[0]?.quantity).toBe(1);
    data(await t.transferAction(seller.token, made.id, 'cancel'));
  });
});
