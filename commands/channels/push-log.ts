import { type ChannelUpdatePushed, type PushedLine, pushLogStreamId } from '@domain/channels/push-log';
import { TEXT_LIMITS } from '@domain/shared/limits';
import type { Database } from '@infra/db';
import { DuplicateEventIdError } from '@infra/eventstore/errors';
import type { EventStore } from '@infra/eventstore/port';
import { ChannelError, type UpdateOutcome } from '@integrations/channel/port';
import type { Store } from '@integrations/stores';
import type { Kysely } from 'kysely';
import { eventIdFor } from '../support/ids';

/**
 * One call that tells a channel stock figures or prices, recorded in the push log (domain/channels/push-log.ts):
 * the call is made, each SKU's answer read from the channel's outcomes (or the whole call's failure), and the lot
 * appended as one `ChannelUpdatePushed` whose id is the call's. Called again with the same call id (an activity
 * retried after the worker died), it finds the event and answers from it without calling the channel again.
 * The stock push (`field: 'stock'`) and the price push of price control (`field: 'price'`) both take this path, so
 * one log answers for quantities and prices alike.
 */

export type LineToPush = Omit<PushedLine, 'outcome' | 'answer'>;

export interface PushCall {
  store: Store;
  callId: string;
  field: ChannelUpdatePushed['field'];
  lines: LineToPush[];
  /** The call itself: one outcome per line, in order. */
  call(): Promise<UpdateOutcome[]>;
  /** A retryable refusal at this try is given up (logged as failed). */
  maxAttempts: number;
  /** Who asked for the push, when someone did (a price push). */
  userId?: string | null;
}

export interface RecordedPush {
  lines: PushedLine[];
  /** Per line, how long the channel asked to wait (throttling), when it said. */
  retryAfterMs?: (number | undefined)[];
}

const answerOf = (text: string) => text.slice(0, TEXT_LIMITS.reason);

const pushEventId = (store: Store, callId: string) =>
  eventIdFor(`channel-push:${store.tenantId}:${store.id}:${callId}`);

/** The lines of a call already logged under this call id, if it was. */
export async function loggedPush(
  deps: { store: EventStore },
  store: Store,
  callId: string,
): Promise<PushedLine[] | undefined> {
  const earlier = await deps.store.findEvent(
    pushLogStreamId(store.tenantId, store.id),
    pushEventId(store, callId),
  );
  return earlier ? (earlier.data as ChannelUpdatePushed).lines : undefined;
}

export async function recordPush(
  deps: { db: Kysely<Database>; store: EventStore },
  push: PushCall,
): Promise<RecordedPush> {
  const stream = pushLogStreamId(push.store.tenantId, push.store.id);
  const eventId = pushEventId(push.store, push.callId);
  const earlier = await loggedPush(deps, push.store, push.callId);
  if (earlier) return { lines: earlier };

  const pushedAt = new Date().toISOString();
  const settle = (retryable: boolean, attempt: number) =>
    retryable && attempt < push.maxAttempts ? ('retrying' as const) : ('failed' as const);
  let lines: PushedLine[];
  let retryAfterMs: (number | undefined)[] | undefined;
  try {
    const outcomes = await push.call();
    lines = push.lines.map((line, index) => {
      const outcome = outcomes[index];
      if (outcome?.ok) return { ...line, outcome: 'ok', answer: '' };
      return {
        ...line,
        outcome: settle(outcome?.retryable ?? true, line.attempt),
        answer: answerOf(outcome?.reason ?? 'the channel gave no answer for this SKU'),
      };
    });
  } catch (error) {
    if (!(error instanceof ChannelError)) throw error;
    const code = error.options.channelCode ? `${error.options.channelCode}: ` : '';
    lines = push.lines.map((line) => ({
      ...line,
      outcome: settle(error.retryable, line.attempt),
      answer: answerOf(`${code}${error.message}`),
    }));
    if (error.options.retryAfterMs !== undefined) retryAfterMs = lines.map(() => error.options.retryAfterMs);
  }
  const data: ChannelUpdatePushed = {
    storeId: push.store.id,
    platform: push.store.platform,
    field: push.field,
    lines,
    pushedAt,
  };
  try {
    await deps.store.append(
      stream,
      [
        {
          id: eventId,
          type: 'ChannelUpdatePushed',
          data,
          metadata: {
            tenantId: push.store.tenantId,
            ...(push.userId ? { userId: push.userId } : {}),
            commandId: push.callId,
            correlationId: push.callId,
            occurredAt: pushedAt,
          },
        },
      ],
      { expectedRevision: 'any' },
    );
  } catch (error) {
    if (!(error instanceof DuplicateEventIdError)) throw error;
  }
  return { lines, ...(retryAfterMs ? { retryAfterMs } : {}) };
}
