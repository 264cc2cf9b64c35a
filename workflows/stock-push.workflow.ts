import {
  condition,
  continueAsNew,
  patched,
  proxyActivities,
  setHandler,
  sleep,
  workflowInfo,
} from '@temporalio/workflow';
import type { createStockPushActivities } from './activities/stock-push';
import {
  type Answered,
  type PendingFigure,
  type PushTiming,
  pushQueueQuery,
  type StockFigure,
  type StockPushInput,
  skuKey,
  stockFiguresSignal,
} from './stock-push-protocol';

type StockPushActivities = ReturnType<typeof createStockPushActivities>;

const DEFAULT_TIMING: PushTiming = {
  coalesceMs: 200,
  backoffMs: 2_000,
  maxBackoffMs: 60_000,
  maxAttempts: 8,
};
/** Runs recorded before figures gathered during a call went without the coalescing pause replay as they ran. */
const GO_AFTER_CALL = 'stock-push-go-after-call';
/** Figures per call (the adapter splits them by the channel's own limit; the log event holds one call's). */
const BATCH = 200;

/** A channel or database outage: retried here; what the channel refused comes back as results, not failures. */
const push = proxyActivities<StockPushActivities>({
  startToCloseTimeout: '2 minutes',
  // A worker killed mid-call is noticed in seconds (the activity beats while it waits on the channel), not minutes:
  // the store's figures wait on that call.
  heartbeatTimeout: '10 seconds',
  retry: {
    initialInterval: '1 second',
    backoffCoefficient: 2,
    maximumInterval: '30 seconds',
    maximumAttempts: 10,
  },
});

/**
 * The stock push of one store, `stock-push-<tenant>-<store>` (the reactor signals it with start): it holds the
 * newest figure per SKU, gathers a burst for a moment (what gathered during a call goes at once after it), and
 * tells the channel in batches, one call at a time — so a figure is never sent before an older one for the same SKU
 * has been answered. A figure replaces one still waiting
 * (or retrying) only when it is newer by log position; a refused figure that is retryable waits with backoff unless
 * a newer one arrived meanwhile. A worker killed mid-call: Temporal runs the activity again with the same figures
 * and call id (its log event is written once), and only then the newer figures — the last quantity wins.
 */
export async function stockPushWorkflow(input: StockPushInput): Promise<void> {
  const timing = input.timing ?? DEFAULT_TIMING;
  const pending = new Map<string, PendingFigure>(
    (input.carried?.pending ?? []).map((figure) => [skuKey(figure), figure]),
  );
  /** Per SKU: the figure last answered, with the quantity the channel took (null: given up on). */
  const answered = new Map<string, Answered>(Object.entries(input.carried?.answered ?? {}));
  const inFlight = new Map<string, bigint>();

  const newerThan = (figure: StockFigure, version: string | bigint | undefined) =>
    version === undefined || BigInt(figure.version) > BigInt(version);

  setHandler(stockFiguresSignal, (figures) => {
    for (const figure of figures) {
      const key = skuKey(figure);
      const held = pending.get(key);
      if (held && !newerThan(figure, held.version) && !(figure.force && figure.version === held.version))
        continue;
      if (!figure.force) {
        if (!newerThan(figure, inFlight.get(key))) continue;
        if (!newerThan(figure, answered.get(key)?.version)) continue;
      }
      pending.set(key, { ...figure, attempt: 1, notBefore: 0 });
    }
  });
  setHandler(pushQueueQuery, () => ({
    waiting: pending.size + inFlight.size,
    retrying: [...pending.values()]
      .filter((figure) => figure.attempt > 1)
      .map(({ itemId, modelId, sellerSku, quantity, attempt }) => ({
        itemId,
        modelId,
        sellerSku,
        quantity,
        attempt,
      })),
  }));

  let calls = 0;
  /** The last turn called the channel: what arrived meanwhile is a gathered burst already. */
  let called = false;
  for (;;) {
    if (pending.size === 0) called = false;
    await condition(() => pending.size > 0);
    const due = Math.min(...[...pending.values()].map((figure) => figure.notBefore));
    if (due > Date.now()) {
      // Wake at the earliest retry, or at once for a fresh figure.
      await condition(() => [...pending.values()].some((figure) => figure.notBefore === 0), due - Date.now());
      continue;
    }
    // A first figure waits a moment for the rest of its burst; what gathered during a call goes at once.
    if (!(called && patched(GO_AFTER_CALL))) await sleep(timing.coalesceMs);
    called = false;
    const now = Date.now();
    const batch: PendingFigure[] = [];
    for (const [key, figure] of pending) {
      if (figure.notBefore > now) continue;
      // The channel already shows this quantity: nothing to tell it (the reconciliation catches drift).
      if (!figure.force && answered.get(key)?.quantity === figure.quantity) {
        pending.delete(key);
        answered.set(key, { version: figure.version, quantity: figure.quantity });
        continue;
      }
      batch.push(figure);
      pending.delete(key);
      inFlight.set(key, BigInt(figure.version));
      if (batch.length === BATCH) break;
    }
    if (batch.length === 0) continue;
    const callId = `${workflowInfo().runId}:${calls++}`;
    let result: Awaited<ReturnType<StockPushActivities['pushStockBatch']>>;
    try {
      result = await push.pushStockBatch({
        tenantId: input.tenantId,
        storeId: input.storeId,
        callId,
        figures: batch,
        maxAttempts: timing.maxAttempts,
      });
    } catch {
      // The activity itself kept failing (database, worker): its figures wait and go again, unless newer came.
      result = {
        lines: batch.map(({ itemId, modelId }) => ({ itemId, modelId, ok: false, retryable: true })),
      };
    }
    called = true;
    for (const figure of batch) inFlight.delete(skuKey(figure));
    if ('storeGone' in result) return;
    const byKey = new Map(result.lines.map((line) => [skuKey(line), line]));
    for (const figure of batch) {
      const key = skuKey(figure);
      const line = byKey.get(key);
      if (pending.has(key)) continue; // a newer figure arrived during the call: it goes next
      if (line && !line.ok && line.retryable && figure.attempt < timing.maxAttempts) {
        const backoff = Math.min(timing.maxBackoffMs, timing.backoffMs * 2 ** (figure.attempt - 1));
        pending.set(key, {
          ...figure,
          attempt: figure.attempt + 1,
          notBefore: Date.now() + Math.max(backoff, line.retryAfterMs ?? 0),
        });
        continue;
      }
      answered.set(key, { version: figure.version, quantity: line?.ok ? figure.quantity : null });
    }
    if (workflowInfo().continueAsNewSuggested && inFlight.size === 0) {
      await continueAsNew<typeof stockPushWorkflow>({
        ...input,
        carried: { pending: [...pending.values()], answered: Object.fromEntries(answered) },
      });
    }
  }
}
