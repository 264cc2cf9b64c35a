import { masterCodesOfTenant, namedTimeline, placesOfTenant } from '@api/documents';
import { notFound } from '@api/errors';
import type { TimelineEntry } from '@commands/support/document';
import { loadTransfer } from '@commands/transfers/transfer';
import { loadTransferRequest } from '@commands/transfers/transfer-request';
import { inTransit, REQUEST_STATUSES, TRANSFER_STATUSES } from '@domain/transfers/rules';
import type { TransferRequestState } from '@domain/transfers/transfer-request';
import type { Database } from '@infra/db';
import type { EventStore } from '@infra/eventstore/port';
import type { Kysely } from 'kysely';
import { z } from 'zod';

/**
 * One request or transfer as its detail screen shows it: read from its stream (a document is tens of events), its
 * lines with their master codes, who did what when, and its timeline with the people's names.
 */

// ---- answer shapes ----

export const PlaceAnswer = z.object({
  id: z.string(),
  code: z.string().nullable(),
  name: z.string().nullable(),
  kind: z.enum(['warehouse', 'branch']).nullable(),
});
export const MasterCodeAnswer = z.object({
  id: z.string(),
  code: z.string().nullable(),
  name: z.string().nullable(),
});
export const UserAnswer = z.object({ id: z.string(), name: z.string().nullable() });

export const TimelineAnswer = z.object({
  /** The event: TransferRequestCreated, TransferShipped, TransferStepRecorded… */
  type: z.string(),
  at: z.string(),
  user: UserAnswer.nullable(),
  /** The event's data as recorded (ids of master codes and places: named in the document's lines and places). */
  data: z.record(z.string(), z.unknown()),
});

const Stamp = { by: UserAnswer.nullable(), at: z.string().nullable() };
const stamp = z.object(Stamp);

export const RequestDetail = z.object({
  id: z.string(),
  reference: z.string(),
  status: z.enum(REQUEST_STATUSES),
  from_warehouse: PlaceAnswer,
  to_warehouse: PlaceAnswer,
  remark: z.string(),
  reject_reason: z.string().nullable(),
  transfer_id: z.string().nullable(),
  lines: z.array(z.object({ master_code: MasterCodeAnswer, quantity: z.number().int() })),
  created: stamp,
  approved: stamp,
  rejected: stamp,
  cancelled: stamp,
  timeline: z.array(TimelineAnswer),
});
export type RequestDetail = z.infer<typeof RequestDetail>;

export const TransferDetail = z.object({
  id: z.string(),
  reference: z.string(),
  request_id: z.string().nullable(),
  status: z.enum(TRANSFER_STATUSES),
  confirmed: z.boolean(),
  from_warehouse: PlaceAnswer,
  to_warehouse: PlaceAnswer,
  remark: z.string(),
  cancel_reason: z.string().nullable(),
  lines: z.array(
    z.object({
      master_code: MasterCodeAnswer,
      quantity: z.number().int(),
      shipped: z.number().int(),
      received: z.number().int(),
      returned: z.number().int(),
      in_transit: z.number().int(),
    }),
  ),
  created: stamp,
  confirmed_stamp: stamp,
  shipped: stamp,
  received: stamp,
  cancelled: stamp,
  completed: stamp,
  timeline: z.array(TimelineAnswer),
});
export type TransferDetail = z.infer<typeof TransferDetail>;

// ---- building them ----

type Stamps<Name extends string> = Record<Name, { by: string | null; at: string | null }>;

/** Who did each of `which` events (by type), last, and when. */
function stampsOf<Name extends string>(
  timeline: readonly TimelineEntry[],
  which: Record<string, Name>,
): Stamps<Name> {
  const stamps = Object.fromEntries(
    Object.values<Name>(which).map((name) => [name, { by: null, at: null }]),
  ) as Stamps<Name>;
  for (const entry of timeline) {
    const name = which[entry.type];
    if (name) stamps[name] = { by: entry.userId, at: entry.at };
  }
  return stamps;
}

/**
 * The names behind a document's ids: its places, its lines' master codes, and the people of its timeline (the
 * timeline answered with them, and each stamp's person).
 */
async function namesOf<Name extends string>(
  db: Kysely<Database>,
  tenantId: string,
  state: { fromWarehouseId: string; toWarehouseId: string; lines: readonly { masterCodeId: string }[] },
  timeline: readonly TimelineEntry[],
  which: Record<string, Name>,
) {
  const [places, codes, named] = await Promise.all([
    placesOfTenant(db, tenantId, [state.fromWarehouseId, state.toWarehouseId]),
    masterCodesOfTenant(
      db,
      tenantId,
      state.lines.map((line) => line.masterCodeId),
    ),
    namedTimeline(db, tenantId, timeline),
  ]);
  const stamps = stampsOf(timeline, which);
  const place = (id: string) => {
    const found = places.get(id);
    return { id, code: found?.code ?? null, name: found?.name ?? null, kind: found?.kind ?? null };
  };
  return {
    from_warehouse: place(state.fromWarehouseId),
    to_warehouse: place(state.toWarehouseId),
    masterCode: (id: string) => {
      const found = codes.get(id);
      return { id, code: found?.code ?? null, name: found?.name ?? null };
    },
    stamps,
    stamp: (name: Name) => ({ by: named.person(stamps[name].by), at: stamps[name].at }),
    timeline: named.timeline,
  };
}

/** The request, or 404 (also for another account's: its stream is not under this account). */
export async function requestDetail(
  db: Kysely<Database>,
  store: EventStore,
  tenantId: string,
  requestId: string,
): Promise<RequestDetail> {
  const { state, timeline } = await loadTransferRequest(store, tenantId, requestId);
  if (state.status === 'none') throw notFound();
  return describeRequest(db, tenantId, requestId, state, timeline);
}

export async function describeRequest(
  db: Kysely<Database>,
  tenantId: string,
  requestId: string,
  state: Exclude<TransferRequestState, { status: 'none' }>,
  timeline: readonly TimelineEntry[],
): Promise<RequestDetail> {
  const named = await namesOf(db, tenantId, state, timeline, {
    TransferRequestCreated: 'created',
    TransferRequestApproved: 'approved',
    TransferRequestRejected: 'rejected',
    TransferRequestCancelled: 'cancelled',
  });
  return {
    id: requestId,
    reference: state.reference,
    status: state.status,
    from_warehouse: named.from_warehouse,
    to_warehouse: named.to_warehouse,
    remark: state.remark,
    reject_reason: state.rejectReason,
    transfer_id: state.transferId,
    lines: state.lines.map((line) => ({
      master_code: named.masterCode(line.masterCodeId),
      quantity: line.quantity,
    })),
    created: named.stamp('created'),
    approved: named.stamp('approved'),
    rejected: named.stamp('rejected'),
    cancelled: named.stamp('cancelled'),
    timeline: named.timeline,
  };
}

/** The transfer, or 404 (also for another account's). */
export async function transferDetail(
  db: Kysely<Database>,
  store: EventStore,
  tenantId: string,
  transferId: string,
): Promise<TransferDetail> {
  const { state, timeline } = await loadTransfer(store, tenantId, transferId);
  if (state.status === 'none') throw notFound();
  const named = await namesOf(db, tenantId, state, timeline, {
    TransferCreated: 'created',
    TransferConfirmed: 'confirmed',
    TransferShipped: 'shipped',
    TransferReceived: 'received',
    TransferCancelled: 'cancelled',
    TransferCompleted: 'completed',
  });
  const cancelled = timeline.findLast((entry) => entry.type === 'TransferCancelled');
  return {
    id: transferId,
    reference: state.reference,
    request_id: state.requestId,
    status: state.status,
    confirmed: state.confirmed,
    from_warehouse: named.from_warehouse,
    to_warehouse: named.to_warehouse,
    remark: state.remark,
    cancel_reason: cancelled ? (cancelled.data as { reason: string }).reason || null : null,
    lines: state.lines.map((line) => ({
      master_code: named.masterCode(line.masterCodeId),
      quantity: line.quantity,
      shipped: line.shipped,
      received: line.received,
      returned: line.returned,
      in_transit: inTransit(line),
    })),
    created: named.stamp('created'),
    // A transfer shipped unconfirmed counts as confirmed by its shipment.
    confirmed_stamp: named.stamps.confirmed.at ? named.stamp('confirmed') : named.stamp('shipped'),
    shipped: named.stamp('shipped'),
    received: named.stamp('received'),
    cancelled: named.stamp('cancelled'),
    completed: named.stamp('completed'),
    timeline: named.timeline,
  };
}
