import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SHOPEE_LIMITS, SHOPEE_PATHS, type ShopeeOrder, type ShopeeOrderStatus } from '../schemas';
import { shopeeSign, signMatches, timestampFresh } from '../signing';
import { authorizePage } from './authorize-page';
import { type SandboxClock, systemClock } from './clock';
import { MINUTE, PRODUCT_IMAGE, type SandboxSku } from './generator';
import { forceStatus } from './lifecycle';
import { addOnDealRoutes, addOnDealsOf } from './routes/add-on-deals';
import { authRoutes } from './routes/auth';
import { categoryRoutes } from './routes/categories';
import { Refusal, type Route, wrongParameters } from './routes/common';
import { discountRoutes, discountsOf } from './routes/discounts';
import { logisticsRoutes } from './routes/logistics';
import { orderRoutes } from './routes/orders';
import { productRoutes, type StoredImage } from './routes/products';
import {
  memoryStore,
  type SandboxAddOnDeal,
  type SandboxDiscount,
  type SandboxOrder,
  type SandboxShop,
  type SandboxStore,
} from './state';
import { newToken, SandboxWorld } from './world';

/**
 * A local Shopee Open Platform v2 of ours, for tests and for `npm start`. It speaks the protocol of the calls in
 * schemas.ts, and checks what Shopee checks: every request's `sign` (HMAC-SHA256 with the partner's key) and its
 * timestamp (5 minutes either way), the partner, the access token (4 hours, then `invalid_acceess_token`), the
 * refresh token (30 days, good once: a refresh hands out a new one), the authorisation code (10 minutes, once).
 * It holds shops and their orders, makes new orders at a rate, and moves them along over time (see generator.ts
 * and lifecycle.ts). Time is the sandbox clock's, so tests move it instead of sleeping.
 *
 * Paths of its own, beside Shopee's: the authorisation page's form posts to /sandbox/authorize,
 * /sandbox/health answers when it is up, /sandbox/file/<image_id> serves uploaded images (and its own items'
 * picture), and the test controls (for tests that run the sandbox in another process; in-process tests call the
 * same methods):
 * - `POST /sandbox/control/fail` with a SandboxFailure as JSON, e.g.
 *   `{"kind":"error","path":"/api/v2/product/update_stock","error":"error_system_busy","status":500,"times":2}` or
 *   `{"kind":"lag","path":"/api/v2/product/update_stock","delayMs":3000}`: the next matching calls fail or lag;
 * - `POST /sandbox/control/reset`: no pending failures or lags;
 * - `POST /sandbox/control/throttle` with `{"burst":5,"perSecond":1}` (or `{"off":true}`): the per-shop limit;
 * - `GET /sandbox/control/stock?shop_id=…&item_id=…&model_id=…` (model_id 0 or absent for an item without
 *   models): `{ item_id, model_id, model_sku, stock, price, item_status }`;
 * - `GET /sandbox/control/discount?shop_id=…&discount_id=…`: the discount, its status and items;
 * - `GET /sandbox/control/add-on-deal?shop_id=…&add_on_deal_id=…`: the add-on deal, its status and items.
 * Each shop's calls also draw on a token bucket (`shopRateLimit`): past it, HTTP 429 `error_too_many_request`
 * with a Retry-After, as Shopee throttles a burst.
 */

export interface SandboxPartner {
  partnerId: number;
  partnerKey: string;
  /** Shown on the authorisation page ("Authorize <shop> for <name>"). */
  name?: string;
}

export type SandboxFailureKind = 'signature' | 'expired' | '5xx' | 'timeout' | 'rate_limit' | 'error' | 'lag';

export interface SandboxFailure {
  /** `error`: Shopee's answer with the given `error`, `message` and HTTP `status`; `lag`: answered after `delayMs`. */
  kind: SandboxFailureKind;
  /** How many of the next matching calls fail (default 1). */
  times?: number;
  /** Only calls to this API path (default: any). `expired` only ever hits shop calls. */
  path?: string;
  /** `error`: Shopee's code (default error_server), message, HTTP status (default 500). */
  error?: string;
  message?: string;
  status?: number;
  /** `lag`: real milliseconds before the call is handled (default 1000). */
  delayMs?: number;
}

/** A shop's token bucket: `burst` calls at once, refilled at `perSecond` (real time). */
export interface SandboxRateLimit {
  burst: number;
  perSecond: number;
}

/** Generous: a seller's normal traffic, stock pushes included, never meets it; a runaway loop does. */
export const DEFAULT_SHOP_RATE_LIMIT: SandboxRateLimit = { burst: 1000, perSecond: 1000 };

/** A model's (or an item's without models) stock and price as the sandbox holds them. */
export interface SandboxStock {
  item_id: number;
  model_id: number;
  model_sku: string;
  stock: number;
  price: number;
  item_status: string;
}

export interface ShopeeSandboxOptions {
  /** Default 0: any free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  partners: readonly SandboxPartner[];
  /** Shops made on a first start (an empty store). Default: one, "Kedai Demo Store". */
  shops?: readonly { name: string; skus?: readonly (string | SandboxSku)[] }[];
  /** Where shops, tokens and orders are kept between runs (jsonFileStore(dir)); default in memory. */
  store?: SandboxStore;
  /** New orders per hour of the sandbox clock, per shop (default 0: only generateOrders makes orders). */
  orderRate?: number;
  /** The seller's SKUs the generator sells (default DEFAULT_SKUS). */
  skus?: readonly (string | SandboxSku)[];
  /** Same seed, same shops and orders. */
  seed?: number | string;
  clock?: SandboxClock;
  /** Milliseconds (real time) between background ticks; 0 turns them off (default 1000). */
  tickIntervalMs?: number;
  /** Sandbox time from create_shipping_document until the document is READY (default 0). */
  documentDelayMs?: number;
  /** Calls per partner per sandbox minute before `error_too_many_request` (default: no limit). */
  rateLimitPerMinute?: number;
  /** Each shop's token bucket (default DEFAULT_SHOP_RATE_LIMIT; false: none). */
  shopRateLimit?: SandboxRateLimit | false;
  /** After a restart, the most orders made up for the time the sandbox was not running (default 200). */
  maxBacklog?: number;
  /** Real milliseconds a `timeout` failure holds the request before dropping it (default 60 000). */
  timeoutHoldMs?: number;
  /** The address clients use, when it is not http://host:port. */
  publicUrl?: string;
  /** Told of every stock update_stock sets, as it sets it (a benchmark's clock of acknowledgements). */
  onStockSet?: (change: { shopId: number; itemId: number; modelId: number; stock: number }) => void;
  log?: (line: string) => void;
}

export interface SandboxShopInfo {
  shopId: number;
  name: string;
  region: string;
  orderCount: number;
  authorizedPartners: number[];
}

export interface SandboxRequestRecord {
  /** Sandbox clock, ms. */
  at: number;
  method: string;
  path: string;
  partnerId?: number;
  shopId?: number;
  status: number;
  /** Shopee's `error` ('' on success). */
  error: string;
}

export interface ShopeeSandbox {
  readonly url: string;
  readonly clock: SandboxClock;
  readonly partners: readonly SandboxPartner[];
  readonly shops: SandboxShopInfo[];
  /** The latest calls (up to 1000), oldest first. */
  readonly requests: readonly SandboxRequestRecord[];
  createShop(input?: { name?: string; skus?: readonly (string | SandboxSku)[] }): SandboxShopInfo;
  /** `count` new orders now (default: the first shop), as get_order_detail would show them in full. */
  generateOrders(count: number, options?: { shopId?: number }): ShopeeOrder[];
  orders(shopId?: number): ShopeeOrder[];
  order(orderSn: string): ShopeeOrder | undefined;
  setOrderStatus(orderSn: string, status: ShopeeOrderStatus, reason?: string): ShopeeOrder;
  /** Shopee's detail of the order lists no items from now on, as it rarely does: an order Kedai cannot take. */
  dropOrderItems(orderSn: string): ShopeeOrder;
  /** What pressing Authorize does: the shop authorises the partner; returns the code the redirect would carry. */
  authorize(partnerId: number, shopId: number): string;
  /** A token pair for the shop, as auth/token/get would give it (expiresAt in sandbox ms). */
  issueTokens(
    partnerId: number,
    shopId: number,
  ): { accessToken: string; refreshToken: string; expiresAt: number };
  /** Makes the next matching calls fail as Shopee sometimes does (or lag). */
  failNext(failure: SandboxFailure): void;
  /** Drops the failures and lags not yet used. */
  resetFailures(): void;
  /** Changes each shop's token bucket (false: no limit). */
  setShopRateLimit(limit: SandboxRateLimit | false): void;
  /** A model's stock and price (model 0: an item without models); undefined when there is no such model. */
  stockOf(shopId: number, itemId: number, modelId?: number): SandboxStock | undefined;
  /** A discount as the sandbox holds it (deleted ones too). */
  discountOf(shopId: number, discountId: number): SandboxDiscount | undefined;
  /** An add-on deal as the sandbox holds it (deleted ones too). */
  addOnDealOf(shopId: number, addOnDealId: number): SandboxAddOnDeal | undefined;
  /** Makes the orders due by now and applies due status changes (done before every call too); returns changes. */
  tick(): number;
  /** Writes the store now. */
  flush(): Promise<void>;
  stop(): Promise<void>;
}

export async function startShopeeSandbox(options: ShopeeSandboxOptions): Promise<ShopeeSandbox> {
  if (options.partners.length === 0) throw new RangeError('startShopeeSandbox: at least one partner');
  const clock = options.clock ?? systemClock;
  const store = options.store ?? memoryStore();
  const seed = options.seed ?? 'kedai';
  const timeoutHoldMs = options.timeoutHoldMs ?? 60_000;
  const log = options.log ?? (() => {});
  const partners = new Map(options.partners.map((partner) => [partner.partnerId, partner]));
  const world = await SandboxWorld.open({
    clock,
    store,
    seed,
    orderRate: options.orderRate ?? 0,
    maxBacklog: options.maxBacklog ?? 200,
    skus: options.skus,
    log,
  });
  const images = new Map<string, StoredImage>();
  let shopRateLimit = options.shopRateLimit ?? DEFAULT_SHOP_RATE_LIMIT;
  const buckets = new Map<number, { tokens: number; at: number }>();
  /** Where the sandbox answers (known once it listens): uploaded images' URLs start with it. */
  let baseUrl = '';
  const routes = new Map<string, Route>([
    ...authRoutes(world),
    ...orderRoutes(world),
    ...logisticsRoutes(world, { seed, documentDelayMs: options.documentDelayMs ?? 0 }),
    ...productRoutes(world, {
      baseUrl: () => baseUrl,
      images,
      ...(options.onStockSet ? { onStockSet: options.onStockSet } : {}),
    }),
    ...categoryRoutes(),
    ...discountRoutes(world),
    ...addOnDealRoutes(world),
  ]);
  const failures: (SandboxFailure & { times: number })[] = [];
  const requestLog: SandboxRequestRecord[] = [];
  const callsPerMinute = new Map<number, { minute: number; count: number }>();
  /** Signs the authorisation page's forms, so only a page the sandbox served can authorise a shop. */
  const pageSecret = randomBytes(32);
  const holds = new Set<NodeJS.Timeout>();

  // ---- answering ----

  const record = (entry: Omit<SandboxRequestRecord, 'at'>) => {
    requestLog.push({ at: clock.now(), ...entry });
    if (requestLog.length > 1000) requestLog.splice(0, requestLog.length - 1000);
  };
  const sendJson = (
    res: ServerResponse,
    status: number,
    body: unknown,
    headers: Record<string, string> = {},
  ) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };
  const refuse = (res: ServerResponse, refusal: Refusal, headers: Record<string, string> = {}) =>
    sendJson(
      res,
      refusal.status,
      { request_id: newToken(), error: refusal.error, message: refusal.message },
      headers,
    );

  const readBody = (req: IncomingMessage): Promise<Buffer> =>
    new Promise((resolve, reject) => {
      let size = 0;
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > 1_000_000) {
          reject(new Refusal(413, 'error_param', 'The request body is too large.'));
          req.destroy();
        } else chunks.push(chunk);
      });
      req.on('end', () => resolve(Buffer.concat(chunks)));
      req.on('error', reject);
    });

  const intParam = (url: URL, name: string) => {
    const value = url.searchParams.get(name);
    return value !== null && /^\d+$/.test(value) ? Number(value) : undefined;
  };

  // ---- checking a call ----

  /** The partner, after the timestamp window and the signature; for shop calls, the shop of the access token. */
  const authenticate = (url: URL, path: string, level: 'public' | 'shop', now: number) => {
    const partnerId = intParam(url, 'partner_id');
    const partner = partnerId === undefined ? undefined : partners.get(partnerId);
    if (!partner) throw new Refusal(403, 'error_param', 'Invalid partner_id.');
    const timestamp = intParam(url, 'timestamp');
    if (timestamp === undefined || !timestampFresh(timestamp, Math.floor(now / 1000)))
      throw new Refusal(403, 'error_param', 'Invalid timestamp.');
    const sign = url.searchParams.get('sign') ?? '';
    if (level === 'public') {
      if (
        !signMatches(sign, shopeeSign(partner.partnerKey, { partnerId: partner.partnerId, path, timestamp }))
      )
        throw new Refusal(403, 'error_sign', 'Wrong sign.');
      return { partner, shop: undefined };
    }
    const accessToken = url.searchParams.get('access_token');
    const shopId = intParam(url, 'shop_id');
    if (!accessToken || shopId === undefined) throw wrongParameters('access_token and shop_id are required.');
    const expected = shopeeSign(partner.partnerKey, {
      partnerId: partner.partnerId,
      path,
      timestamp,
      accessToken,
      shopId,
    });
    if (!signMatches(sign, expected)) throw new Refusal(403, 'error_sign', 'Wrong sign.');
    const grant = world.accessTokens.get(accessToken);
    const shop = world.shops.get(shopId);
    if (
      !grant ||
      grant.expires_at <= now ||
      grant.partner_id !== partner.partnerId ||
      grant.shop_id !== shopId ||
      !shop
    )
      throw new Refusal(403, 'invalid_acceess_token', 'Invalid access_token.');
    if (!world.isAuthorized(partner.partnerId, shopId))
      throw new Refusal(403, 'error_auth', 'The shop has not authorized the partner.');
    return { partner, shop };
  };

  const takeFailure = (path: string, level: 'public' | 'shop') => {
    const index = failures.findIndex(
      (failure) =>
        (!failure.path || failure.path === path) && (failure.kind !== 'expired' || level === 'shop'),
    );
    if (index === -1) return undefined;
    const failure = failures[index]!;
    failure.times--;
    if (failure.times <= 0) failures.splice(index, 1);
    return failure;
  };

  /** Takes one of the shop's tokens; the seconds until one is back when there is none. */
  const throttled = (shopId: number): number | undefined => {
    if (!shopRateLimit) return undefined;
    const { burst, perSecond } = shopRateLimit;
    const now = performance.now();
    const bucket = buckets.get(shopId) ?? { tokens: burst, at: now };
    bucket.tokens = Math.min(burst, bucket.tokens + ((now - bucket.at) / 1000) * perSecond);
    bucket.at = now;
    buckets.set(shopId, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return undefined;
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / perSecond));
  };

  const stockOf = (shopId: number, itemId: number, modelId = 0): SandboxStock | undefined => {
    const shop = world.shops.get(shopId);
    const found = shop && world.findModel(shop, itemId, modelId);
    if (!found) return undefined;
    const { item, holder } = found;
    return {
      item_id: item.item_id,
      model_id: modelId,
      model_sku: 'model_sku' in holder ? holder.model_sku : item.item_sku,
      stock: holder.stock,
      price: holder.price,
      item_status: item.item_status,
    };
  };

  // ---- test controls ----

  const control = async (req: IncomingMessage, res: ServerResponse, path: string, method: string) => {
    const json = async () => {
      const text = (await readBody(req)).toString('utf8');
      try {
        return (text === '' ? {} : JSON.parse(text)) as Record<string, unknown>;
      } catch {
        throw wrongParameters('the body is not JSON.');
      }
    };
    if (path === '/sandbox/control/fail' && method === 'POST') {
      const failure = (await json()) as unknown as SandboxFailure;
      const kinds: SandboxFailureKind[] = [
        'signature',
        'expired',
        '5xx',
        'timeout',
        'rate_limit',
        'error',
        'lag',
      ];
      if (!kinds.includes(failure.kind)) throw wrongParameters(`kind must be one of ${kinds.join(', ')}.`);
      failures.push({ ...failure, times: failure.times ?? 1 });
      return sendJson(res, 200, { ok: true, pending: failures.length });
    }
    if (path === '/sandbox/control/reset' && method === 'POST') {
      failures.length = 0;
      return sendJson(res, 200, { ok: true });
    }
    if (path === '/sandbox/control/throttle' && method === 'POST') {
      const body = await json();
      const burst = Number(body.burst);
      const perSecond = Number(body.perSecond);
      if (body.off === true) shopRateLimit = false;
      else if (burst >= 1 && perSecond > 0) shopRateLimit = { burst, perSecond };
      else throw wrongParameters('burst (≥ 1) and perSecond (> 0), or off: true.');
      buckets.clear();
      return sendJson(res, 200, { ok: true, limit: shopRateLimit });
    }
    if (path === '/sandbox/control/stock' && method === 'GET') {
      const query = new URL(req.url ?? '/', 'http://sandbox').searchParams;
      const stock = stockOf(
        Number(query.get('shop_id')),
        Number(query.get('item_id')),
        Number(query.get('model_id') ?? 0),
      );
      if (!stock) throw new Refusal(404, 'error_item_not_found', 'No such item or model.');
      return sendJson(res, 200, stock);
    }
    if (path === '/sandbox/control/discount' && method === 'GET') {
      const query = new URL(req.url ?? '/', 'http://sandbox').searchParams;
      const shop = world.shops.get(Number(query.get('shop_id')));
      const discount =
        shop &&
        discountsOf(shop).find((candidate) => candidate.discount_id === Number(query.get('discount_id')));
      if (!discount) throw new Refusal(404, 'common.error_not_found', 'No such discount.');
      return sendJson(res, 200, discount);
    }
    if (path === '/sandbox/control/add-on-deal' && method === 'GET') {
      const query = new URL(req.url ?? '/', 'http://sandbox').searchParams;
      const shop = world.shops.get(Number(query.get('shop_id')));
      const deal =
        shop &&
        addOnDealsOf(shop).find(
          (candidate) => candidate.add_on_deal_id === Number(query.get('add_on_deal_id')),
        );
      if (!deal) throw new Refusal(404, 'add_on.add_on_deal_not_exists', 'The add on deal not existed');
      return sendJson(res, 200, deal);
    }
    throw new Refusal(404, 'error_not_found', `No control at ${path}.`);
  };

  /** Counts the partner's calls in this sandbox minute; the Retry-After seconds when over the limit. */
  const overLimit = (partnerId: number, now: number): string | undefined => {
    if (options.rateLimitPerMinute === undefined) return undefined;
    const minute = Math.floor(now / MINUTE);
    const count = callsPerMinute.get(partnerId);
    const calls = count && count.minute === minute ? count.count + 1 : 1;
    callsPerMinute.set(partnerId, { minute, count: calls });
    return calls > options.rateLimitPerMinute
      ? String(Math.ceil(((minute + 1) * MINUTE - now) / 1000))
      : undefined;
  };

  // ---- the authorisation page ----

  const formGrant = (partnerId: number, shopId: number, redirect: string, expires: number) =>
    createHmac('sha256', pageSecret).update(`${partnerId}|${shopId}|${redirect}|${expires}`).digest('hex');

  const authPage = (url: URL, res: ServerResponse, now: number) => {
    const { partner } = authenticate(url, SHOPEE_PATHS.authPartner, 'public', now);
    const redirect = url.searchParams.get('redirect') ?? '';
    if (!/^https?:\/\//.test(redirect)) throw wrongParameters('redirect is required.');
    const only = intParam(url, 'shop_id');
    const expires = now + SHOPEE_LIMITS.authCodeSeconds * 1000;
    const cards = [...world.shops.values()]
      .filter((shop) => only === undefined || shop.shop_id === only)
      .map((shop) => ({
        shopId: shop.shop_id,
        shopName: shop.shop_name,
        fields: {
          partner_id: String(partner.partnerId),
          shop_id: String(shop.shop_id),
          redirect,
          expires: String(expires),
          grant: formGrant(partner.partnerId, shop.shop_id, redirect, expires),
        },
      }));
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      authorizePage({
        partnerName: partner.name ?? `Partner ${partner.partnerId}`,
        action: '/sandbox/authorize',
        cards,
      }),
    );
  };

  const authorizeForm = async (req: IncomingMessage, res: ServerResponse, now: number) => {
    const form = new URLSearchParams((await readBody(req)).toString('utf8'));
    const partnerId = Number(form.get('partner_id'));
    const shopId = Number(form.get('shop_id'));
    const redirect = form.get('redirect') ?? '';
    const expires = Number(form.get('expires'));
    if (
      !signMatches(form.get('grant') ?? '', formGrant(partnerId, shopId, redirect, expires)) ||
      expires <= now
    )
      throw new Refusal(
        403,
        'error_auth',
        'The authorization page has expired; open the authorization link again.',
      );
    const code = world.authorize(partnerId, shopId);
    const target = new URL(redirect);
    target.searchParams.set('code', code);
    target.searchParams.set('shop_id', String(shopId));
    res.writeHead(302, { location: target.toString() });
    res.end();
  };

  // ---- one call ----

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://sandbox');
    const path = url.pathname;
    const method = req.method ?? 'GET';
    const entry = { method, path, partnerId: intParam(url, 'partner_id'), shopId: intParam(url, 'shop_id') };
    try {
      if (path === '/sandbox/health')
        return sendJson(res, 200, { ok: true, shops: world.shops.size, orders: world.orders.size });
      if (path.startsWith('/sandbox/control/')) return await control(req, res, path, method);
      if (path.startsWith('/sandbox/file/') && method === 'GET') {
        const imageId = path.slice('/sandbox/file/'.length);
        const image = images.get(imageId) ?? (imageId === PRODUCT_IMAGE.id ? PRODUCT_IMAGE : undefined);
        if (!image) throw new Refusal(404, 'error_not_found', 'No such image.');
        res.writeHead(200, {
          'content-type': image.contentType,
          'content-length': String(image.bytes.length),
        });
        return res.end(image.bytes);
      }
      const now = clock.now();
      world.tick();
      if (path === SHOPEE_PATHS.authPartner && method === 'GET') {
        authPage(url, res, now);
        return record({ ...entry, status: 200, error: '' });
      }
      if (path === '/sandbox/authorize' && method === 'POST') {
        await authorizeForm(req, res, now);
        return record({ ...entry, status: 302, error: '' });
      }
      const route = routes.get(path);
      if (!route) throw new Refusal(404, 'error_not_found', `No API at ${path}.`);
      if (route.method !== method) throw new Refusal(405, 'error_param', `${path} takes ${route.method}.`);

      const taken = takeFailure(path, route.level);
      if (taken?.kind === 'lag') await new Promise((resolve) => setTimeout(resolve, taken.delayMs ?? 1000));
      const failure = taken?.kind;
      if (taken?.kind === 'error')
        throw new Refusal(
          taken.status ?? 500,
          taken.error ?? 'error_server',
          taken.message ?? 'Something wrong. Please try later.',
        );
      if (failure === 'timeout') {
        // No answer: the request is held until the client gives up (or the hold ends).
        const hold = setTimeout(() => {
          holds.delete(hold);
          res.destroy();
        }, timeoutHoldMs);
        holds.add(hold);
        res.on('close', () => {
          clearTimeout(hold);
          holds.delete(hold);
        });
        return record({ ...entry, status: 0, error: 'timeout' });
      }
      if (failure === '5xx')
        throw new Refusal(500, 'error_server', 'Internal server error, please try again later.');
      if (failure === 'rate_limit') throw new Refusal(429, 'error_too_many_request', 'Too many requests.');
      if (failure === 'signature') throw new Refusal(403, 'error_sign', 'Wrong sign.');

      const { partner, shop } = authenticate(url, path, route.level, now);
      if (failure === 'expired') throw new Refusal(403, 'invalid_acceess_token', 'Invalid access_token.');
      const retryAfter =
        overLimit(partner.partnerId, now) ?? (shop ? throttled(shop.shop_id)?.toString() : undefined);
      if (retryAfter !== undefined) {
        record({ ...entry, status: 429, error: 'error_too_many_request' });
        return refuse(res, new Refusal(429, 'error_too_many_request', 'Too many requests.'), {
          'retry-after': retryAfter,
        });
      }
      let body: unknown;
      let raw: Buffer | undefined;
      if (method === 'POST' && route.body === 'raw') raw = await readBody(req);
      else if (method === 'POST') {
        const text = (await readBody(req)).toString('utf8');
        try {
          body = text === '' ? {} : JSON.parse(text);
        } catch {
          throw wrongParameters('the body is not JSON.');
        }
      }
      const data = await route.handle({
        url,
        body,
        raw,
        contentType: req.headers['content-type'],
        partner,
        shop,
        now,
      });
      if (route.placement === 'file') {
        const file = data as Buffer;
        res.writeHead(200, {
          'content-type': 'application/pdf',
          'content-disposition': 'attachment; filename="shipping_document.pdf"',
          'content-length': String(file.length),
        });
        res.end(file);
      } else {
        const answer = { request_id: newToken(), error: '', message: '' };
        sendJson(
          res,
          200,
          route.placement === 'top' ? { ...answer, ...(data as object) } : { ...answer, response: data },
        );
      }
      record({ ...entry, status: 200, error: '' });
    } catch (error) {
      if (error instanceof Refusal) {
        record({ ...entry, status: error.status, error: error.error });
        if (!res.headersSent) refuse(res, error);
        return;
      }
      log(
        `shopee sandbox: ${method} ${path} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
      record({ ...entry, status: 500, error: 'error_inner' });
      if (!res.headersSent)
        sendJson(res, 500, { request_id: newToken(), error: 'error_inner', message: 'Sandbox failure.' });
    }
  };

  // ---- start ----

  if (world.shops.size === 0) {
    for (const shop of options.shops ?? [{ name: 'Kedai Demo Store' }]) world.createShop(shop);
  }
  world.tick();

  const server: Server = createServer((req, res) => {
    void handle(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host =
    options.host && options.host !== '0.0.0.0' && options.host !== '::' ? options.host : '127.0.0.1';
  const url =
    options.publicUrl?.replace(/\/+$/, '') ??
    `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
  baseUrl = url;

  const tickInterval = options.tickIntervalMs ?? 1000;
  const ticker = tickInterval > 0 ? setInterval(() => world.tick(), tickInterval) : undefined;
  ticker?.unref();

  const shopInfo = (shop: SandboxShop): SandboxShopInfo => ({
    shopId: shop.shop_id,
    name: shop.shop_name,
    region: shop.region,
    orderCount: world.ordersOf(shop.shop_id).length,
    authorizedPartners: shop.authorizations.map((a) => a.partner_id),
  });
  const fullOrder = (order: SandboxOrder): ShopeeOrder => structuredClone(order.detail);
  const knownPartner = (partnerId: number) => {
    if (!partners.has(partnerId)) throw new RangeError(`no partner ${partnerId}`);
  };

  let stopped = false;
  return {
    url,
    clock,
    partners: options.partners,
    get shops() {
      return [...world.shops.values()].map(shopInfo);
    },
    get requests() {
      return requestLog;
    },
    createShop: (input) => shopInfo(world.createShop(input)),
    generateOrders(count, opts = {}) {
      world.tick();
      const shop =
        opts.shopId === undefined ? world.shops.values().next().value : world.shops.get(opts.shopId);
      if (!shop) throw new RangeError(`generateOrders: no shop ${opts.shopId ?? ''}`);
      const now = clock.now();
      return Array.from({ length: count }, () => fullOrder(world.makeOrder(shop, now)));
    },
    orders(shopId) {
      world.tick();
      return (shopId === undefined ? [...world.orders.values()] : world.ordersOf(shopId)).map(fullOrder);
    },
    order(orderSn) {
      world.tick();
      const order = world.orders.get(orderSn);
      return order && fullOrder(order);
    },
    setOrderStatus(orderSn, status, reason) {
      world.tick();
      const order = world.orders.get(orderSn);
      if (!order) throw new RangeError(`setOrderStatus: no order ${orderSn}`);
      forceStatus(order, status, clock.now(), reason);
      world.changed();
      return fullOrder(order);
    },
    dropOrderItems(orderSn) {
      world.tick();
      const order = world.orders.get(orderSn);
      if (!order) throw new RangeError(`dropOrderItems: no order ${orderSn}`);
      order.detail.item_list = [];
      world.changed();
      return fullOrder(order);
    },
    authorize(partnerId, shopId) {
      knownPartner(partnerId);
      return world.authorize(partnerId, shopId);
    },
    issueTokens(partnerId, shopId) {
      knownPartner(partnerId);
      if (!world.isAuthorized(partnerId, shopId)) world.authorize(partnerId, shopId);
      const { access, refresh } = world.issuePair(partnerId, shopId);
      return { accessToken: access.token, refreshToken: refresh.token, expiresAt: access.expires_at };
    },
    failNext(failure) {
      failures.push({ ...failure, times: failure.times ?? 1 });
    },
    resetFailures() {
      failures.length = 0;
    },
    setShopRateLimit(limit) {
      shopRateLimit = limit;
      buckets.clear();
    },
    stockOf,
    discountOf(shopId, discountId) {
      const shop = world.shops.get(shopId);
      const discount = shop && discountsOf(shop).find((candidate) => candidate.discount_id === discountId);
      return discount && structuredClone(discount);
    },
    addOnDealOf(shopId, addOnDealId) {
      const shop = world.shops.get(shopId);
      const deal = shop && addOnDealsOf(shop).find((candidate) => candidate.add_on_deal_id === addOnDealId);
      return deal && structuredClone(deal);
    },
    tick: () => world.tick(),
    flush: () => world.flush(),
    async stop() {
      if (stopped) return;
      stopped = true;
      if (ticker) clearInterval(ticker);
      for (const hold of holds) clearTimeout(hold);
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      if (store.persistent) await world.flush();
    },
  };
}
