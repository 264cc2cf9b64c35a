import {
  type ManualClock,
  manualClock,
  ShopeeClient,
  type ShopeeClientOptions,
  type ShopeeSandbox,
  type ShopeeSandboxOptions,
  type ShopeeTokenStore,
  type ShopeeTokens,
  startShopeeSandbox,
} from '@integrations/shopee';
import { expect } from 'vitest';

/** The sandbox as the tests use it: one partner, a clock that moves only when told, no background ticks. */

/** A 1×1 PNG as a data: URL: the adapter uploads each image (media_space/upload_image) before add_item. */
export const PIXEL_DATA_URL =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

export const PARTNER = { partnerId: 2_001_887, partnerKey: 'shpk-test-partner-key-7a2f', name: 'Kedai Test' };
/** 2024-11-21 10:00 Malaysia time. */
export const START = Date.UTC(2024, 10, 21, 2, 0, 0);

export interface TestSandbox {
  sandbox: ShopeeSandbox;
  clock: ManualClock;
  shopId: number;
}

export async function startTestSandbox(
  options: Partial<ShopeeSandboxOptions> & { clock?: ManualClock } = {},
): Promise<TestSandbox> {
  const clock = options.clock ?? manualClock(START);
  const sandbox = await startShopeeSandbox({
    partners: [PARTNER],
    seed: 'tests',
    tickIntervalMs: 0,
    ...options,
    clock,
  });
  return { sandbox, clock, shopId: sandbox.shops[0]!.shopId };
}

/** A token store in memory that counts its saves. */
export class MemoryTokens implements ShopeeTokenStore {
  readonly saved: ShopeeTokens[] = [];
  private readonly byShop = new Map<number, ShopeeTokens>();

  async load(shopId: number) {
    return this.byShop.get(shopId);
  }
  async save(shopId: number, tokens: ShopeeTokens) {
    this.saved.push(tokens);
    this.byShop.set(shopId, tokens);
  }
  /** Stores a pair without counting it as a save by the client. */
  put(shopId: number, tokens: ShopeeTokens) {
    this.byShop.set(shopId, tokens);
  }
}

export function clientFor(
  test: TestSandbox,
  tokens: ShopeeTokenStore = new MemoryTokens(),
  options: Partial<ShopeeClientOptions> = {},
): ShopeeClient {
  return new ShopeeClient({
    baseUrl: test.sandbox.url,
    partnerId: PARTNER.partnerId,
    partnerKey: PARTNER.partnerKey,
    tokens,
    now: test.clock.now,
    ...options,
  });
}

/** A client whose shop is already connected (tokens issued by the sandbox). */
export function connectedClient(
  test: TestSandbox,
  options: Partial<ShopeeClientOptions> = {},
): { client: ShopeeClient; tokens: MemoryTokens } {
  const tokens = new MemoryTokens();
  tokens.put(test.shopId, test.sandbox.issueTokens(PARTNER.partnerId, test.shopId));
  return { client: clientFor(test, tokens, options), tokens };
}

/** A signed request built by hand, for what the client would refuse to send. */
export function signedUrl(
  base: string,
  path: string,
  input: { partnerId: number; key: string; timestamp: number; accessToken?: string; shopId?: number },
  sign: (key: string, base: string) => string,
): URL {
  const url = new URL(path, base);
  url.searchParams.set('partner_id', String(input.partnerId));
  url.searchParams.set('timestamp', String(input.timestamp));
  if (input.accessToken !== undefined) {
    url.searchParams.set('access_token', input.accessToken);
    url.searchParams.set('shop_id', String(input.shopId));
  }
  const baseString = `${input.partnerId}${path}${input.timestamp}${input.accessToken ?? ''}${input.shopId ?? ''}`;
  url.searchParams.set('sign', sign(input.key, baseString));
  return url;
}

/** The authorisation page's form for a shop, as a browser would submit it. */
export function formOf(html: string, shopName: string): { action: string; fields: URLSearchParams } {
  const start = html.indexOf(`Authorize ${shopName} for`);
  expect(start).toBeGreaterThan(-1);
  const formStart = html.lastIndexOf('<form', start);
  const form = html.slice(formStart, html.indexOf('</form>', start));
  const action = /action="([^"]+)"/.exec(form)![1]!;
  const fields = new URLSearchParams();
  for (const input of form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    fields.set(
      input[1]!,
      input[2]!.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code))),
    );
  }
  expect(form).toContain('<button type="submit">Authorize</button>');
  return { action, fields };
}
