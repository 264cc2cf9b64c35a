import { randomUUID } from 'node:crypto';
import { loadOrder } from '@commands/orders/order';
import { hashSecret } from '@commands/support/secrets';
import {
  callerOf,
  count,
  data,
  type MadeOrder,
  makeOrders,
  orderEvents,
  refusal,
  type ScanAnswer,
  settledUntil,
} from '@tests/api/batches-support';
import { type Catalogue, line, seedCatalogue, stockOf } from '@tests/api/orders-support';
import {
  createSeller,
  createSubUser,
  createTestApi,
  signIn,
  type TestApi,
  type TestSeller,
} from '@tests/support/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Scan to verify through the API (spec §4, §5, §8): the tracking number opens the order's check, each item code
 * counts, the last one scans the order — once, and its stock moves to "in process" once — whatever the race: 50
 * pickers scanning 50 orders at once, two pickers on the same order, a scan sent twice. The messages are the spec's.
 */
describe('smart scan API', () => {
  let api: TestApi;
  let seller: TestSeller;
  let catalogue: Catalogue;
  const call = callerOf(() => api);
  const tracking = () => `MY${randomUUID().replace(/-/g, '').slice(0, 12).toUpperCase()}`;

  beforeAll(async () => {
    api = await createTestApi();
    seller = await createSeller(api);
    catalogue = await seedCatalogue(api, seller.tenantId, 1000);
    await api.database.db
      .updateTable('master_codes')
      .set({ upc: '9556789012345' })
      .where('id', '=', catalogue.songket)
      .execute();
  });
  afterAll(async () => {
    await api?.close();
  });

  const open = (trackingNumber: unknown, token = seller.token, extra: Record<string, unknown> = {}) =>
    call('POST', '/api/orders/scan/tracking', token, { tracking_number: trackingNumber, ...extra });
  const item = (orderId: string, code: unknown, token = seller.token, scanId?: string) =>
    call('POST', '/api/orders/scan/item', token, {
      order_id: orderId,
      item_code: code,
      ...(scanId ? { scan_id: scanId } : {}),
    });

  it('answers the spec messages for a missing tracking number or item code, and an invalid code', async () => {
    expect(await refusal(open(''))).toEqual({ status: 400, code: 620, msg: 'Tracking Number is required' });
    expect(await refusal(open('   '))).toEqual({
      status: 400,
      code: 620,
      msg: 'Tracking Number is required',
    });
    expect(await refusal(call('POST', '/api/orders/scan/tracking', seller.token, {}))).toMatchObject({
      code: 620,
      msg: 'Tracking Number is required',
    });
    const [order] = await makeOrders(api, seller.tenantId, catalogue, [{ tracking: tracking() }]);
    await data<ScanAnswer>(open(order!.tracking));
    expect(await refusal(item(order!.orderId, ''))).toEqual({
      status: 400,
      code: 621,
      msg: 'Item Code is required',
    });
    expect(
      await refusal(call('POST', '/api/orders/scan/item', seller.token, { order_id: order!.orderId })),
    ).toMatchObject({
      code: 621,
      msg: 'Item Code is required',
    });
    expect(await refusal(item(order!.orderId, 'KOPI-99'))).toEqual({
      status: 400,
      code: 622,
      msg: 'Item Code [KOPI-99] invalid',
    });
    // In the caller's language.
    expect(
      await refusal(
        call('POST', '/api/orders/scan/tracking', seller.token, { tracking_number: '' }, 'zh-cn'),
      ),
    ).toMatchObject({ code: 620, msg: '必须填写运单号' });
  });

  it('opens the check, counts each item by code, seller SKU or UPC, and scans the order on the last unit', async () => {
    const [order] = await makeOrders(api, seller.tenantId, catalogue, [
      { tracking: tracking(), lines: [line('BATIK-01', 2), line('SONGKET-01', 1)] },
    ]);
    const before = await stockOf(api, seller.tenantId, catalogue.batik, catalogue.warehouseId);

    const opened = await data<ScanAnswer>(open(order!.tracking!.toLowerCase()));
    expect(opened.order).toMatchObject({
      id: order!.orderId,
      order_number: order!.orderNumber,
      status: 'unscan',
    });
    expect(opened.check).toMatchObject({
      status: 'open',
      round: 1,
      scanned: 0,
      required: 3,
      completed: false,
    });
    expect(opened.check.lines.map((l) => [l.code, l.required, l.scanned])).toEqual([
      ['BATIK', 2, 0],
      ['SONGKET', 1, 0],
    ]);

    const first = await data<ScanAnswer>(item(order!.orderId, 'batik'));
    expect(first.check.scanned).toBe(1);
    const second = await data<ScanAnswer>(item(order!.orderId, 'BATIK-01'));
    expect(second.check.lines[0]).toMatchObject({ scanned: 2, required: 2 });
    // A third BATIK is more than the order holds.
    expect(await refusal(item(order!.orderId, 'BATIK'))).toEqual({
      status: 400,
      code: 622,
      msg: 'Item Code [BATIK] invalid',
    });
    const last = await call('POST', '/api/orders/scan/item', seller.token, {
      order_id: order!.orderId,
      item_code: '9556789012345',
    });
    expect(last.statusCode, last.body).toBe(200);
    expect(last.json<{ msg: string }>().msg).toBe(`Order ${order!.orderNumber} scanned`);
    const done = last.json<{ data: ScanAnswer }>().data;
    expect(done.check).toMatchObject({ status: 'completed', scanned: 3, required: 3, completed: true });
    expect(done.order.status).toBe('scanned');

    expect((await loadOrder(api.store, seller.tenantId, order!.orderId)).status).toBe('scanned');
    expect(count(await orderEvents(api, seller.tenantId, order!.orderId), 'OrderScanned')).toBe(1);
    // The stock reactor moves the scanned units from reserved to in process, once.
    const after = await settledUntil(api, async () => {
      const figures = await stockOf(api, seller.tenantId, catalogue.batik, catalogue.warehouseId);
      return figures.inProcess !== before.inProcess && figures;
    });
    expect(after.inProcess - before.inProcess).toBe(2);
    expect(before.reserved - after.reserved).toBe(2);

    // Scanned: the tracking number is refused now.
    expect(await refusal(open(order!.tracking))).toEqual({
      status: 409,
      code: 623,
      msg: 'Already scanned and checking in progress',
    });
  });

  it("checks a combo by its components, up to the combo's quantities", async () => {
    const [order] = await makeOrders(api, seller.tenantId, catalogue, [
      { tracking: tracking(), lines: [line('GIFT-SET', 2)] },
    ]);
    const opened = await data<ScanAnswer>(open(order!.tracking!));
    // A gift set is 1 batik and 2 songket.
    expect(opened.check.lines.map((l) => [l.code, l.required])).toEqual([
      ['BATIK', 2],
      ['SONGKET', 4],
    ]);
    expect(await refusal(item(order!.orderId, 'GIFT'))).toMatchObject({ code: 622 });
    for (const code of ['BATIK', 'BATIK-01', 'SONGKET', 'SONGKET-01', 'songket']) {
      await data<ScanAnswer>(item(order!.orderId, code));
    }
    expect(await refusal(item(order!.orderId, 'BATIK'))).toEqual({
      status: 400,
      code: 622,
      msg: 'Item Code [BATIK] invalid',
    });
    const done = await data<ScanAnswer>(item(order!.orderId, '9556789012345'));
    expect(done.check).toMatchObject({ scanned: 6, required: 6, completed: true });
    expect(done.order.status).toBe('scanned');
  });

  it('records serial numbers scanned after their items on the order line: one per unit, none twice on the order', async () => {
    const [order] = await makeOrders(api, seller.tenantId, catalogue, [
      { tracking: tracking(), lines: [line('BATIK-01', 2), line('SONGKET-01', 1)] },
    ]);
    const serial = (lineId: string, serialNumber: unknown, token = seller.token, language?: string) =>
      call(
        'POST',
        '/api/orders/scan/serial',
        token,
        { order_id: order!.orderId, line_id: lineId, serial_number: serialNumber },
        language,
      );
    const opened = await data<ScanAnswer>(open(order!.tracking!));
    const [batik, songket] = opened.check.lines.map((l) => l.line_id) as [string, string];
    expect(opened.check.lines.map((l) => l.serial_numbers)).toEqual([[], []]);

    await data<ScanAnswer>(item(order!.orderId, 'BATIK'));
    const first = await serial(batik, ' SN-0001 ');
    expect(first.json<{ msg: string }>().msg).toBe('Serial number SN-0001 recorded');
    await data<ScanAnswer>(item(order!.orderId, 'BATIK'));
    const second = await data<ScanAnswer>(serial(batik, 'SN-0002'));
    expect(second.check.lines[0]!.serial_numbers).toEqual(['SN-0001', 'SN-0002']);
    // A third on a line of two units, a serial already on the order, an empty one: refused, nothing recorded.
    expect(await refusal(serial(batik, 'SN-0003'))).toMatchObject({ status: 400, code: 596 });
    expect(await refusal(serial(songket, 'SN-0001'))).toMatchObject({ status: 400, code: 597 });
    expect(await refusal(serial(songket, '  '))).toMatchObject({ status: 400 });
    // Only the picker whose check it is, and only a line of it.
    const picker = await createSubUser(api, seller.tenantId, ['orders-order-by-task']);
    expect(await refusal(serial(songket, 'SN-0009', picker.token))).toMatchObject({ status: 409, code: 623 });
    expect(await refusal(serial('no-such-line', 'SN-0009'))).toMatchObject({ status: 404 });

    // The last unit scans the order; its serial number comes after, and is on the order as the drawer shows it.
    const done = await data<ScanAnswer>(item(order!.orderId, 'SONGKET'));
    expect(done.check.completed).toBe(true);
    await data<ScanAnswer>(serial(songket, 'SN-0100'));
    const lines = (await loadOrder(api.store, seller.tenantId, order!.orderId)).lines;
    expect(lines.map((l) => [l.sellerSku, l.serialNumbers ?? []])).toEqual([
      ['BATIK-01', ['SN-0001', 'SN-0002']],
      ['SONGKET-01', ['SN-0100']],
    ]);
    const detail = await call('GET', `/api/orders/${order!.orderId}`, seller.token);
    expect(detail.statusCode, detail.body).toBe(200);
    expect(detail.body).toContain('SN-0100');
  });

  it("refuses a second picker while the first one's check is open, and keeps the first picker's progress", async () => {
    const [order] = await makeOrders(api, seller.tenantId, catalogue, [
      { tracking: tracking(), lines: [line('BATIK-01', 2)] },
    ]);
    const picker = await createSubUser(api, seller.tenantId, ['orders-order-by-task']);
    await data<ScanAnswer>(open(order!.tracking));
    await data<ScanAnswer>(item(order!.orderId, 'BATIK'));
    expect(await refusal(open(order!.tracking, picker.token))).toEqual({
      status: 409,
      code: 623,
      msg: 'Already scanned and checking in progress',
    });
    expect(await refusal(item(order!.orderId, 'BATIK', picker.token))).toMatchObject({
      status: 409,
      code: 623,
    });
    // The first picker scanning the tracking number again gets their check back.
    const again = await data<ScanAnswer>(open(order!.tracking));
    expect(again.check).toMatchObject({ round: 1, scanned: 1 });
  });

  it("answers another account's tracking number as not found, and an order not ready to scan", async () => {
    const other = await createSeller(api);
    const otherCatalogue = await seedCatalogue(api, other.tenantId);
    const [foreign] = await makeOrders(api, other.tenantId, otherCatalogue, [{ tracking: tracking() }]);
    const answer = await refusal(open(foreign!.tracking));
    expect(answer.status).toBe(404);
    expect(await refusal(open('NO-SUCH-TRACKING'))).toEqual(answer);
    expect(await refusal(item(foreign!.orderId, 'BATIK'))).toMatchObject({ status: 409, code: 638 });

    // A new order whose tracking number came from the marketplace but whose shipment is not arranged yet.
    const trackingOfNew = tracking();
    await makeOrders(api, seller.tenantId, catalogue, [{ importedTracking: trackingOfNew }]);
    expect(await refusal(open(trackingOfNew))).toEqual({
      status: 409,
      code: 637,
      msg: 'This order cannot be scanned now: it is new',
    });
  });

  it('resets: progress cleared; with undo scan the order goes back to unscan and is scanned again', async () => {
    const [order] = await makeOrders(api, seller.tenantId, catalogue, [
      { tracking: tracking(), lines: [line('BATIK-01', 2)] },
    ]);
    await data<ScanAnswer>(open(order!.tracking));
    await data<ScanAnswer>(item(order!.orderId, 'BATIK'));
    const cleared = await data<ScanAnswer>(
      call('POST', '/api/orders/scan/reset', seller.token, { order_id: order!.orderId }),
    );
    expect(cleared.check).toMatchObject({ status: 'idle', scanned: 0 });
    await data<ScanAnswer>(open(order!.tracking));
    await data<ScanAnswer>(item(order!.orderId, 'BATIK'));
    const done = await data<ScanAnswer>(item(order!.orderId, 'BATIK'));
    expect(done.check).toMatchObject({ round: 2, completed: true });

    // A picker without "scan delete" cannot take the scan back.
    const picker = await createSubUser(api, seller.tenantId, ['orders-order-by-task']);
    expect(
      (
        await call('POST', '/api/orders/scan/reset', picker.token, {
          order_id: order!.orderId,
          undo_scan: true,
        })
      ).statusCode,
    ).toBe(403);
    const undone = await data<ScanAnswer>(
      call('POST', '/api/orders/scan/reset', seller.token, { order_id: order!.orderId, undo_scan: true }),
    );
    expect(undone.order.status).toBe('unscan');
    const reopened = await data<ScanAnswer>(open(order!.tracking, picker.token));
    expect(reopened.check).toMatchObject({ round: 3, scanned: 0, picker: { id: picker.userId } });
    await data<ScanAnswer>(item(order!.orderId, 'BATIK', picker.token));
    await data<ScanAnswer>(item(order!.orderId, 'BATIK', picker.token));
    const events = await orderEvents(api, seller.tenantId, order!.orderId);
    expect(count(events, 'OrderScanned')).toBe(2);
    expect(
      events.map((event) => event.type).filter((type) => type === 'OrderScanned' || type === 'OrderMoved'),
    ).toEqual(['OrderScanned', 'OrderMoved', 'OrderScanned']);
  });

  it("shows the batch's progress when scanning by batch, and refuses an order of another batch", async () => {
    const orders = await makeOrders(api, seller.tenantId, catalogue, [
      { tracking: tracking() },
      { tracking: tracking() },
      { tracking: tracking() },
    ]);
    const created = await data<{ batches: { id: string; label: string }[] }>(
      call('POST', '/api/orders/batches', seller.token, {
        order_ids: [orders[0]!.orderId, orders[1]!.orderId],
      }),
    );
    const batchId = created.batches[0]!.id;
    expect(await refusal(open(orders[2]!.tracking, seller.token, { batch_id: batchId }))).toEqual({
      status: 400,
      code: 639,
      msg: `Tracking number ${orders[2]!.tracking} is not in this batch`,
    });
    const opened = await data<ScanAnswer>(open(orders[0]!.tracking, seller.token, { batch_id: batchId }));
    expect(opened.batch).toMatchObject({ id: batchId, total_orders: 2, scanned_orders: 0 });
    const done = await data<ScanAnswer>(item(orders[0]!.orderId, 'BATIK'));
    expect(done.batch).toMatchObject({ id: batchId, total_orders: 2, scanned_orders: 1 });
    const scanned = (await orderEvents(api, seller.tenantId, orders[0]!.orderId)).find(
      (event) => event.type === 'OrderScanned',
    );
    expect(scanned?.data).toMatchObject({ batchId });
    const progress = await settledUntil(api, async () => {
      const batches = await data<{ id: string; scanned_orders: number; total_orders: number }[]>(
        call('GET', '/api/orders/scan/batches', seller.token),
      );
      const found = batches.find((batch) => batch.id === batchId);
      return found?.scanned_orders === 1 && found;
    });
    expect(progress).toMatchObject({
      scanned_orders: 1,
      total_orders: 2,
    });
  });

  it('counts a scan sent twice once', async () => {
    const [order] = await makeOrders(api, seller.tenantId, catalogue, [
      { tracking: tracking(), lines: [line('BATIK-01', 3)] },
    ]);
    await data<ScanAnswer>(open(order!.tracking));
    const scanId = randomUUID();
    await data<ScanAnswer>(item(order!.orderId, 'BATIK', seller.token, scanId));
    const resent = await data<ScanAnswer>(item(order!.orderId, 'BATIK', seller.token, scanId));
    expect(resent.check.scanned).toBe(1);
  });

  describe('at the same time', () => {
    /** `n` pickers of the account, signed in (one password hash for all: argon2 is slow on purpose). */
    async function pickers(n: number): Promise<{ userId: string; token: string }[]> {
      const db = api.database.db;
      const groupId = randomUUID();
      await db
        .insertInto('user_groups')
        .values({
          id: groupId,
          tenant_id: seller.tenantId,
          name: `Pickers ${groupId}`,
          permissions: ['orders-order-by-task'],
        })
        .execute();
      const password = 'picker password 1';
      const hash = await hashSecret(password);
      const users = Array.from({ length: n }, (_, index) => ({
        id: randomUUID(),
        email: `picker-${index}-${randomUUID().slice(0, 6)}@shop.test`,
      }));
      await db
        .insertInto('users')
        .values(
          users.map((user) => ({
            id: user.id,
            tenant_id: seller.tenantId,
            kind: 'subuser' as const,
            email: user.email,
            first_name: 'Picker',
            password_hash: hash,
            status: 'active' as const,
            group_id: groupId,
            email_verified_at: new Date(),
          })),
        )
        .execute();
      const signedIn: { userId: string; token: string }[] = [];
      for (const user of users)
        signedIn.push({ userId: user.id, token: await signIn(api.app, user.email, password) });
      return signedIn;
    }

    it('50 pickers scanning 50 orders: each order scanned once, its stock moved once', async () => {
      const before = await stockOf(api, seller.tenantId, catalogue.batik, catalogue.warehouseId);
      const orders: MadeOrder[] = await makeOrders(
        api,
        seller.tenantId,
        catalogue,
        Array.from({ length: 50 }, () => ({ tracking: tracking(), lines: [line('BATIK-01', 2)] })),
      );
      const team = await pickers(50);
      const results = await Promise.all(
        orders.map(async (order, index) => {
          const token = team[index]!.token;
          const opened = await open(order.tracking, token);
          if (opened.statusCode !== 200) return `open ${opened.statusCode} ${opened.body}`;
          // Each unit scanned by the picker — and the last one sent twice at once, as a jittery scanner would.
          const first = await item(order.orderId, 'BATIK', token);
          if (first.statusCode !== 200) return `first ${first.statusCode} ${first.body}`;
          const lasts = await Promise.all([
            item(order.orderId, 'BATIK', token),
            item(order.orderId, 'BATIK', token),
          ]);
          return lasts
            .map((answer) => answer.statusCode)
            .sort()
            .join(',');
        }),
      );
      // One of the two last scans completes; the other finds nothing left to scan.
      for (const result of results) expect(['200,400', '200,409']).toContain(result);
      for (const order of orders) {
        const events = await orderEvents(api, seller.tenantId, order.orderId);
        expect(count(events, 'OrderScanned'), order.orderNumber).toBe(1);
      }
      const after = await settledUntil(api, async () => {
        const figures = await stockOf(api, seller.tenantId, catalogue.batik, catalogue.warehouseId);
        return figures.inProcess - before.inProcess >= 100 && figures;
      });
      expect(after.inProcess - before.inProcess).toBe(100);
      expect(after.reserved).toBe(before.reserved);
      expect(after.onHand).toBe(before.onHand);
    });

    it('two pickers on the same order: one checks it, the other is refused; scanned once', async () => {
      const [order] = await makeOrders(api, seller.tenantId, catalogue, [
        { tracking: tracking(), lines: [line('SONGKET-01', 1)] },
      ]);
      const [siti, ahmad] = await pickers(2);
      const opens = await Promise.all([
        open(order!.tracking, siti!.token),
        open(order!.tracking, ahmad!.token),
      ]);
      expect(opens.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
      const refused = opens.find((answer) => answer.statusCode === 409)!;
      expect(refused.json<{ code: number; msg: string }>()).toEqual({
        code: 623,
        msg: 'Already scanned and checking in progress',
      });
      const holder = opens[0]!.statusCode === 200 ? siti! : ahmad!;
      const other = holder === siti ? ahmad! : siti!;
      const scans = await Promise.all([
        item(order!.orderId, 'SONGKET', holder.token),
        item(order!.orderId, 'SONGKET', other.token),
      ]);
      expect(scans.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
      expect(count(await orderEvents(api, seller.tenantId, order!.orderId), 'OrderScanned')).toBe(1);
    });
  });
});
