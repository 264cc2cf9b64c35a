import type { MasterCodeRef, PlaceRef, Stamp, TimelineEntry } from '@web/api/transfers';
import { ModalDialog } from '@web/components/modal-dialog';
import { FormMessage } from '@web/shell/form';
import { useDateTime } from '@web/shell/format';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Timeline } from './timeline';

/**
 * A request's or transfer's dialog: the actions its state allows in the footer beside "close", what failed, then
 * `children` (its facts and lines) and its timeline, once the document is read.
 */
export function DocumentDialog({
  title,
  document,
  loadError,
  failure,
  actions,
  onClose,
  children,
}: {
  /** Undefined while the document is read. */
  title: string | undefined;
  document:
    | {
        from_warehouse: PlaceRef;
        to_warehouse: PlaceRef;
        lines: readonly { master_code: MasterCodeRef }[];
        timeline: TimelineEntry[];
        /** Every master code and place its timeline names (a transfer's edits name earlier ones). */
        mentioned?: { master_codes: MasterCodeRef[]; places: PlaceRef[] };
      }
    | undefined;
  loadError: Error | null;
  failure: string | null;
  actions: ReactNode;
  onClose(): void;
  children: ReactNode;
}) {
  const { t } = useTranslation('transfers');
  return (
    <ModalDialog
      title={title ?? t('detail.loading')}
      onClose={onClose}
      closeLabel={t('actions.close_dialog')}
      size="large"
      footer={
        <>
          {actions}
          <button type="button" className="button" onClick={onClose}>
            {t('actions.close')}
          </button>
        </>
      }
    >
      {loadError && <FormMessage kind="error">{loadError.message}</FormMessage>}
      {failure && <FormMessage kind="error">{failure}</FormMessage>}
      {document && (
        <div className="transfer-detail">
          {children}
          <h3 className="transfer-section-title">{t('timeline.title')}</h3>
          <Timeline
            entries={document.timeline}
            masterCodes={document.mentioned?.master_codes ?? document.lines.map((line) => line.master_code)}
            places={document.mentioned?.places ?? [document.from_warehouse, document.to_warehouse]}
          />
        </div>
      )}
    </ModalDialog>
  );
}

/** One fact of a document's list of facts (its terms and their values). */
export function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </>
  );
}

/** Who did something to the document and when, once it was done. */
export function StampFact({ label, stamp }: { label: string; stamp: Stamp }) {
  const when = useDateTime();
  return stamp.at ? (
    <Fact label={label}>
      {stamp.by?.name ?? ''} · {when(stamp.at)}
    </Fact>
  ) : null;
}

/** A place as the transfer screens name it: its code and name (its id while they are unknown). */
export const placeLabel = (place: PlaceRef) => (place.code ? `${place.code} — ${place.name}` : place.id);

/** Where the document moves stock from and to. */
export function PlaceFacts({ document }: { document: { from_warehouse: PlaceRef; to_warehouse: PlaceRef } }) {
  const { t } = useTranslation('transfers');
  return (
    <>
      <Fact label={t('columns.from')}>{placeLabel(document.from_warehouse)}</Fact>
      <Fact label={t('columns.to')}>{placeLabel(document.to_warehouse)}</Fact>
    </>
  );
}

/** A line's master code in a document's table: its code, then its name. */
export function MasterCodeCell({ masterCode }: { masterCode: MasterCodeRef }) {
  return (
    <td>
      <strong>{masterCode.code}</strong> <span className="muted">{masterCode.name}</span>
    </td>
  );
}
