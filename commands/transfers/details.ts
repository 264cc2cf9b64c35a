import type { RequestDetail, TransferDetail } from '@api/contracts/transfers';
import { allowedActions, allowedRequestActions, inTransit, refuseTransfer } from '@domain/transfers/rules';
import type { Database } from '@infra/db';
import type { EventStore } from '@infra/eventstore/port';
import { masterCodesOfTenant, placesOfTenant } from '@projections/documents.queries';
import type { Kysely } from 'kysely';
import type { TimelineEntry } from '../support/document';
import { namedTimeline } from '../support/named-timeline';
import { shortfallsAt } from './shortfalls';
import { documentIdOf } from './support';
import { loadTransfer } from './transfer';
import { loadTransferRequest } from './transfer-request';

/**
 * One request or transfer as its detail screen shows it: read from its stream (a document is tens of events), its
 * lines with their master codes, who did what when, its timeline with the people's names, and the actions its
 * state allows.
 */

interface DetailDeps {
  db: Kysely<Database>;
  store: EventStore;
}

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
  // An edit's earlier lines and destination stay named on the timeline.
  const earlier = timeline.flatMap((entry) =>
    entry.type === 'TransferCreated' || entry.type === 'TransferEdited'
      ? [entry.data as { toWarehouseId: string; lines: { masterCodeId: string }[] }]
      : [],
  );
  const placeIds = new Set([
    state.fromWarehouseId,
    state.toWarehouseId,
    ...earlier.map((e) => e.toWarehouseId),
  ]);
  const codeIds = new Set(
    [...state.lines, ...earlier.flatMap((e) => e.lines)].map((line) => line.masterCodeId),
  );
  const [places, codes, named] = await Promise.all([
    placesOfTenant(db, tenantId, placeIds),
    masterCodesOfTenant(db, tenantId, codeIds),
    namedTimeline(db, tenantId, timeline),
  ]);
  const stamps = stampsOf(timeline, which);
  const place = (id: string) => {
    const found = places.get(id);
    return { id, code: found?.code ?? null, name: found?.name ?? null, kind: found?.kind ?? null };
  };
  const masterCode = (id: string) => {
    const found = codes.get(id);
    return { id, code: found?.code ?? null, name: found?.name ?? null };
  };
  return {
    from_warehouse: place(state.fromWarehouseId),
    to_warehouse: place(state.toWarehouseId),
    masterCode,
    mentioned: { master_codes: [...codeIds].map(masterCode), places: [...placeIds].map(place) },
    stamps,
    stamp: (name: Name) => ({ by: named.person(stamps[name].by), at: stamps[name].at }),
    timeline: named.timeline,
  };
}

/** The request, or not found (also another account's, or an id that is not a uuid). */
export async function requestDetail(deps: DetailDeps, tenantId: string, id: string): Promise<RequestDetail> {
  const { db } = deps;
  const requestId = documentIdOf(id);
  const { state, timeline } = await loadTransferRequest(deps.store, tenantId, requestId);
  if (state.status === 'none') throw refuseTransfer('DOCUMENT_NOT_FOUND');
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
    actions: allowedRequestActions(state.status),
  };
}

/** The transfer, or not found (also another account's). */
export async function transferDetail(
  deps: DetailDeps,
  tenantId: string,
  id: string,
): Promise<TransferDetail> {
  const { db } = deps;
  const transferId = documentIdOf(id);
  const { state, timeline, revision } = await loadTransfer(deps.store, tenantId, transferId);
  if (state.status === 'none') throw refuseTransfer('DOCUMENT_NOT_FOUND');
  const shortfalls =
    state.status === 'pending'
      ? await shortfallsAt(deps.store, tenantId, state.fromWarehouseId, state.lines)
      : [];
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
    mentioned: named.mentioned,
    actions: allowedActions(state),
    revision,
    shortfalls: shortfalls.map((line) => ({
      master_code: named.masterCode(line.masterCodeId),
      quantity: line.quantity,
      on_hand: line.onHand,
    })),
  };
}
