import type { Database } from '@infra/db';
import {
  SHOPEE_LIMITS,
  type ShippingDocumentType,
  type ShopeeClient,
  ShopeeError,
  withPassingRetries,
} from '@integrations/shopee';
import { findStore, shopeeClientForStore } from '@integrations/stores';
import type { Kysely } from 'kysely';

/**
 * Air waybills come from the marketplace: the carrier's label with its routing codes is the marketplace's to make,
 * not ours. An `AwbSource` turns orders into the marketplace's shipping documents (PDF bytes); the print command
 * (commands/printing/print.ts) merges what it gets into one PDF (commands/printing/pdf-merge.ts) and records the
 * print.
 *
 * Shopee (`shopeeAwbSource`): per store, in batches of 50 (Shopee's limit), create_shipping_document with each
 * order's tracking number → get_shipping_document_result until every order is READY → download_shipping_document,
 * which answers one PDF for the batch; a call that fails in passing (a timeout, a 5xx) is tried again twice. Reaching a store's shop (its client and tokens) is the stores side's
 * (integrations/stores): the source asks `shopOf(tenantId, storeId)`.
 */

export interface AwbOrder {
  orderId: string;
  orderNumber: string;
  storeId: string;
  platform: string;
  trackingNumber: string;
}

export type AwbFailureKind =
  /** The marketplace refused or failed to make the documents of these tracking numbers. */
  | 'failed'
  /** The order's marketplace makes no documents through Kedai. */
  | 'unsupported'
  /** The store is not connected (no shop, no tokens). */
  | 'store_unavailable';

export class AwbError extends Error {
  override name = 'AwbError';
  constructor(
    readonly kind: AwbFailureKind,
    /** The tracking numbers the failure concerns. */
    readonly trackingNumbers: string[],
    readonly detail = '',
  ) {
    super(`${kind}: ${trackingNumbers.join(', ')}${detail ? ` (${detail})` : ''}`);
  }
}

export interface AwbSource {
  /** The shipping documents of `orders`, as PDFs (one or more, covering every order in the order given). */
  documents(tenantId: string, orders: readonly AwbOrder[]): Promise<Buffer[]>;
}

/** Sends each order to the source of its platform; a platform without one is "unsupported". */
export function awbSources(byPlatform: Partial<Record<string, AwbSource>>): AwbSource {
  return {
    async documents(tenantId, orders) {
      const unsupported = orders.filter((order) => !byPlatform[order.platform]);
      if (unsupported.length > 0) {
        throw new AwbError(
          'unsupported',
          unsupported.map((order) => order.trackingNumber),
        );
      }
      const pdfs: Buffer[] = [];
      // Runs of consecutive orders of one platform keep the documents in the order asked for.
      let start = 0;
      while (start < orders.length) {
        let end = start + 1;
        while (end < orders.length && orders[end]!.platform === orders[start]!.platform) end++;
        const source = byPlatform[orders[start]!.platform]!;
        pdfs.push(...(await source.documents(tenantId, orders.slice(start, end))));
        start = end;
      }
      return pdfs;
    },
  };
}

export interface ShopeeShop {
  client: ShopeeClient;
  shopId: number;
}

export interface ShopeeAwbOptions {
  /** The client and shop of a store of the tenant; null when the store is not connected. */
  shopOf(tenantId: string, storeId: string): Promise<ShopeeShop | null>;
  documentType?: ShippingDocumentType;
  /** Between two looks at get_shipping_document_result while documents are PROCESSING (default 500 ms). */
  pollIntervalMs?: number;
  /** Looks before giving up (default 20). */
  maxPolls?: number;
  wait?: (ms: number) => Promise<void>;
}

/** Tries of one Shopee call that fails in passing (a timeout, a 5xx, the rate limit). */
const CALL_ATTEMPTS = 3;

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function shopeeAwbSource(options: ShopeeAwbOptions): AwbSource {
  const documentType = options.documentType ?? 'THERMAL_AIR_WAYBILL';
  const interval = options.pollIntervalMs ?? 500;
  const maxPolls = options.maxPolls ?? 20;
  const wait = options.wait ?? pause;

  const patiently = <T>(call: () => Promise<T>) =>
    withPassingRetries(call, { attempts: CALL_ATTEMPTS, backoffMs: interval, wait });

  async function batch(shop: ShopeeShop, orders: readonly AwbOrder[]): Promise<Buffer> {
    const trackingOf = new Map(orders.map((order) => [order.orderNumber, order.trackingNumber]));
    const failed = (sns: Iterable<string>, detail: string) =>
      new AwbError(
        'failed',
        [...sns].map((sn) => trackingOf.get(sn) ?? sn),
        detail,
      );
    try {
      const created = await patiently(() =>
        shop.client.createShippingDocument(shop.shopId, {
          order_list: orders.map((order) => ({
            order_sn: order.orderNumber,
            tracking_number: order.trackingNumber,
            shipping_document_type: documentType,
          })),
        }),
      );
      const refused = created.result_list.filter((entry) => entry.fail_error);
      if (refused.length > 0) {
        throw failed(
          refused.map((entry) => entry.order_sn),
          refused.map((entry) => entry.fail_message ?? entry.fail_error).join('; '),
        );
      }
      const list = orders.map((order) => ({ order_sn: order.orderNumber }));
      for (let poll = 1; ; poll++) {
        const result = await patiently(() =>
          shop.client.getShippingDocumentResult(shop.shopId, {
            order_list: list.map((entry) => ({ ...entry, shipping_document_type: documentType })),
          }),
        );
        const failures = result.result_list.filter((entry) => entry.status === 'FAILED');
        if (failures.length > 0) {
          throw failed(
            failures.map((entry) => entry.order_sn),
            failures.map((entry) => entry.fail_message ?? entry.fail_error ?? 'FAILED').join('; '),
          );
        }
        const waiting = result.result_list.filter((entry) => entry.status !== 'READY');
        if (waiting.length === 0) break;
        if (poll >= maxPolls) {
          throw failed(
            waiting.map((entry) => entry.order_sn),
            'not ready in time',
          );
        }
        await wait(interval);
      }
      return await patiently(() =>
        shop.client.downloadShippingDocument(shop.shopId, {
          shipping_document_type: documentType,
          order_list: list,
        }),
      );
    } catch (error) {
      if (error instanceof AwbError) throw error;
      if (error instanceof ShopeeError) throw failed(trackingOf.keys(), error.message);
      throw error;
    }
  }

  return {
    async documents(tenantId, orders) {
      const pdfs: Buffer[] = [];
      // Consecutive orders of one store share a batch (up to Shopee's limit), so the pages keep the asked order.
      let start = 0;
      while (start < orders.length) {
        const storeId = orders[start]!.storeId;
        let end = start + 1;
        while (
          end < orders.length &&
          orders[end]!.storeId === storeId &&
          end - start < SHOPEE_LIMITS.shippingDocumentBatch
        ) {
          end++;
        }
        const chunk = orders.slice(start, end);
        const shop = await options.shopOf(tenantId, storeId);
        if (!shop) {
          throw new AwbError(
            'store_unavailable',
            chunk.map((order) => order.trackingNumber),
          );
        }
        pdfs.push(await batch(shop, chunk));
        start = end;
      }
      return pdfs;
    },
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The AWB source of the connected stores (integrations/stores): a Shopee store's client with its own tokens, from
 * this process's Shopee connection. A store that is missing, disconnected or of another platform has no shop.
 */
export function storesAwbSource(db: Kysely<Database>, options: Partial<ShopeeAwbOptions> = {}): AwbSource {
  return awbSources({
    shopee: shopeeAwbSource({
      ...options,
      async shopOf(tenantId, storeId) {
        if (!UUID.test(storeId)) return null;
        const store = await findStore(db, tenantId, storeId);
        if (store?.platform !== 'shopee' || store.status === 'disconnected') return null;
        return { client: shopeeClientForStore(db, store), shopId: store.shopId };
      },
    }),
  });
}
