import type { MasterCodeRef, PlaceRef, TimelineEntry } from '@web/api/transfers';
import { DocumentTimeline } from '@web/components/document-timeline';
import { useTranslation } from 'react-i18next';

/**
 * A document's timeline (issue 5: who, what, when): each event of its stream in the reader's language, with the
 * person's name and the time, in the seller's words (never an event or step name). A transfer's stock steps show
 * what moved where; an undo that ran shows what it put back.
 */

interface Movement {
  type: 'TransferStockOut' | 'TransferStockIn' | 'ExpectStock' | 'CancelExpectedStock';
  masterCodeId: string;
  warehouseId: string;
  quantity: number;
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
