import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { handleStockCommand } from '@commands/inventory/stock';
import { eventIdFor } from '@commands/support/ids';
import { addWebhook } from '@commands/webhooks/subscriptions';
import { createWebhookWakeReactor } from '@commands/webhooks/wake-reactor';
import { ReactorRunner } from '@projections/runtime/reactor';
import { benchAccount, benchDatabase, benchWorker, clock } from './channel-setup';
import { percentile } from './load';
import { log } from './report';
import type { BenchServer } from './server';
import type { ReceiverToBench } from './webhooks-receiver';

/**
 * The webhooks' budget (issue 16), `webhookDeliveryP99Ms`: an event appended to the log → its signed webhook
 * acknowledged by a receiver on this machine, at 200 events a second of one account's stock adjustments (spread over
 * 100 master codes) to one endpoint subscribed to them — the whole path: the wake reactor, the endpoint's Temporal
 * workflow, the feed read, signing, the POST and the receiver's 200. Each event is timed from just before its append
 * to the receiver's first acknowledgement of its webhook-id (the receiver runs in a process of its own, as an
 * integrator's server runs on a machine of its own). Budget: p99 ≤ 1,000 ms.
 */

const EVENTS_PER_SEC = 200;
const CODES = 100;

export interface WebhookFigures {
  webhookDeliveryP50Ms: number;
  webhookDeliveryP99Ms: number;
  events: number;
  acknowledged: number;
  /** The mean time of one POST (the delivery log's duration): what a delivery costs besides Kedai's own work. */
  meanRequestMs: number;
}

/** The receiver in a process of its own (webhooks-receiver.ts); its URL. */
async function receiverProcess(
  onAcks: (acks: Extract<ReceiverToBench, { kind: 'acks' }>['acks']) => void,
  closers: Array<() => Promise<unknown>>,
): Promise<string> {
  const child = fork(fileURLToPath(new URL('./webhooks-receiver.ts', import.meta.url)), [], {
    execArgv: process.execArgv,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  closers.push(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the bench receiver exited (${code})`)));
    child.on('message', (message: ReceiverToBench) => {
      if (message.kind === 'ready') resolve(message.url);
      else onAcks(message.acks);
    });
  });
}

export async function measureWebhookDelivery(
  bench: BenchServer,
  opts: { seconds: number; eventsPerSec?: number; database?: string },
): Promise<WebhookFigures> {
  const rate = opts.eventsPerSec ?? EVENTS_PER_SEC;
  const closers: Array<() => Promise<unknown>> = [];
  try {
    const { db, store } = await benchDatabase(bench, opts.database ?? 'kedai_webhooks', closers);
    const appendedAt = new Map<string, number>();
    const samples: number[] = [];
    const url = await receiverProcess((acks) => {
      for (const [id, at] of acks) {
        const since = appendedAt.get(id);
        if (since === undefined) continue;
        samples.push(at - since);
        appendedAt.delete(id);
      }
    }, closers);

    const owner = await benchAccount(db, 'Webhooks');
    const tenantId = owner.tenantId;
    const warehouseId = randomUUID();
    await db
      .insertInto('warehouses')
      .values({
        id: warehouseId,
        tenant_id: tenantId,
        kind: 'warehouse',
        code: 'MAIN',
        name: 'Main',
        is_default: true,
      })
      .execute();
    const codes = Array.from({ length: CODES }, () => randomUUID());
    await db
      .insertInto('master_codes')
      .values(
        codes.map((id, n) => ({
          id,
          tenant_id: tenantId,
          code: `HOOK-${n}`,
          name: `Hook ${n}`,
          type: 'standard' as const,
          seller_sku: `HOOK-${n}`,
        })),
      )
      .execute();
    const targets = { allowLoopback: true };
    const workflows = await benchWorker({ db, store }, 'bench-webhooks', closers, {
      webhookTargets: targets,
    });
    const reactors = new ReactorRunner({
      db,
      store,
      reactors: [createWebhookWakeReactor({ db, workflows })],
      retryMs: 100,
    });
    reactors.start();
    closers.push(() => reactors.stop());
    await addWebhook({ db, store, workflows, targets }, owner, {
      url,
      event_types: ['StockAdjusted'],
      description: 'bench',
    });

    // ---- the load: `rate` adjustments a second, each appended without waiting for the one before ----
    const total = Math.round(opts.seconds * rate);
    const appends: Promise<unknown>[] = [];
    const started = performance.now();
    for (let n = 0; n < total; n++) {
      const wait = started + (n * 1000) / rate - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const commandId = randomUUID();
      appendedAt.set(eventIdFor(commandId), clock());
      appends.push(
        handleStockCommand(
          store,
          {
            type: 'AdjustStock',
            mode: 'set',
            quantity: n,
            refuseNegative: false,
            masterCodeId: codes[n % CODES]!,
            warehouseId,
          },
          { tenantId, commandId, occurredAt: new Date().toISOString() },
        ),
      );
    }
    await Promise.all(appends);
    const deadline = performance.now() + 60_000;
    while (appendedAt.size > 0 && performance.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    const acknowledged = samples.length;
    // How long the receiver took per request, as the delivery log has it: the part of the path that is the POST.
    const { request_ms: requestMs } = await db
      .selectFrom('webhook_deliveries')
      .select((eb) => eb.fn.avg<string>('duration_ms').as('request_ms'))
      .executeTakeFirstOrThrow();
    // What never arrived counts as the longest wait there is.
    for (const since of appendedAt.values()) samples.push(clock() - since);
    const sorted = samples.sort((a, b) => a - b);
    const figures = {
      webhookDeliveryP50Ms: Number(percentile(sorted, 0.5).toFixed(1)),
      webhookDeliveryP99Ms: Number(percentile(sorted, 0.99).toFixed(1)),
      events: total,
      acknowledged,
      meanRequestMs: Number(Number(requestMs ?? 0).toFixed(1)),
    };
    log(
      `webhook delivery: p50 ${figures.webhookDeliveryP50Ms} ms, p99 ${figures.webhookDeliveryP99Ms} ms over ` +
        `${total} events (${rate}/s), ${acknowledged} acknowledged`,
    );
    return figures;
  } finally {
    for (const close of closers.reverse())
      await close().catch((error: unknown) => log(`cleanup: ${String(error)}`));
  }
}
