import type { MasterCodeRef, PlaceRef, TimelineEntry } from '@web/api/transfers';
import { DocumentTimeline } from '@web/components/document-timeline';
import { useTranslation } from 'react-i18next';

/**
 * A document's timeline (issue 5: who, what, when): each event of its stream in the reader's language, with the
 * person's name and the time, in the seller's words (never an event or step name). A transfer's stock steps show
 * what moved where; an undo that ran shows what it put back; an edit, what it changed from the transfer before it.
 */

interface Movement {
  type: 'TransferStockOut' | 'TransferStockIn' | 'ExpectStock' | 'CancelExpectedStock';
  masterCodeId: string;
  warehouseId: string;
  quantity: number;
}

interface Line {
  masterCodeId: string;
  quantity: number;
}

/** What a transfer looked like before an edit: its creation, and each edit since, folded in timeline order. */
interface Shape {
  toWarehouseId: string;
  remark: string;
  lines: Line[];
}

type EditChange =
  | { kind: 'quantity'; masterCodeId: string; before: number; after: number }
  | { kind: 'added'; masterCodeId: string; quantity: number }
  | { kind: 'removed'; masterCodeId: string }
  | { kind: 'destination'; before: string; after: string }
  | { kind: 'remark' };

function changesOf(before: Shape, after: Shape): EditChange[] {
  const was = new Map(before.lines.map((line) => [line.masterCodeId, line.quantity]));
  const now = new Map(after.lines.map((line) => [line.masterCodeId, line.quantity]));
  const changes: EditChange[] = [];
  for (const line of after.lines) {
    const old = was.get(line.masterCodeId);
    if (old === undefined) changes.push({ kind: 'added', ...line });
    else if (old !== line.quantity)
      changes.push({ kind: 'quantity', masterCodeId: line.masterCodeId, before: old, after: line.quantity });
  }
  for (const line of before.lines) {
    if (!now.has(line.masterCodeId)) changes.push({ kind: 'removed', masterCodeId: line.masterCodeId });
  }
  if (before.toWarehouseId !== after.toWarehouseId)
    changes.push({ kind: 'destination', before: before.toWarehouseId, after: after.toWarehouseId });
  if (before.remark !== after.remark) changes.push({ kind: 'remark' });
  return changes;
}

/** Each edit of the timeline with what it changed from the shape before it. */
function editsOf(entries: readonly TimelineEntry[]): Map<TimelineEntry, EditChange[]> {
  const edits = new Map<TimelineEntry, EditChange[]>();
  let shape: Shape | null = null;
  for (const entry of entries) {
    if (entry.type !== 'TransferCreated' && entry.type !== 'TransferEdited') continue;
    const next = entry.data as unknown as Shape;
    if (entry.type === 'TransferEdited' && shape) edits.set(entry, changesOf(shape, next));
    shape = next;
  }
  return edits;
}

const total = (lines: unknown) =>
  Array.isArray(lines)
    ? lines.reduce((sum: number, line: { quantity: number }) => sum + line.quantity, 0)
    : 0;

export function Timeline({
  entries,
  masterCodes,
  places,
}: {
  entries: TimelineEntry[];
  masterCodes: readonly MasterCodeRef[];
  places: readonly PlaceRef[];
}) {
  const { t } = useTranslation('transfers');
  const codeOf = (id: string) => masterCodes.find((item) => item.id === id)?.code ?? id;
  const placeOf = (id: string) => {
    const place = places.find((item) => item.id === id);
    return place?.code ?? place?.name ?? id;
  };
  const edits = editsOf(entries);
  const change = (item: EditChange) => {
    switch (item.kind) {
      case 'quantity':
        return t('timeline.edit.quantity', {
          code: codeOf(item.masterCodeId),
          before: item.before,
          after: item.after,
        });
      case 'added':
        return t('timeline.edit.added', { code: codeOf(item.masterCodeId), quantity: item.quantity });
      case 'removed':
        return t('timeline.edit.removed', { code: codeOf(item.masterCodeId) });
      case 'destination':
        return t('timeline.edit.destination', { before: placeOf(item.before), after: placeOf(item.after) });
      case 'remark':
        return t('timeline.edit.remark');
      default: {
        const unknown: never = item;
        throw new Error(`unknown edit ${(unknown as { kind: string }).kind}`);
      }
    }
  };
  const movement = (item: Movement) =>
    t(`timeline.movement.${item.type}`, {
      quantity: item.quantity,
      code: codeOf(item.masterCodeId),
      place: placeOf(item.warehouseId),
    });

  function describe(entry: TimelineEntry): string {
    const data = entry.data;
    switch (entry.type) {
      case 'TransferRequestRejected':
        return t('timeline.TransferRequestRejected', { reason: String(data.reason ?? '') });
      case 'TransferEdited':
        return t('timeline.TransferEdited', { changes: (edits.get(entry) ?? []).map(change).join('; ') });
      case 'TransferShipped':
      case 'TransferReceived':
      case 'TransferRestReturned':
        return t(`timeline.${entry.type}`, { quantity: total(data.lines) });
      case 'TransferCancelled':
        return data.reason
          ? t('timeline.TransferCancelledWithReason', { reason: String(data.reason) })
          : t('timeline.TransferCancelled');
      case 'TransferActionFailed':
        return t('timeline.TransferActionFailed', {
          action: t(`actions.${String(data.action)}`),
          why: t([`timeline.failure.${String(data.code)}`, 'timeline.failure.other']),
        });
      case 'TransferStepRecorded':
        // What moved, not the undo the workflow keeps for itself: that one shows only if it ever runs.
        return t('timeline.TransferStepRecorded', { movement: movement(data.movement as Movement) });
      case 'TransferStepCompensated':
        return t('timeline.TransferStepCompensated', {
          movements: (data.movements as Movement[]).map(movement).join('; '),
        });
      default:
        return t([`timeline.${entry.type}`, 'timeline.other']);
    }
  }

  return (
    <DocumentTimeline
      label={t('timeline.title')}
      items={entries}
      describe={describe}
      by={(entry) => (entry.user ? (entry.user.name ?? entry.user.id) : null)}
      minor={(entry) => entry.type.startsWith('TransferStep')}
    />
  );
}
