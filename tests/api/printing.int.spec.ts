import { loadOrder } from '@commands/orders/order';
import { FULFILMENT_PROJECTION } from '@projections/print-log';
import {
  bearer,
  createSeller,
  createSubUser,
  createTestApi,
  type TestApi,
  type TestSeller,
} from '@tests/support/api';
import bwipjs from 'bwip-js/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { data, gridParams, refusal } from './inventory/inventory-api';
import { contentStreams, fontNames, imageCount, isPdf, pageCount, textLines } from './inventory/pdf';
import { importOrder, line, marketplaceOrder, seedCatalogue } from './orders-support';
import {
  fontSizes,
  imagePlacements,
  type Loose,
  NAMES,
  pdfOf,
  print,
  printableOrder,
} from './printing-support';

/**
 * Printing invoices, packing lists, check lists and delivery orders (api/orders/print.ts): what each PDF carries,
 * what the print settings change in it, the print log and the order's printed flags, the one-print limit of the
 * delivery order, and the refusals. Air waybills from the Shopee sandbox: printing-awb.int.spec.ts.
 */

describe('printing order documents', () => {
  let api: TestApi;
  let seller: TestSeller;
  let warehouseId: string;
  let first: { orderId: string; orderNumber: string };
  let second: { orderId: string; orderNumber: string };

  beforeAll(async () => {
    api = await createTestApi();
    seller = await createSeller(api, { name: 'Kedai Batik Sdn Bhd' });
    ({ warehouseId } = await seedCatalogue(api, seller.tenantId));
    await api.database.db
      .updateTable('warehouses')
      .set({ address: '8 Jalan Kilang, 46000 Petaling Jaya', phone: '+60378880000' })
      .where('id', '=', warehouseId)
      .execute();
    first = await printableOrder(api, seller.tenantId, warehouseId, 'SPXMY0000000001');
    second = await printableOrder(api, seller.tenantId, warehouseId, 'SPXMY0000000002');
  });
  afterAll(async () => {
    await api?.close();
  });

  const lines = (pdf: Buffer) => textLines(pdf).join('\n');

  it('prints an invoice with the order number, tracking number and barcode, lines in Chinese, Thai and Vietnamese, and totals', async () => {
    const pdf = pdfOf(
      await print(api, seller.token, { document: 'INV', order_ids: [first.orderId], origin: 'unscan' }),
    );
    expect(isPdf(pdf)).toBe(true);
    expect(pageCount(pdf)).toBe(1);
    const text = lines(pdf);
    expect(text).toContain('Invoice');
    expect(text).toContain(`Order no.: ${first.orderNumber}`);
    expect(text).toContain('Tracking no.: SPXMY0000000001');
    expect(text).toContain('Kedai Batik Sdn Bhd');
    for (const name of [NAMES.thai, NAMES.vietnamese]) expect(text).toContain(name);
    expect(text).toContain(`${NAMES.chinese} (蓝色 / L)`);
    expect(text).toContain('陈美玲');
    expect(text).toContain('BATIK-01');
    // 2 × 25.50 + 40.00 + 3 × 5.00 = 106.00; shipping 4.00; the order's total 111.00.
    expect(textLines(pdf)).toEqual(
      expect.arrayContaining(['Subtotal', '106.00', '4.00', 'Total (MYR)', '111.00']),
    );
    expect(text).toContain('Please pack carefully');
    expect(fontNames(pdf)).toEqual(['NotoSans-Regular', 'NotoSansSC-Regular', 'NotoSansThai-Regular']);
    // No logo uploaded: the one image drawn is the tracking number's Code 128, wide and short.
    const [images] = imagePlacements(pdf);
    expect(images).toHaveLength(1);
    expect(images![0]!.width).toBeGreaterThan(images![0]!.height * 3);
    expect(imageCount(pdf)).toBeGreaterThanOrEqual(1);
  });

  it('prints packing lists, check lists and delivery orders with their own content', async () => {
    const packing = lines(
      pdfOf(await print(api, seller.token, { document: 'PL', order_ids: [first.orderId], origin: 'unscan' })),
    );
    expect(packing).toContain('Packing list');
    expect(packing).toContain(first.orderNumber);
    expect(packing).toContain('SPXMY0000000001');
    expect(packing).toContain(NAMES.chinese);
    expect(packing).toContain('蓝色 / L');
    expect(packing).toContain('Total quantity: 6');
    expect(packing).not.toContain('Unit price');

    const checkPdf = pdfOf(
      await print(api, seller.token, { document: 'CL', order_ids: [first.orderId], origin: 'processed' }),
    );
    const check = lines(checkPdf);
    expect(check).toContain('Check list');
    expect(check).toContain(NAMES.thai);
    expect(check).toContain('Checked by: ________________________');
    // A checkbox per line for the packer: a square stroked beside each of the three lines.
    expect(countSquares(checkPdf)).toBe(3);

    const delivery = lines(
      pdfOf(
        await print(api, seller.token, { document: 'DO', order_ids: [first.orderId], origin: 'shipped' }),
      ),
    );
    expect(delivery).toContain('Delivery order');
    expect(delivery).toContain('Deliver from');
    expect(delivery).toContain('8 Jalan Kilang, 46000 Petaling Jaya');
    expect(delivery).toContain('Received by: ________________________');
    expect(delivery).toContain(NAMES.vietnamese);
  });

  it('prints many orders in one PDF, each on its own page, in the order asked for', async () => {
    const pdf = pdfOf(
      await print(api, seller.token, {
        document: 'PL',
        order_ids: [second.orderId, first.orderId],
        origin: 'unscan',
      }),
    );
    expect(pageCount(pdf)).toBe(2);
    const text = textLines(pdf);
    const at = (needle: string) => text.findIndex((entry) => entry.includes(needle));
    expect(at(second.orderNumber)).toBeGreaterThan(-1);
    expect(at(first.orderNumber)).toBeGreaterThan(at(second.orderNumber));
    expect(at('SPXMY0000000002')).toBeLessThan(at('SPXMY0000000001'));
  });

  it('labels documents in the caller’s language', async () => {
    const text = lines(
      pdfOf(
        await print(
          api,
          seller.token,
          { document: 'INV', order_ids: [first.orderId], origin: 'unscan' },
          'zh-cn',
        ),
      ),
    );
    expect(text).toContain('发票');
    expect(text).toContain(`订单号: ${first.orderNumber}`);
    const thai = lines(
      pdfOf(
        await print(
          api,
          seller.token,
          { document: 'DO', order_ids: [first.orderId], origin: 'unscan' },
          'th-th',
        ),
      ),
    );
    expect(thai).toContain('ใบส่งของ');
  });

  describe('print settings', () => {
    const settingsBody = (changes: Record<string, unknown> = {}) => ({
      company: {
        name: '峇迪布艺 Kedai Batik',
        address: 'Lot 5, Jalan Tun Razak, 50400 Kuala Lumpur',
        phone: '+60320000000',
        email: 'hello@batik.test',
        registration_no: '202401000123 (1234567-X)',
      },
      documents: {
        INV: { logo_position: 'top_left', address_display: 'both', font_size: 'medium' },
        PL: { logo_position: 'top_left', address_display: 'shipping', font_size: 'medium' },
        CL: { logo_position: 'hidden', address_display: 'shipping', font_size: 'medium' },
        DO: { logo_position: 'top_left', address_display: 'shipping', font_size: 'medium' },
        ...changes,
      },
    });
    const save = async (changes: Record<string, unknown> = {}) =>
      data(
        await api.app.inject({
          method: 'PUT',
          url: '/api/orders/print-settings',
          headers: bearer(seller.token),
          payload: settingsBody(changes),
        }),
      );
    const invoice = async () =>
      pdfOf(
        await print(api, seller.token, { document: 'INV', order_ids: [first.orderId], origin: 'unscan' }),
      );

    it('answers the defaults, then what the owner saves; company details print', async () => {
      const fresh = await createSeller(api, { name: 'Fresh Shop' });
      const defaults = data<Loose>(
        await api.app.inject({
          method: 'GET',
          url: '/api/orders/print-settings',
          headers: bearer(fresh.token),
        }),
      );
      expect(defaults).toMatchObject({
        saved: false,
        logo: null,
        company: { name: 'Fresh Shop', email: fresh.email, phone: '+60123456789' },
        documents: { INV: { logo_position: 'top_left', address_display: 'both', font_size: 'medium' } },
        options: {
          logo_positions: ['hidden', 'top_left', 'top_right', 'bottom_middle'],
          address_displays: ['billing', 'shipping', 'both'],
          font_sizes: ['small', 'medium', 'large'],
        },
      });
      const saved = await save();
      expect(saved).toMatchObject({ saved: true, company: { name: '峇迪布艺 Kedai Batik' } });
      const text = lines(await invoice());
      expect(text).toContain('峇迪布艺 Kedai Batik');
      expect(text).toContain('Registration no.: 202401000123 (1234567-X)');
    });

    it('shows the bill-to block, the ship-to block or both, as the address display says', async () => {
      await save({ INV: { logo_position: 'hidden', address_display: 'billing', font_size: 'medium' } });
      const billing = textLines(await invoice());
      expect(billing).toContain('Bill to');
      expect(billing).not.toContain('Ship to');
      await save({ INV: { logo_position: 'hidden', address_display: 'shipping', font_size: 'medium' } });
      const shipping = textLines(await invoice());
      expect(shipping).toContain('Ship to');
      expect(shipping).not.toContain('Bill to');
      await save({ INV: { logo_position: 'hidden', address_display: 'both', font_size: 'medium' } });
      const both = textLines(await invoice());
      expect(both).toEqual(expect.arrayContaining(['Bill to', 'Ship to']));
      expect(both.filter((entry) => entry === '陈美玲')).toHaveLength(2);
    });

    it('sets the text in the font size chosen', async () => {
      const sizes: Record<string, number[]> = {};
      for (const size of ['small', 'medium', 'large']) {
        await save({ INV: { logo_position: 'hidden', address_display: 'both', font_size: size } });
        sizes[size] = fontSizes(await invoice());
      }
      // The body text is 8, 10 or 12 points, the title 8 more.
      expect(sizes.small).toContain(8);
      expect(sizes.small).toContain(16);
      expect(sizes.medium).toContain(10);
      expect(sizes.medium).toContain(18);
      expect(sizes.large).toContain(12);
      expect(sizes.large).toContain(20);
      expect(sizes.small).not.toContain(20);
      expect(Math.max(...sizes.large!)).toBeGreaterThan(Math.max(...sizes.small!));
    });

    it('places the uploaded logo top left, top right or bottom middle of every page, or hides it', async () => {
      const logo = await bwipjs.toBuffer({ bcid: 'qrcode', text: 'KEDAI BATIK', scale: 4 });
      const uploaded = data<Loose>(
        await api.app.inject({
          method: 'PUT',
          url: '/api/orders/print-settings/logo',
          headers: { ...bearer(seller.token), 'content-type': 'image/png' },
          payload: logo,
        }),
      );
      expect(uploaded.logo).toEqual({ type: 'image/png', bytes: logo.length });
      const stored = await api.app.inject({
        method: 'GET',
        url: '/api/orders/print-settings/logo',
        headers: bearer(seller.token),
      });
      expect(stored.headers['content-type']).toBe('image/png');
      expect(stored.rawPayload.equals(logo)).toBe(true);

      const placementsFor = async (position: string) => {
        await save({ INV: { logo_position: position, address_display: 'both', font_size: 'medium' } });
        const pdf = await invoice();
        // The logo is the square image (the barcode is wide and short).
        return imagePlacements(pdf)
          .flat()
          .filter((image) => Math.abs(image.width - image.height) < 1);
      };
      const hidden = await placementsFor('hidden');
      expect(hidden).toEqual([]);
      const [topLeft] = await placementsFor('top_left');
      expect(topLeft).toMatchObject({ x: 36, top: 36 });
      const [topRight] = await placementsFor('top_right');
      expect(topRight!.x + topRight!.width).toBeCloseTo(595.28 - 36, 1);
      expect(topRight!.top).toBeCloseTo(36, 1);
      const [bottom] = await placementsFor('bottom_middle');
      expect(bottom!.x + bottom!.width / 2).toBeCloseTo(595.28 / 2, 1);
      expect(bottom!.top + bottom!.height).toBeCloseTo(841.89 - 36, 0);

      // Two orders, two pages: the logo at the bottom of each.
      const bulk = pdfOf(
        await print(api, seller.token, {
          document: 'INV',
          order_ids: [first.orderId, second.orderId],
          origin: 'unscan',
        }),
      );
      expect(
        imagePlacements(bulk).map(
          (page) => page.filter((image) => Math.abs(image.width - image.height) < 1).length,
        ),
      ).toEqual([1, 1]);

      const removed = data<Loose>(
        await api.app.inject({
          method: 'DELETE',
          url: '/api/orders/print-settings/logo',
          headers: bearer(seller.token),
        }),
      );
      expect(removed.logo).toBeNull();
      expect(await placementsFor('top_left')).toEqual([]);
    });

    it('refuses a logo that is not a PNG or JPEG, bad settings, and users without the key', async () => {
      const notImage = await api.app.inject({
        method: 'PUT',
        url: '/api/orders/print-settings/logo',
        headers: { ...bearer(seller.token), 'content-type': 'image/png' },
        payload: Buffer.from('GIF89a not really a png'),
      });
      expect(refusal(notImage)).toMatchObject({
        status: 400,
        code: 660,
        msg: 'The logo must be a PNG or JPEG image.',
      });
      const tooBig = await api.app.inject({
        method: 'PUT',
        url: '/api/orders/print-settings/logo',
        headers: { ...bearer(seller.token), 'content-type': 'image/png' },
        payload: Buffer.concat([
          Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
          Buffer.alloc(600 * 1024),
        ]),
      });
      expect(refusal(tooBig)).toMatchObject({ status: 400, code: 661 });
      const badPosition = await api.app.inject({
        method: 'PUT',
        url: '/api/orders/print-settings',
        headers: bearer(seller.token),
        payload: settingsBody({
          PL: { logo_position: 'centre', address_display: 'both', font_size: 'medium' },
        }),
      });
      expect(refusal(badPosition)).toMatchObject({ status: 400, code: 658 });
      const staff = await createSubUser(api, seller.tenantId, ['orders-unscan']);
      const refused = await api.app.inject({
        method: 'PUT',
        url: '/api/orders/print-settings',
        headers: bearer(staff.token),
        payload: settingsBody(),
      });
      expect(refused.statusCode).toBe(403);
      const allowed = await createSubUser(api, seller.tenantId, ['orders-customize-delivery-order']);
      data(
        await api.app.inject({
          method: 'PUT',
          url: '/api/orders/print-settings',
          headers: bearer(allowed.token),
          payload: settingsBody(),
        }),
      );
    });
  });

  it('marks the order printed and logs each print with its document, origin, who and when', async () => {
    const order = await printableOrder(api, seller.tenantId, warehouseId, 'SPXMY0000000099');
    const staff = await createSubUser(api, seller.tenantId, ['orders-unscan']);
    const before = Date.now();
    pdfOf(
      await print(api, staff.token, { document: 'PL', order_ids: [order.orderId], origin: 'smart_scan' }),
    );
    pdfOf(
      await print(api, seller.token, { document: 'INV', order_ids: [order.orderId], origin: 'processed' }),
    );
    expect((await loadOrder(api.store, seller.tenantId, order.orderId)).printed.sort()).toEqual([
      'INV',
      'PL',
    ]);

    await api.engine.catchUp(FULFILMENT_PROJECTION);
    const log = data<{ rows: Loose[]; lastRow: number }>(
      await api.app.inject({
        method: 'GET',
        url: `/api/orders/print-log?${gridParams({ order_id: order.orderId })}`,
        headers: bearer(seller.token),
      }),
    );
    expect(log.lastRow).toBe(2);
    expect(log.rows).toEqual([
      expect.objectContaining({
        document: 'INV',
        origin: 'processed',
        order_number: order.orderNumber,
        tracking_number: 'SPXMY0000000099',
        printed_by: { id: seller.userId, name: 'Siti Aminah' },
      }),
      expect.objectContaining({
        document: 'PL',
        origin: 'smart_scan',
        printed_by: { id: staff.userId, name: 'Staff' },
      }),
    ]);
    expect(new Date(log.rows[1]!.printed_at).getTime()).toBeGreaterThanOrEqual(before - 1000);

    const onlyPl = data<{ rows: Loose[] }>(
      await api.app.inject({
        method: 'GET',
        url: `/api/orders/print-log?${gridParams({
          search: 'SPXMY0000000099',
          filterModel: { document: { filterType: 'set', values: ['PL'] } },
        })}`,
        headers: bearer(seller.token),
      }),
    );
    expect(onlyPl.rows.map((row) => row.document)).toEqual(['PL']);
    // The log takes orders-view-all.
    const noKey = await api.app.inject({
      method: 'GET',
      url: '/api/orders/print-log',
      headers: bearer(staff.token),
    });
    expect(noKey.statusCode).toBe(403);
  });

  it('prints a delivery order once for a user under the one-print limit, and again for others', async () => {
    const order = await printableOrder(api, seller.tenantId, warehouseId, 'SPXMY0000000100');
    const limited = await createSubUser(api, seller.tenantId, ['orders-unscan', 'orders-do-one-print-limit']);
    const free = await createSubUser(api, seller.tenantId, ['orders-unscan']);
    const body = { document: 'DO', order_ids: [order.orderId], origin: 'unscan' };
    pdfOf(await print(api, limited.token, body));
    const again = await print(api, limited.token, body);
    expect(refusal(again)).toEqual({
      status: 403,
      code: 656,
      msg: `Delivery order already printed for ${order.orderNumber}: you may print it once only`,
    });
    // The limit is the user's: others print again, and the limited user still prints other documents.
    pdfOf(await print(api, free.token, body));
    pdfOf(await print(api, seller.token, body));
    pdfOf(await print(api, limited.token, { ...body, document: 'INV' }));
    // A fresh order printed by someone else first is refused to the limited user too.
    const other = await printableOrder(api, seller.tenantId, warehouseId, 'SPXMY0000000101');
    pdfOf(await print(api, free.token, { ...body, order_ids: [other.orderId] }));
    expect(refusal(await print(api, limited.token, { ...body, order_ids: [other.orderId] })).code).toBe(656);
    // Two prints racing: one PDF, one refusal, one mark.
    const raced = await printableOrder(api, seller.tenantId, warehouseId, 'SPXMY0000000102');
    const answers = await Promise.all([
      print(api, limited.token, { ...body, order_ids: [raced.orderId] }),
      print(api, limited.token, { ...body, order_ids: [raced.orderId] }),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 403]);
  });

  it('answers 404 for another account’s order and refuses bad requests and users without an order key', async () => {
    const other = await createSeller(api);
    const { warehouseId: otherWarehouse } = await seedCatalogue(api, other.tenantId);
    const theirs = await printableOrder(api, other.tenantId, otherWarehouse, 'SPXMY0000000200');
    const missing = await print(api, seller.token, {
      document: 'INV',
      order_ids: [theirs.orderId],
      origin: 'unscan',
    });
    const unknown = await print(api, seller.token, {
      document: 'INV',
      order_ids: ['00000000-0000-5000-8000-000000000000'],
      origin: 'unscan',
    });
    expect(refusal(missing)).toEqual(refusal(unknown));
    expect(missing.statusCode).toBe(404);
    // Nothing was marked on their order.
    expect((await loadOrder(api.store, other.tenantId, theirs.orderId)).printed).toEqual([]);

    expect(
      refusal(
        await print(api, seller.token, { document: 'XYZ', order_ids: [first.orderId], origin: 'unscan' }),
      ),
    ).toMatchObject({
      status: 400,
      code: 650,
    });
    expect(
      refusal(await print(api, seller.token, { document: 'INV', order_ids: [], origin: 'unscan' })),
    ).toMatchObject({
      status: 400,
      code: 651,
      msg: 'At least one order must be selected',
    });
    expect(
      refusal(
        await print(api, seller.token, { document: 'INV', order_ids: [first.orderId], origin: 'somewhere' }),
      ),
    ).toMatchObject({
      status: 400,
      code: 652,
    });
    const nobody = await createSubUser(api, seller.tenantId, ['inventory-rack']);
    expect(
      (await print(api, nobody.token, { document: 'INV', order_ids: [first.orderId], origin: 'unscan' }))
        .statusCode,
    ).toBe(403);
  });

  it('refuses an AWB without a tracking number, and one whose store is not connected', async () => {
    const { orderId } = await printableOrder(api, seller.tenantId, warehouseId, 'SPXMY0000000300');
    const connectedless = await print(api, seller.token, {
      document: 'AWB',
      order_ids: [orderId],
      origin: 'unscan',
    });
    expect(refusal(connectedless)).toEqual({
      status: 409,
      code: 678,
      msg: 'Failed Print Airway Bill: the store is not connected (SPXMY0000000300)',
    });
    expect((await loadOrder(api.store, seller.tenantId, orderId)).printed).toEqual([]);
    const order = marketplaceOrder([line('BATIK-01', 1)]);
    const untracked = await importOrder(api, seller.tenantId, warehouseId, order);
    expect(
      refusal(await print(api, seller.token, { document: 'AWB', order_ids: [untracked], origin: 'unscan' })),
    ).toEqual({
      status: 409,
      code: 657,
      msg: `Failed Print Airway Bill: no tracking number yet for ${order.orderNumber}`,
    });
  });
});

/** Squares stroked on the pages (`x y w h re` with w = h, then S): the check list's checkboxes. */
function countSquares(pdf: Buffer): number {
  let count = 0;
  for (const stream of contentStreams(pdf)) {
    for (const match of stream.matchAll(/([\d.]+) ([\d.]+) ([\d.]+) ([\d.]+) re\n(?:[\d.]+ w\n)?S/g)) {
      if (Math.abs(Number(match[3]) - Number(match[4])) < 0.01) count++;
    }
  }
  return count;
}
