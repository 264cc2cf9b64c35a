import { randomUUID } from 'node:crypto';
import type { ManifestInvoice } from '@api/contracts/manifests';
import { handleOrderCommand } from '@commands/orders/order';
import type { MarketplaceOrderLine } from '@domain/orders/marketplace-order';
import { FULFILMENT_PROJECTION } from '@projections/print-log';
import {
  bearer,
  createSeller,
  createSubUser,
  createTestApi,
  type TestApi,
  type TestSeller,
} from '@tests/support/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { data, refusal } from './inventory/inventory-api';
import { type Catalogue, importOrder, line, marketplaceOrder, seedCatalogue, settle } from './orders-support';

/**
 * The manifest invoice (api/orders/manifests.ts; spec §2 /orders/manifest-invoice): a month's shipped parcels per
 * carrier with units, weight from the master codes and the postage the marketplace charged, totals, and a CSV of
 * the parcels; an unknown weight or postage is counted apart, never as zero. Needs orders-manifest-export-v1.
 */
describe('manifest invoice', () => {
  let api: TestApi;
  let seller: TestSeller;
  let catalogue: Catalogue;

  /** An order of `lines` shipped by `provider` at `at`, with the marketplace's `fee` when given. */
  async function shipped(
    at: string,
    provider: string,
    lines: MarketplaceOrderLine[],
    fee?: string,
    tenant = seller,
    warehouseId = catalogue.warehouseId,
  ) {
    const order = marketplaceOrder(lines, fee ? { shippingFee: fee } : {});
    const orderId = await importOrder(api, tenant.tenantId, warehouseId, order);
    const context = () => ({ tenantId: tenant.tenantId, commandId: randomUUID(), occurredAt: at });
    await handleOrderCommand(
      api.store,
      orderId,
      {
        type: 'ArrangeShipment',
        trackingNumber: `TRK${randomUUID().slice(0, 8)}`,
        shippingProvider: provider,
      },
      context(),
    );
    await handleOrderCommand(api.store, orderId, { type: 'ShipOrder', byMarketplace: false }, context());
    return order.orderNumber;
  }

  const invoice = (month: string, token = seller.token, language?: string) =>
    api.app.inject({
      method: 'GET',
      url: `/api/orders/manifest-invoice?month=${encodeURIComponent(month)}`,
      headers: bearer(token, language),
    });

  let numbers: string[];

  beforeAll(async () => {
    api = await createTestApi();
    seller = await createSeller(api, { country: 'MY' });
    catalogue = await seedCatalogue(api, seller.tenantId);
    // Batik weighs 0.5 kg; songket has no weight set.
    await api.database.db
      .updateTable('master_codes')
      .set({ weight_kg: '0.5' })
      .where('id', '=', catalogue.batik)
      .execute();
    numbers = [
      await shipped('2026-03-05T02:00:00.000Z', 'SPX Express', [line('BATIK-01', 2)], '4.50'),
      await shipped('2026-03-06T02:00:00.000Z', 'SPX Express', [line('BATIK-01', 1)], '3.20'),
      await shipped('2026-03-07T02:00:00.000Z', 'J&T Express', [line('BATIK-01', 1), line('SONGKET-01', 1)]),
    ];
    // April in Kuala Lumpur: not March's.
    await shipped('2026-03-31T17:00:00.000Z', 'SPX Express', [line('BATIK-01', 1)], '9.99');
    // Another account's March parcel.
    const other = await createSeller(api);
    const otherCatalogue = await seedCatalogue(api, other.tenantId);
    await shipped(
      '2026-03-08T02:00:00.000Z',
      'SPX Express',
      [line('BATIK-01', 1)],
      '1.00',
      other,
      otherCatalogue.warehouseId,
    );
    await settle(api);
    await api.engine.catchUp(FULFILMENT_PROJECTION);
  });
  afterAll(async () => {
    await api?.close();
  });

  it('adds up a month’s parcels per carrier: units, weight and postage, unknowns apart', async () => {
    const answer = data<ManifestInvoice>(await invoice('2026-03'));
    expect(answer).toEqual({
      month: '2026-03',
      manifest: null,
      carriers: [
        {
          provider: 'SPX Express',
          parcels: 2,
          units: 3,
          weight_kg: '1.500',
          unweighed_parcels: 0,
          postage: [{ currency: 'MYR', amount: '7.70' }],
          unpriced_parcels: 0,
        },
        {
          provider: 'J&T Express',
          parcels: 1,
          units: 2,
          weight_kg: '0.000',
          unweighed_parcels: 1,
          postage: [],
          unpriced_parcels: 1,
        },
      ],
      totals: {
        provider: '',
        parcels: 3,
        units: 5,
        weight_kg: '1.500',
        unweighed_parcels: 1,
        postage: [{ currency: 'MYR', amount: '7.70' }],
        unpriced_parcels: 1,
      },
    });
    expect(data<ManifestInvoice>(await invoice('2026-02')).carriers).toEqual([]);

    // Once the month's carrier manifest is created, the invoice names it.
    const created = await api.app.inject({
      method: 'POST',
      url: '/api/orders/carrier-manifests',
      headers: bearer(seller.token),
      payload: { month: '2026-03' },
    });
    const manifest = data<{ id: string }>(created);
    expect(data<ManifestInvoice>(await invoice('2026-03')).manifest).toMatchObject({ id: manifest.id });
  });

  it('exports the parcels as CSV in the caller’s language, unknowns left empty', async () => {
    const response = await api.app.inject({
      method: 'GET',
      url: '/api/orders/manifest-invoice/export?month=2026-03',
      headers: bearer(seller.token),
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toContain('manifest-invoice-2026-03.csv');
    const rows = response.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/);
    expect(rows[0]).toBe(
      'Carrier,Order number,Tracking number,Shipped at,Units,Weight (kg),Currency,Postage',
    );
    expect(rows).toHaveLength(4);
    const byNumber = (number: string) => rows.find((row) => row.includes(number))!.split(',');
    expect(byNumber(numbers[0]!)).toEqual([
      'SPX Express',
      numbers[0],
      expect.any(String),
      '2026-03-05 10:00:00',
      '2',
      '1.000',
      'MYR',
      '4.50',
    ]);
    const jnt = byNumber(numbers[2]!);
    expect([jnt[0], jnt[4], jnt[5], jnt[7]]).toEqual(['J&T Express', '2', '', '']);

    const chinese = await api.app.inject({
      method: 'GET',
      url: '/api/orders/manifest-invoice/export?month=2026-03',
      headers: bearer(seller.token, 'zh-cn'),
    });
    expect(chinese.body.replace(/^\uFEFF/, '').split(/\r?\n/)[0]).toContain('承运商');
  });

  it('refuses a malformed or future month, and callers without the manifest key', async () => {
    expect(await refusal(await invoice('March'))).toEqual({
      status: 400,
      code: 675,
      msg: 'The month must be written YYYY-MM',
    });
    const missing = await api.app.inject({
      method: 'GET',
      url: '/api/orders/manifest-invoice',
      headers: bearer(seller.token),
    });
    expect(await refusal(missing)).toMatchObject({ status: 400, code: 675 });
    expect(await refusal(await invoice('2999-01'))).toEqual({
      status: 400,
      code: 676,
      msg: 'The month 2999-01 has not started yet',
    });
    const packer = await createSubUser(api, seller.tenantId, ['orders-unscan']);
    expect((await invoice('2026-03', packer.token)).statusCode).toBe(403);
    const clerk = await createSubUser(api, seller.tenantId, ['orders-manifest-export-v1']);
    expect(data<ManifestInvoice>(await invoice('2026-03', clerk.token)).totals.parcels).toBe(3);
  });
});
