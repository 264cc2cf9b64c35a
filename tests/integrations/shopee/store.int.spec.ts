import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '@infra/embedded/ports';
import {
  jsonFileStore,
  manualClock,
  SANDBOX_DEMO_PARTNER,
  SandboxConfigError,
  ShopeeClient,
  sandboxOptionsFromEnv,
} from '@integrations/shopee';
import { type Child, spawnTsx } from '@tests/support/child';
import { waitFor } from '@tests/support/wait';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectedClient, formOf, MemoryTokens, PARTNER, START, startTestSandbox } from './support';

describe('the sandbox keeps its shops, tokens and orders in a JSON file', () => {
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'shopee-sandbox-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('a restarted sandbox has the same shops, orders and tokens, and carries on generating', async () => {
    const first = await startTestSandbox({ store: jsonFileStore(dir), orderRate: 60 });
    const { client, tokens } = connectedClient(first);
    first.sandbox.generateOrders(20);
    first.clock.advance(30 * 60_000);
    const before = first.sandbox.orders();
    const order = before.find((o) => o.order_status === 'READY_TO_SHIP')!;
    await client.shipOrder(first.shopId, { order_sn: order.order_sn, dropoff: {} });
    const shipped = first.sandbox.order(order.order_sn)!;
    await first.sandbox.stop();
    const file = JSON.parse(await readFile(path.join(dir, 'shopee-sandbox.json'), 'utf8')) as {
      orders: unknown[];
    };
    expect(file.orders).toHaveLength(before.length);

    // Same clock time, same store: everything is back, and the old tokens still work.
    const second = await startTestSandbox({ store: jsonFileStore(dir), orderRate: 60 });
    second.clock.set(first.clock.now());
    try {
      expect(second.sandbox.shops.map((shop) => shop.shopId)).toEqual([first.shopId]);
      expect(second.sandbox.order(order.order_sn)).toEqual(shipped);
      expect(second.sandbox.orders().map((o) => o.order_sn)).toEqual(before.map((o) => o.order_sn));
      const again = new ShopeeClient({
        baseUrl: second.sandbox.url,
        ...PARTNER,
        tokens,
        now: second.clock.now,
      });
      const { tracking_number } = await again.getTrackingNumber(second.shopId, { order_sn: order.order_sn });
      expect(tracking_number).not.toBe('');
      second.clock.advance(30 * 60_000);
      expect(second.sandbox.orders().length).toBeGreaterThan(before.length);
      const sns = second.sandbox.orders().map((o) => o.order_sn);
      expect(new Set(sns).size).toBe(sns.length);
    } finally {
      await second.sandbox.stop();
    }
  });

  it('after a long time away it makes up a bounded number of orders', async () => {
    const own = await mkdtemp(path.join(tmpdir(), 'shopee-sandbox-'));
    try {
      const first = await startTestSandbox({ store: jsonFileStore(own), orderRate: 60 });
      await first.sandbox.stop();
      // Started again a week later, at an hour's worth of orders a minute would be 10,000 orders.
      const second = await startTestSandbox({
        store: jsonFileStore(own),
        orderRate: 60,
        maxBacklog: 50,
        clock: manualClock(START + 7 * 24 * 3600_000),
      });
      const count = second.sandbox.orders().length;
      await second.sandbox.stop();
      expect(count).toBeGreaterThan(30);
      expect(count).toBeLessThan(80);
    } finally {
      await rm(own, { recursive: true, force: true });
    }
  });
});

describe('running the sandbox alone (sandbox/main.ts)', () => {
  let child: Child | undefined;
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'shopee-sandbox-cli-'));
  });
  afterAll(async () => {
    child?.kill();
    await rm(dir, { recursive: true, force: true });
  });

  it('reads its settings from the environment and flags', () => {
    const { options, dataDir } = sandboxOptionsFromEnv(
      { SHOPEE_SANDBOX_PORT: '9100', SHOPEE_SANDBOX_RATE: '12', SHOPEE_SANDBOX_DATA_DIR: '/tmp/x' },
      ['--rate', '90'],
    );
    expect(options).toMatchObject({ port: 9100, orderRate: 90, partners: [SANDBOX_DEMO_PARTNER] });
    expect(dataDir).toBe('/tmp/x');
    expect(sandboxOptionsFromEnv({}, ['--memory']).dataDir).toBeNull();
    expect(
      sandboxOptionsFromEnv({ SHOPEE_PARTNER_ID: '5', SHOPEE_PARTNER_KEY: 'k' }).options.partners,
    ).toEqual([{ partnerId: 5, partnerKey: 'k', name: 'Kedai' }]);
    expect(() => sandboxOptionsFromEnv({ SHOPEE_SANDBOX_PORT: 'eighty' })).toThrow(SandboxConfigError);
    expect(() => sandboxOptionsFromEnv({ SHOPEE_PARTNER_ID: '5' })).toThrow(SandboxConfigError);
    expect(() => sandboxOptionsFromEnv({}, ['--bogus'])).toThrow();
  });

  it('starts, answers the signed protocol, and saves its orders when stopped', async () => {
    const port = await freePort();
    child = spawnTsx('integrations/shopee/sandbox/main.ts', ['--port', String(port), '--rate', '3600'], {
      SHOPEE_SANDBOX_DATA_DIR: dir,
    });
    // Its two start-up lines are two writes: wait for the second, which names the partner, not only the first.
    await waitFor(
      () =>
        child!.output().includes('Shopee sandbox listening on') && child!.output().includes('partner_key'),
      { what: 'the sandbox to start' },
    );
    const url = `http://127.0.0.1:${port}`;
    expect(child.output()).toContain(`partner_id ${SANDBOX_DEMO_PARTNER.partnerId}`);

    // Connect the way Kedai does: the authorisation page, the button, the code.
    const tokens = new MemoryTokens();
    const client = new ShopeeClient({ baseUrl: url, ...SANDBOX_DEMO_PARTNER, tokens });
    const page = await (await fetch(client.authorizationUrl('http://localhost/callback'))).text();
    expect(page).toContain('Authorize Kedai Demo Store for Kedai');
    const { fields } = formOf(page, 'Kedai Demo Store');
    const pressed = await fetch(`${url}/sandbox/authorize`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: fields.toString(),
      redirect: 'manual',
    });
    const callback = new URL(pressed.headers.get('location')!);
    const shopId = Number(callback.searchParams.get('shop_id'));
    await tokens.save(
      shopId,
      await client.getAccessToken({ code: callback.searchParams.get('code')!, shopId }),
    );

    // About one order a second at this rate: they arrive on their own.
    const now = () => Math.floor(Date.now() / 1000);
    const from = now() - 60;
    const listed = await waitFor(
      async () => {
        const page = await client.getOrderList(shopId, {
          time_range_field: 'create_time',
          time_from: from,
          time_to: now() + 5,
          page_size: 100,
        });
        return page.order_list.length >= 2 && page.order_list;
      },
      { what: 'orders to arrive' },
    );
    const detail = await client.getOrderDetail(shopId, { order_sn_list: listed.map((o) => o.order_sn) });
    expect(detail.order_list.every((order) => order.currency === 'MYR')).toBe(true);

    child.kill('SIGTERM');
    expect(await child.exited).toBe(0);
    const saved = JSON.parse(await readFile(path.join(dir, 'shopee-sandbox.json'), 'utf8')) as {
      orders: { detail: { order_sn: string } }[];
    };
    const savedSns = saved.orders.map((order) => order.detail.order_sn);
    for (const order of listed) expect(savedSns).toContain(order.order_sn);
  });
});
