import { randomUUID } from 'node:crypto';
import { handleOrderCommand } from '@commands/orders/order';
import { stockStreamId } from '@domain/inventory/stock';
import type { TestApi } from '@tests/support/api';
import { bearer } from '@tests/support/api';
import { waitFor } from '@tests/support/wait';
import { expect } from 'vitest';
import { contentStreams } from './inventory/pdf';
import { importOrder, line, marketplaceOrder } from './orders-support';

/**
 * What the printing, returns and manifest tests share: orders with names in Chinese, Thai and Vietnamese, moved
 * along through the order's own commands (arrange shipment, ship), and the PDF answers of the print route.
 */

export const NAMES = {
  chinese: '蜡染纱笼 蓝色',
  thai: 'ผ้าบาติกสีฟ้า',
  vietnamese: 'Khăn lụa Việt Nam',
};

export async function arrange(api: TestApi, tenantId: string, orderId: string, trackingNumber: string) {
  await handleOrderCommand(
    api.store,
    orderId,
    { type: 'ArrangeShipment', trackingNumber, shippingProvider: 'SPX Express' },
    { tenantId, commandId: randomUUID(), occurredAt: new Date().toISOString() },
  );
}

export async function ship(api: TestApi, tenantId: string, orderId: string) {
  await handleOrderCommand(
    api.store,
    orderId,
    { type: 'ShipOrder', byMarketplace: false },
    { tenantId, commandId: randomUUID(), occurredAt: new Date().toISOString() },
  );
}

/**
 * Waits until the order stock reactor has shipped the order's stock of each master code (a StockShipped naming
 * the order as its source), so figures read next are the ones after shipping.
 */
export async function shippedStock(
  api: TestApi,
  tenantId: string,
  orderId: string,
  warehouseId: string,
  masterCodeIds: readonly string[],
) {
  for (const masterCodeId of masterCodeIds) {
    await waitFor(
      async () => {
        for await (const event of api.store.readStream(stockStreamId(tenantId, masterCodeId, warehouseId))) {
          const source = (event.data as { source?: { id: string } }).source;
          if (event.type === 'StockShipped' && source?.id === orderId) return true;
        }
        return false;
      },
      { what: `the shipped stock of ${masterCodeId} for order ${orderId}` },
    );
  }
}

/** An answer's data as the tests read it: JSON whose fields are reached without casts. */
// biome-ignore lint/suspicious/noExplicitAny: test answers are checked with toMatchObject, not typed
export type Loose = Record<string, any>;

/** A paid order of BATIK-01 ×2 (Chinese name), SONGKET-01 ×1 (Thai name) and a Vietnamese-named line, arranged. */
export async function printableOrder(
  api: TestApi,
  tenantId: string,
  warehouseId: string,
  trackingNumber: string,
  storeId = 'store-a',
) {
  const order = marketplaceOrder(
    [
      line('BATIK-01', 2, { name: NAMES.chinese, variation: '蓝色 / L', unitPrice: '25.50' }),
      line('SONGKET-01', 1, { name: NAMES.thai, unitPrice: '40.00' }),
      line('SONGKET-01', 3, { name: NAMES.vietnamese, unitPrice: '5.00' }),
    ],
    {
      totalAmount: '111.00',
      shippingFee: '4.00',
      buyerRemark: 'Please pack carefully',
      address: {
        name: '陈美玲',
        phone: '+60123456789',
        fullAddress: '12 Jalan Ampang, 50450 Kuala Lumpur',
        city: 'Kuala Lumpur',
        state: 'Wilayah Persekutuan',
        postalCode: '50450',
        country: 'MY',
      },
    },
  );
  const orderId = await importOrder(api, tenantId, warehouseId, order, storeId);
  await arrange(api, tenantId, orderId, trackingNumber);
  return { orderId, orderNumber: order.orderNumber, order };
}

/** POST /api/orders/print as `token`; the raw answer. */
export function print(
  api: TestApi,
  token: string,
  body: { document: string; order_ids: string[]; origin: string },
  language?: string,
) {
  return api.app.inject({
    method: 'POST',
    url: '/api/orders/print',
    headers: bearer(token, language),
    payload: body,
  });
}

/** The PDF of a successful print. */
export function pdfOf(response: {
  statusCode: number;
  body: string;
  headers: Record<string, unknown>;
  rawPayload: Buffer;
}) {
  expect(response.statusCode, response.statusCode === 200 ? '' : response.body).toBe(200);
  expect(response.headers['content-type']).toBe('application/pdf');
  return response.rawPayload;
}

/** Each image drawn on each page: the resource name and where (x, y from the top, width, height) in points. */
export function imagePlacements(pdf: Buffer) {
  return contentStreams(pdf).map((stream) => {
    const placements: { name: string; x: number; top: number; width: number; height: number }[] = [];
    const lines = stream.split('\n');
    lines.forEach((text, index) => {
      const draw = /^\/(\S+) Do$/.exec(text);
      if (!draw) return;
      const matrix = /^([-\d.]+) 0 0 ([-\d.]+) ([-\d.]+) ([-\d.]+) cm$/.exec(lines[index - 1] ?? '');
      if (!matrix) return;
      const [width, height, x, y] = matrix.slice(1).map(Number) as [number, number, number, number];
      // pdfkit works in a flipped page (origin top left): the matrix's height is negative, y the image's bottom.
      placements.push({ name: draw[1]!, x, top: y - Math.abs(height), width, height: Math.abs(height) });
    });
    return placements;
  });
}

/** The font sizes text is set in (`Tf`), over all pages. */
export const fontSizes = (pdf: Buffer) =>
  [
    ...new Set(
      contentStreams(pdf).flatMap((stream) => [...stream.matchAll(/ ([\d.]+) Tf/g)].map((m) => Number(m[1]))),
    ),
  ].sort((a, b) => a - b);
