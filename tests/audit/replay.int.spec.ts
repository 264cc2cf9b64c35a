import { createHash } from 'node:crypto';
import { handleOrderCommand } from '@commands/orders/order';
import { data, gridParams } from '@tests/api/inventory/inventory-api';
import { expectRefusal } from '@tests/api/inventory/stock-api';
import { bearer, createSeller, createTestApi, type TestApi, type TestSeller } from '@tests/support/api';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settleAll, stockWithHistory } from './audit-support';

interface Figures {
  on_hand: number;
  reserved: number;
  in_process: number;
  on_hold: number;
  incoming: number;
  available: number;
}
interface StockReplay {
  master_code: { id: string; code: string };
  steps: {
    movement: Figures & {
      revision: number;
      occurred_at: string;
      action: string;
      new_stock: number;
      description: string | null;
      source: { type: string; id: string; number: string | null } | null;
      created_by: { id: string; name: string } | null;
    };
    before: Figures;
    command_id: string | null;
  }[];
  has_more: boolean;
}
interface DocumentReplay {
  steps: {
    type: string;
    user: { id: string; name: string } | null;
    reason: string | null;
    before: Record<string, unknown> | null;
    after: Record<string, unknown> | null;
    changed: string[];
  }[];
}

/**
 * The auditor's replay: a stock's events in order with who, why, the document behind each and every figure before
 * and after; a document's events folded with its own evolve; both another account's as missing; the signed CSV
 * verifying as it was written and failing once a row is changed, even with its hash recomputed.
 */
describe("the auditor's replay", () => {
  let api: TestApi;
  let owner: TestSeller;
  let other: TestSeller;
  let cup: { id: string; code: string };
  let w1: { id: string; code: string };
  let orderId: string;
  const at = (minute: number) => new Date(Date.UTC(2026, 6, 1, 9, minute));

  beforeAll(async () => {
    api = await createTestApi();
    owner = await createSeller(api, { packageId: 'growth' });
    other = await createSeller(api, { packageId: 'growth' });
    ({ orderId, cup, w1 } = await stockWithHistory(api, owner, at, (order) => ({
      type: 'ShipStock',
      quantity: 4,
      from: 'reserved',
      source: { type: 'order', id: order },
    })));
    await handleOrderCommand(
      api.store,
      orderId,
      { type: 'CancelOrder', reason: 'Buyer changed mind', byMarketplace: false },
      {
        tenantId: owner.tenantId,
        userId: owner.userId,
        commandId: `cancel-${orderId}`,
        occurredAt: at(3).toISOString(),
      },
    );
    await settleAll(api, owner.tenantId);
  });
  afterAll(async () => {
    await api?.close();
  });

  const get = (url: string, token = owner.token) =>
    api.app.inject({ method: 'GET', url, headers: bearer(token) });
  const stockUrl = (query: Record<string, unknown> = {}) =>
    `/api/audit/stock?${gridParams({ master_code_id: cup.id, warehouse_id: w1.id, ...query })}`;

  it("walks a stock's events in order with who, why, the source and the figures before and after", async () => {
    const replay = data<StockReplay>(await get(stockUrl()));
    expect(replay.master_code).toMatchObject({ id: cup.id, code: 'CUP' });
    expect(replay.has_more).toBe(false);
    expect(replay.steps.map((step) => step.movement.action)).toEqual([
      'StockReceived',
      'StockReserved',
      'StockShipped',
    ]);
    expect(replay.steps.map((step) => [step.before.on_hand, step.movement.new_stock])).toEqual([
      [0, 10],
      [10, 10],
      [10, 6],
    ]);
    expect(replay.steps.map((step) => [step.before.reserved, step.movement.reserved])).toEqual([
      [0, 0],
      [0, 4],
      [4, 0],
    ]);
    expect(replay.steps.map((step) => [step.before.available, step.movement.available])).toEqual([
      [0, 10],
      [10, 6],
      [6, 6],
    ]);
    const [received, reserved] = replay.steps;
    expect(received!.movement.description).toBe('Opening count');
    expect(received!.movement.created_by).toEqual({ id: owner.userId, name: 'Siti Aminah' });
    expect(received!.command_id).toEqual(expect.any(String));
    expect(reserved!.movement.source).toEqual({ type: 'order', id: orderId, number: expect.any(String) });

    // A page from the second event: its first step's "before" is the first event's "after".
    const page = data<StockReplay>(await get(stockUrl({ from: 1, limit: 1 })));
    expect(page.steps).toHaveLength(1);
    expect(page.has_more).toBe(true);
    expect(page.steps[0]!.before).toMatchObject({ on_hand: 10, reserved: 0 });
  });

  it("folds a document's events with its own evolve", async () => {
    const replay = data<DocumentReplay>(await get(`/api/audit/order/${orderId}`));
    expect(replay.steps[0]).toMatchObject({ type: 'OrderImported', before: null });
    const cancelled = replay.steps.at(-1)!;
    expect(cancelled).toMatchObject({
      type: 'OrderCancelled',
      reason: 'Buyer changed mind',
      user: { id: owner.userId, name: 'Siti Aminah' },
      after: expect.objectContaining({ status: 'cancelled' }),
    });
    expect(cancelled.changed).toContain('status');
    expect(cancelled.before?.status).not.toBe('cancelled');
  });

  it("answers another account's stock and document as missing", async () => {
    expect((await get(stockUrl(), other.token)).statusCode).toBe(404);
    expectRefusal(await get(`/api/audit/order/${orderId}`, other.token), 404, 861);
    expectRefusal(await get('/api/audit/transfer/no-such-transfer'), 404, 861);
    expectRefusal(await get(stockUrl({ limit: 0 })), 400, 864);
  });

  it('signs the CSV so that a changed row fails, even with its hash recomputed', async () => {
    const verify = (content: string) =>
      api.app.inject({
        method: 'POST',
        url: '/api/audit/verify',
        headers: bearer(owner.token),
        payload: { content },
      });
    const exported = await get(
      `/api/audit/stock/export?${gridParams({ master_code_id: cup.id, warehouse_id: w1.id })}`,
    );
    expect(exported.statusCode, exported.body).toBe(200);
    const file = exported.body;
    const rows = Papa.parse<string[]>(file.replace(/^\ufeff/, ''), { skipEmptyLines: true }).data;
    expect(rows).toHaveLength(1 + 3 + 2);
    expect(rows.at(-2)![0]).toBe('#sha256');
    expect(rows.at(-1)![0]).toBe('#hmac-sha256');
    expect(data(await verify(file))).toMatchObject({
      valid: true,
      hash_matches: true,
      signature_matches: true,
    });

    // One figure changed: the hash no longer matches.
    const tampered = file.replace(',10,', ',11,');
    expect(tampered).not.toBe(file);
    expect(data(await verify(tampered))).toMatchObject({ valid: false, hash_matches: false });
    // The forger recomputes the hash: it matches, Kedai's signature of it does not.
    const body = tampered.replace(/^\ufeff/, '');
    const cut = body.indexOf('#sha256,');
    const forged = `${body.slice(0, cut)}#sha256,${createHash('sha256').update(body.slice(0, cut)).digest('hex')}${body.slice(cut + 8 + 64)}`;
    expect(data(await verify(forged))).toMatchObject({
      valid: false,
      hash_matches: true,
      signature_matches: false,
    });
    // Another account's key does not sign this account's file.
    const theirs = await api.app.inject({
      method: 'POST',
      url: '/api/audit/verify',
      headers: bearer(other.token),
      payload: { content: file },
    });
    expect(data(theirs)).toMatchObject({ valid: false, signature_matches: false });
    expectRefusal(await verify('just,some,text\r\n'), 400, 863);

    const documentFile = await get(`/api/audit/order/${orderId}/export`);
    expect(documentFile.statusCode).toBe(200);
    expect(data(await verify(documentFile.body))).toMatchObject({ valid: true });
  });
});
