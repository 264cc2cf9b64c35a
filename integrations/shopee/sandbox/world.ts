import { randomBytes } from 'node:crypto';
import { SHOPEE_LIMITS } from '../schemas';
import type { SandboxClock } from './clock';
import {
  DEFAULT_SKUS,
  HOUR,
  itemsOf,
  newOrder,
  pickupAddress,
  type SandboxSku,
  stampSeconds,
  toProducts,
} from './generator';
import { addToPlan, applyDue } from './lifecycle';
import { SeededRandom } from './random';
import {
  emptySnapshot,
  type PlannedChange,
  type SandboxGrant,
  type SandboxItem,
  type SandboxModel,
  type SandboxOrder,
  type SandboxShop,
  type SandboxSnapshot,
  type SandboxStore,
} from './state';

/**
 * Everything the sandbox holds, in memory, with the store behind it: shops, orders, codes and tokens. `tick`
 * makes the orders that have arrived by the sandbox clock's now and applies the status changes due; every change
 * goes through `changed`, which schedules a save and invalidates the sorted order lists.
 */

export interface WorldOptions {
  clock: SandboxClock;
  store: SandboxStore;
  seed: number | string;
  /** Orders per hour per shop (0: none by themselves). */
  orderRate: number;
  /** After a restart, the most arrivals made up for the time away. */
  maxBacklog: number;
  skus?: readonly (string | SandboxSku)[];
  log: (line: string) => void;
}

export const newToken = () => randomBytes(16).toString('hex');

export class SandboxWorld {
  readonly shops = new Map<number, SandboxShop>();
  readonly orders = new Map<string, SandboxOrder>();
  readonly codes = new Map<string, SandboxGrant>();
  readonly accessTokens = new Map<string, SandboxGrant>();
  readonly refreshTokens = new Map<string, SandboxGrant>();
  /** Bumped on every change: cached order lists older than it are rebuilt. */
  revision = 0;

  private readonly ordersByShop = new Map<number, SandboxOrder[]>();
  private readonly randoms = new Map<number, SeededRandom>();
  private readonly sorted = new Map<string, { revision: number; list: SandboxOrder[] }>();
  private readonly meanArrivalMs: number;
  private nextShopId: number;
  private nextListingId: number;
  private nextDueAt = Number.POSITIVE_INFINITY;
  private saveTimer: NodeJS.Timeout | undefined;
  private saving: Promise<void> = Promise.resolve();

  private constructor(
    private readonly options: WorldOptions,
    snapshot: SandboxSnapshot,
  ) {
    this.meanArrivalMs = options.orderRate > 0 ? HOUR / options.orderRate : 0;
    this.nextShopId = snapshot.next_shop_id;
    this.nextListingId = snapshot.next_listing_id ?? 50_000_000_001;
    for (const shop of snapshot.shops) this.addShop(shop);
    for (const order of snapshot.orders) this.addOrder(order);
    for (const grant of snapshot.codes) this.codes.set(grant.token, grant);
    for (const grant of snapshot.access_tokens) this.accessTokens.set(grant.token, grant);
    for (const grant of snapshot.refresh_tokens) this.refreshTokens.set(grant.token, grant);
    // After time away, the orders of at most `maxBacklog` arrivals are made up, not every one missed.
    const now = options.clock.now();
    const catchUpFrom = now - options.maxBacklog * this.meanArrivalMs;
    for (const shop of this.shops.values()) {
      if (this.meanArrivalMs === 0) shop.next_order_at = null;
      else if (shop.next_order_at === null) this.scheduleNext(shop, now);
      else if (shop.next_order_at < catchUpFrom) this.scheduleNext(shop, catchUpFrom);
    }
  }

  static async open(options: WorldOptions): Promise<SandboxWorld> {
    return new SandboxWorld(options, (await options.store.load()) ?? emptySnapshot());
  }

  get now(): number {
    return this.options.clock.now();
  }

  // ---- shops and orders ----

  createShop(input: { name?: string; skus?: readonly (string | SandboxSku)[] } = {}): SandboxShop {
    const shopId = this.nextShopId++;
    const name = input.name ?? `Sandbox Shop ${shopId}`;
    const products = toProducts(input.skus ?? this.options.skus ?? DEFAULT_SKUS);
    if (products.length === 0) throw new RangeError('createShop: at least one SKU');
    const shop: SandboxShop = {
      shop_id: shopId,
      shop_name: name,
      region: 'MY',
      products,
      items: itemsOf(products, stampSeconds(this.now)),
      pickup_address: pickupAddress(shopId, name, this.options.seed),
      random: new SeededRandom(`${this.options.seed}:orders:${shopId}`).snapshot,
      next_order_at: null,
      authorizations: [],
    };
    this.addShop(shop);
    this.scheduleNext(shop, this.now);
    this.changed();
    return shop;
  }

  /** A new order of the shop, created at `atMs`; the stock of each model it sells goes down by what it sold. */
  makeOrder(shop: SandboxShop, atMs: number): SandboxOrder {
    const order = newOrder(this.randoms.get(shop.shop_id)!, shop, atMs, (sn) => this.orders.has(sn));
    for (const line of order.detail.item_list ?? []) {
      const found = this.findModel(shop, line.item_id, line.model_id);
      if (!found) continue;
      found.holder.stock = Math.max(0, found.holder.stock - line.model_quantity_purchased);
      found.item.update_time = order.detail.create_time;
    }
    this.addOrder(order);
    this.changed();
    return order;
  }

  // ---- listings ----

  /** The shop's items, deleted ones included. */
  items(shop: SandboxShop): SandboxItem[] {
    shop.items ??= itemsOf(shop.products, stampSeconds(this.now));
    return shop.items;
  }

  /** The shop's item, unless unknown or deleted by the seller. */
  item(shop: SandboxShop, itemId: number): SandboxItem | undefined {
    const item = this.items(shop).find((candidate) => candidate.item_id === itemId);
    return item && item.item_status !== 'SELLER_DELETE' ? item : undefined;
  }

  /** What holds the stock and price of (item, model): the model, or the item itself for model 0. */
  findModel(
    shop: SandboxShop,
    itemId: number,
    modelId: number,
  ): { item: SandboxItem; holder: SandboxItem | SandboxModel } | undefined {
    const item = this.item(shop, itemId);
    if (!item) return undefined;
    if (modelId === 0) return item.models.length === 0 ? { item, holder: item } : undefined;
    const model = item.models.find((candidate) => candidate.model_id === modelId);
    return model && { item, holder: model };
  }

  /** A new item, model or image id. */
  newListingId(): number {
    const id = this.nextListingId++;
    this.changed();
    return id;
  }

  ordersOf(shopId: number): readonly SandboxOrder[] {
    return this.ordersByShop.get(shopId) ?? [];
  }

  /** The shop's order with that number; undefined for another shop's. */
  shopOrder(shopId: number, orderSn: string): SandboxOrder | undefined {
    const order = this.orders.get(orderSn);
    return order?.shop_id === shopId ? order : undefined;
  }

  /** Adds status changes to come to an order. */
  plan(order: SandboxOrder, changes: readonly PlannedChange[]): void {
    addToPlan(order, changes);
    if (order.plan[0]) this.nextDueAt = Math.min(this.nextDueAt, order.plan[0].at);
    this.changed();
  }

  /** A shop's orders sorted by create_time or update_time, then order_sn; rebuilt only after a change. */
  sortedOrders(shopId: number, field: 'create_time' | 'update_time'): readonly SandboxOrder[] {
    const key = `${shopId}:${field}`;
    const cached = this.sorted.get(key);
    if (cached?.revision === this.revision) return cached.list;
    const list = [...this.ordersOf(shopId)].sort(
      (a, b) =>
        a.detail[field] - b.detail[field] ||
        (a.detail.order_sn < b.detail.order_sn ? -1 : a.detail.order_sn > b.detail.order_sn ? 1 : 0),
    );
    this.sorted.set(key, { revision: this.revision, list });
    return list;
  }

  /** Makes the orders that arrived by now and applies the status changes due; returns how many changes. */
  tick(): number {
    const now = this.now;
    let changes = 0;
    for (const shop of this.shops.values()) {
      while (shop.next_order_at !== null && shop.next_order_at <= now) {
        this.makeOrder(shop, shop.next_order_at);
        changes++;
        this.scheduleNext(shop, shop.next_order_at);
      }
    }
    if (now >= this.nextDueAt) {
      this.nextDueAt = Number.POSITIVE_INFINITY;
      for (const order of this.orders.values()) {
        changes += applyDue(order, now);
        if (order.plan[0]) this.nextDueAt = Math.min(this.nextDueAt, order.plan[0].at);
      }
    }
    if (changes > 0) this.changed();
    return changes;
  }

  // ---- authorisation ----

  /** The shop authorises the partner (for a year); returns a fresh authorisation code. */
  authorize(partnerId: number, shopId: number): string {
    const shop = this.shops.get(shopId);
    if (!shop) throw new RangeError(`authorize: no shop ${shopId}`);
    const now = this.now;
    const authTime = Math.floor(now / 1000);
    shop.authorizations = shop.authorizations.filter((a) => a.partner_id !== partnerId);
    shop.authorizations.push({
      partner_id: partnerId,
      auth_time: authTime,
      expire_time: authTime + 365 * 86_400,
    });
    const code = newToken();
    this.codes.set(code, {
      token: code,
      partner_id: partnerId,
      shop_id: shopId,
      expires_at: now + SHOPEE_LIMITS.authCodeSeconds * 1000,
    });
    this.changed();
    return code;
  }

  isAuthorized(partnerId: number, shopId: number): boolean {
    const shop = this.shops.get(shopId);
    return !!shop?.authorizations.some((a) => a.partner_id === partnerId && a.expire_time * 1000 > this.now);
  }

  issuePair(partnerId: number, shopId: number): { access: SandboxGrant; refresh: SandboxGrant } {
    const now = this.now;
    const grant = (seconds: number): SandboxGrant => ({
      token: newToken(),
      partner_id: partnerId,
      shop_id: shopId,
      expires_at: now + seconds * 1000,
    });
    const access = grant(SHOPEE_LIMITS.accessTokenSeconds);
    const refresh = grant(SHOPEE_LIMITS.refreshTokenSeconds);
    this.accessTokens.set(access.token, access);
    this.refreshTokens.set(refresh.token, refresh);
    this.changed();
    return { access, refresh };
  }

  // ---- persistence ----

  /** Notes a change: cached lists are stale, and a save is due (soon, once, when the store keeps anything). */
  changed(): void {
    this.revision++;
    if (!this.options.store.persistent || this.saveTimer) return;
    this.saveTimer = setTimeout(() => {
      this.saveTimer = undefined;
      void this.flush().catch(() => {});
    }, 250);
    this.saveTimer.unref();
  }

  async flush(): Promise<void> {
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
    const write = this.saving.then(() => this.options.store.save(this.snapshot()));
    this.saving = write.catch((error: unknown) =>
      this.options.log(`shopee sandbox: saving failed: ${String(error)}`),
    );
    await write;
  }

  private snapshot(): SandboxSnapshot {
    const now = this.now;
    const live = (map: Map<string, SandboxGrant>) =>
      [...map.values()].filter((grant) => grant.expires_at > now);
    for (const [shopId, random] of this.randoms) this.shops.get(shopId)!.random = random.snapshot;
    return {
      version: 1,
      next_shop_id: this.nextShopId,
      next_listing_id: this.nextListingId,
      shops: [...this.shops.values()],
      orders: [...this.orders.values()],
      codes: live(this.codes),
      access_tokens: live(this.accessTokens),
      refresh_tokens: live(this.refreshTokens),
    };
  }

  // ---- inside ----

  private addShop(shop: SandboxShop): void {
    this.shops.set(shop.shop_id, shop);
    this.randoms.set(shop.shop_id, SeededRandom.restore(shop.random));
    if (!this.ordersByShop.has(shop.shop_id)) this.ordersByShop.set(shop.shop_id, []);
  }

  private addOrder(order: SandboxOrder): void {
    this.orders.set(order.detail.order_sn, order);
    this.ordersByShop.get(order.shop_id)?.push(order);
    if (order.plan[0]) this.nextDueAt = Math.min(this.nextDueAt, order.plan[0].at);
  }

  /** Poisson arrivals: the wait to the next order is exponential with the rate's mean. */
  private scheduleNext(shop: SandboxShop, after: number): void {
    shop.next_order_at =
      this.meanArrivalMs > 0 ? after + this.randoms.get(shop.shop_id)!.exponential(this.meanArrivalMs) : null;
  }
}
