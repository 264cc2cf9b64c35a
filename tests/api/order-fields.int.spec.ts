import { randomUUID } from 'node:crypto';
import type { OrderDetail } from '@api/contracts/orders';
import { handleOrderCommand } from '@commands/orders/order';
import { orderStreamId } from '@domain/orders/order';
import { type BatchAnswer, callerOf, data, makeOrders, refusal } from '@tests/api/batches-support';
import { type Catalogue, line, seedCatalogue, settle, stockOf } from '@tests/api/orders-support';
import { pdfOf, print } from '@tests/api/printing-support';
import {
  createSeller,
  createSubUser,
  createTestApi,
  type TestApi,
  type TestSeller,
} from '@tests/support/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textLines } from './inventory/pdf';

/**
 * The order fields of spec §3 beyond the marketplace's: free gifts (a promotion's, or added by hand: price 0, stock
 * held like any line's), a line's bin and serial numbers (at most one per unit, none twice on an order), the rack
 * of each line, the buyer's first and last name — answered in the order's detail, kept in the board's read model,
 * and printed on the packing list and the pick list.
 */
describe('order fields: gifts, bin and serial numbers, racks, first and last name', () => {
  let api: TestApi;
  let seller: TestSeller;
  let catalogue: Catalogue;
  const call = callerOf(() => api);

  beforeAll(async () => {
    api = await createTestApi();
    seller = await createSeller(api);
    catalogue = await seedCatalogue(api, seller.tenantId);
    const racks = { songket: randomUUID(), batik: randomUUID() };
    const where = { tenant_id: seller.tenantId, warehouse_id: catalogue.warehouseId };
    await api.database.db
      .insertInto('racks')
      .values([
        { ...where, id: racks.songket, name: 'A-01' },
        { ...where, id: racks.batik, name: 'B-07' },
      ])
      .execute();
    await api.database.db
      .insertInto('master_code_locations')
      .values([
        { ...where, master_code_id: catalogue.songket, rack_id: racks.songket },
        { ...where, master_code_id: catalogue.batik, rack_id: racks.batik },
      ])
      .execute();
  });
  afterAll(async () => {
    await api?.close();
  });

  const detail = (orderId: string) => data<OrderDetail>(call('GET', `/api/orders/${orderId}`, seller.token));
  const reserved = async (masterCodeId: string) =>
    (await stockOf(api, seller.tenantId, masterCodeId, catalogue.warehouseId)).reserved;
  const record = (orderId: string, lineId: string, body: unknown, token = seller.token) =>
    call('POST', `/api/orders/${orderId}/lines/${encodeURIComponent(lineId)}/packing`, token, body);
  /** The order's lines as the board's read model keeps them. */
  const boardLines = (orderId: string) =>
    api.database.db
      .selectFrom('order_lines')
      .select(['seller_sku', 'gift', 'bin_number', 'serial_numbers'])
      .where('tenant_id', '=', seller.tenantId)
      .where('order_id', '=', orderId)
      .orderBy('position')
      .execute();
  const streamLength = async (orderId: string) => {
    let n = 0;
    for await (const _ of api.store.readStream(orderStreamId(seller.tenantId, orderId))) n += 1;
    return n;
  };

  it("imports a promotion's gift at price 0 and reserves it; answers each line's racks and the buyer's names", async () => {
    await settle(api);
    const before = await reserved(catalogue.songket);
    const [order] = await makeOrders(api, seller.tenantId, catalogue, [
      {
        lines: [
          line('BATIK-01', 1),
          line('SONGKET-01', 2, { gift: true, unitPrice: '9.90' }),
          line('GIFT-SET', 1),
          line('NOT-A-SKU', 1),
        ],
      },
    ]);
    const answer = await detail(order!.orderId);
    expect(answer).toMatchObject({ first_name: 'Nur', last_name: 'Aisyah', address: { name: 'Nur Aisyah' } });
    expect(
      answer.lines.map((each) => [each.seller_sku, each.gift, each.unit_price, each.rack_locations]),
    ).toEqual([
      ['BATIK-01', false, '10.00', ['B-07']],
      ['SONGKET-01', true, '0.00', ['A-01']],
      // A combo has no shelf: its components' racks.
      ['GIFT-SET', false, '10.00', ['A-01', 'B-07']],
      ['NOT-A-SKU', false, '10.00', []],
    ]);
    await settle(api);
    // The gift's 2 and the combo's 2 songket.
    expect(await reserved(catalogue.songket)).toBe(before + 4);
    expect((await boardLines(order!.orderId)).map((row) => [row.seller_sku, row.gift])).toEqual([
      ['BATIK-01', false],
      ['SONGKET-01', true],
      ['GIFT-SET', false],
      ['NOT-A-SKU', false],
    ]);
  });

  it('adds a gift by hand, reserved at once; refuses an unknown master code, a bad quantity, a scanned order', async () => {
    const [order, scanned] = await makeOrders(api, seller.tenantId, catalogue, [
      {},
      { tracking: 'MYGIFT0001' },
    ]);
    await settle(api);
    const before = await reserved(catalogue.songket);
    const gift = (orderId: string, body: unknown) =>
      call('POST', `/api/orders/${orderId}/gifts`, seller.token, body);
    const answer = await data<OrderDetail>(
      gift(order!.orderId, { master_code_id: catalogue.songket, quantity: 3 }),
    );
    expect(answer.lines.at(-1)).toMatchObject({
      gift: true,
      unit_price: '0.00',
      quantity: 3,
      seller_sku: 'SONGKET-01',
      master_code: { code: 'SONGKET' },
      rack_locations: ['A-01'],
    });
    await settle(api);
    expect(await reserved(catalogue.songket)).toBe(before + 3);

    const length = await streamLength(order!.orderId);
    expect(await refusal(gift(order!.orderId, { master_code_id: randomUUID(), quantity: 1 }))).toMatchObject({
      status: 404,
      code: 582,
    });
    expect(
      await refusal(gift(order!.orderId, { master_code_id: catalogue.songket, quantity: 0 })),
    ).toMatchObject({ status: 400, code: 578 });
    expect(await streamLength(order!.orderId)).toBe(length);
    await handleOrderCommand(
      api.store,
      scanned!.orderId,
      { type: 'ScanOrder' },
      { tenantId: seller.tenantId, commandId: randomUUID(), occurredAt: new Date().toISOString() },
    );
    expect(
      await refusal(gift(scanned!.orderId, { master_code_id: catalogue.songket, quantity: 1 })),
    ).toMatchObject({ status: 409, code: 571 });
  });

  it("records a line's bin and serial numbers; refuses more than its units, one twice on the order, bad text", async () => {
    const [order] = await makeOrders(api, seller.tenantId, catalogue, [
      { lines: [line('BATIK-01', 2), line('SONGKET-01', 1)] },
    ]);
    const [batik, songket] = (await detail(order!.orderId)).lines;
    const answer = await data<OrderDetail>(
      record(order!.orderId, batik!.line_id, {
        bin_number: ' BIN-3 ',
        serial_numbers: ['SN-001', ' SN-002 '],
      }),
    );
    expect(answer.lines[0]).toMatchObject({ bin_number: 'BIN-3', serial_numbers: ['SN-001', 'SN-002'] });

    const length = await streamLength(order!.orderId);
    expect(
      await refusal(record(order!.orderId, batik!.line_id, { serial_numbers: ['A', 'B', 'C'] })),
    ).toMatchObject({ status: 400, code: 596 });
    const twice = await refusal(record(order!.orderId, songket!.line_id, { serial_numbers: ['SN-001'] }));
    expect(twice).toMatchObject({ status: 400, code: 597 });
    expect(twice.msg).toContain('SN-001');
    for (const bad of [
      { serial_numbers: [''] },
      { serial_numbers: 'SN-1' },
      { bin_number: 'x'.repeat(101) },
    ]) {
      expect((await refusal(record(order!.orderId, songket!.line_id, bad))).status).toBe(400);
    }
    const viewer = await createSubUser(api, seller.tenantId, ['orders-unscan']);
    expect(
      (await refusal(record(order!.orderId, songket!.line_id, { bin_number: 'B' }, viewer.token))).status,
    ).toBe(403);
    expect(await streamLength(order!.orderId)).toBe(length);

    await settle(api);
    expect(await boardLines(order!.orderId)).toEqual([
      { seller_sku: 'BATIK-01', gift: false, bin_number: 'BIN-3', serial_numbers: ['SN-001', 'SN-002'] },
      { seller_sku: 'SONGKET-01', gift: false, bin_number: null, serial_numbers: [] },
    ]);
  });

  it('prints each line with its rack, gift mark, bin and serial numbers, and the first and last name, on the packing list', async () => {
    const [order] = await makeOrders(api, seller.tenantId, catalogue, [
      { lines: [line('BATIK-01', 2), line('SONGKET-01', 1, { gift: true })] },
    ]);
    const [batik] = (await detail(order!.orderId)).lines;
    await data(
      record(order!.orderId, batik!.line_id, { bin_number: 'BIN-9', serial_numbers: ['SN-101', 'SN-102'] }),
    );
    const text = textLines(
      pdfOf(
        await print(api, seller.token, { document: 'PL', order_ids: [order!.orderId], origin: 'unscan' }),
      ),
    ).join('\n');
    for (const expected of ['Rack', 'B-07', 'A-01', 'Free gift', 'Bin: BIN-9', 'SN-101', 'SN-102']) {
      expect(text).toContain(expected);
    }
    expect(text).toContain('First name: Nur');
    expect(text).toContain('Last name: Aisyah');
  });

  it('shows gifts in pick list rows of their own, and the serial numbers recorded, as JSON and PDF', async () => {
    const [withGift, plain] = await makeOrders(api, seller.tenantId, catalogue, [
      { lines: [line('BATIK-01', 2), line('SONGKET-01', 1, { gift: true })] },
      { lines: [line('SONGKET-01', 2)] },
    ]);
    const [batik] = (await detail(withGift!.orderId)).lines;
    await data(record(withGift!.orderId, batik!.line_id, { serial_numbers: ['SN-201', 'SN-202'] }));
    await settle(api);
    const { batches } = await data<{ batches: BatchAnswer[] }>(
      call('POST', '/api/orders/batches', seller.token, { order_ids: [withGift!.orderId, plain!.orderId] }),
    );
    const batch = batches[0]!;
    type Row = { code: string | null; quantity: number; gift: boolean; serial_numbers: string[] };
    const pick = (filter: string) =>
      data<{ rows: Row[] }>(
        call('GET', `/api/orders/batches/${batch.id}/pick-list?filter=${filter}`, seller.token),
      );
    expect((await pick('item')).rows.map((row) => [row.code, row.quantity, row.gift])).toEqual([
      ['SONGKET', 1, true],
      ['SONGKET', 2, false],
      ['BATIK', 2, false],
    ]);
    expect((await pick('all')).rows.find((row) => row.code === 'BATIK')?.serial_numbers).toEqual([
      'SN-201',
      'SN-202',
    ]);
    const response = await call(
      'GET',
      `/api/orders/batches/${batch.id}/pick-list.pdf?filter=all`,
      seller.token,
    );
    expect(response.statusCode).toBe(200);
    const text = textLines(response.rawPayload).join('\n');
    for (const expected of ['Free gift', 'SN-201, SN-202', 'A-01', 'B-07']) expect(text).toContain(expected);
  });
});
