import {
  REFERENCE_MAX,
  REMARK_MAX,
  type TransferDetail,
  useCreateDocument,
  useEditTransfer,
  useShortfalls,
  useTransferPlaces,
} from '@web/api/transfers';
import { ModalDialog } from '@web/components/modal-dialog';
import { FormMessage, fieldErrorsOf, messageOf, TextAreaField, TextField } from '@web/shell/form';
import { useNotify } from '@web/shell/notifications';
import { useDebounced } from '@web/shell/use-debounced';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { placeLabel } from './components/document-dialog';
import { type DraftLine, isQuantity, LinesEditor } from './components/lines-editor';
import { PlaceSelect } from './components/place-select';

/** A document's line as the form edits it (a master code read back from a document is taken as active). */
const draftOf = (line: TransferDetail['lines'][number]): DraftLine => ({
  masterCode: {
    id: line.master_code.id,
    code: line.master_code.code ?? line.master_code.id,
    name: line.master_code.name ?? '',
    status: 'active',
  },
  quantity: String(line.quantity),
});

/**
 * A new transfer request (a branch asks for stock) or a transfer made directly (spec §3: from and to branch,
 * reference, quantities, remark), or a pending transfer edited (its source and reference stay). The source and
 * destination must differ (spec §5); every line a standard master code once, with a whole quantity of at least 1.
 * A line asking for more than the source has on hand is warned beside it as it is typed, and may still be saved:
 * shipping is what refuses it. The server checks all of it again.
 */
export function DocumentForm({
  kind,
  editing,
  onClose,
  onSaved,
}: {
  kind: 'request' | 'transfer';
  /** The pending transfer to edit, as its detail was read (its revision goes with the edit). */
  editing?: TransferDetail;
  onClose(): void;
  onSaved(id: string): void;
}) {
  const { t } = useTranslation('transfers');
  const notify = useNotify();
  const formId = useId();
  const create = useCreateDocument(kind);
  const edit = useEditTransfer(editing?.id ?? '');
  const saving = create.isPending || edit.isPending;
  const places = useTransferPlaces();
  const [from, setFrom] = useState(editing?.from_warehouse.id ?? '');
  const [to, setTo] = useState(editing?.to_warehouse.id ?? '');
  const [reference, setReference] = useState(editing?.reference ?? '');
  const [remark, setRemark] = useState(editing?.remark ?? '');
  const [lines, setLines] = useState<DraftLine[]>(editing?.lines.map(draftOf) ?? []);
  // The revision the form was opened on, kept even if the detail is read again meanwhile: a change made by someone
  // else since then must refuse this edit, not be overwritten by it.
  const [revision] = useState(editing?.revision ?? 0);
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const [lineErrors, setLineErrors] = useState<Record<string, string | undefined>>({});
  const [failure, setFailure] = useState<string | null>(null);

  const sent = (draft: DraftLine[]) =>
    draft.map((line) => ({ master_code_id: line.masterCode.id, quantity: Number(line.quantity) }));
  const checked = lines.filter((line) => isQuantity(line.quantity));
  // Asked once typing pauses, not on every keystroke (the lines as they stood then; the query key compares them).
  const settled = useDebounced(lines).filter((line) => isQuantity(line.quantity));
  const shortfalls = useShortfalls(
    from && settled.length > 0 ? { from_warehouse_id: from, lines: sent(settled) } : null,
  );
  // Only answers about the lines as they stand now (the previous answer shows while the next is asked).
  const short = (from ? (shortfalls.data ?? []) : []).filter((found) =>
    checked.some(
      (line) => line.masterCode.id === found.master_code.id && Number(line.quantity) === found.quantity,
    ),
  );
  const lineWarnings = Object.fromEntries(
    short.map((found) => [
      found.master_code.id,
      t('form.shortfall', { onHand: found.on_hand, quantity: found.quantity }),
    ]),
  );

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFailure(null);
    const found: Record<string, string> = {};
    if (!from) found.from_warehouse_id = t('form.errors.from_required');
    if (!to) found.to_warehouse_id = t('form.errors.to_required');
    if (from && to && from === to) {
      // Warehouses where the seller chose warehouses: the spec's words name branches.
      const branch = places.data?.find((place) => place.id === from)?.kind === 'branch';
      found.to_warehouse_id = t(branch ? 'form.errors.same_branch' : 'form.errors.same_warehouse');
    }
    if (lines.length === 0) found.lines = t('form.errors.lines_required');
    const badLines: Record<string, string> = {};
    for (const line of lines) {
      if (!isQuantity(line.quantity)) badLines[line.masterCode.id] = t('form.errors.quantity');
    }
    setErrors(found);
    setLineErrors(badLines);
    if (Object.keys(found).length > 0 || Object.keys(badLines).length > 0) return;
    try {
      const answer = editing
        ? await edit.mutateAsync({
            revision,
            to_warehouse_id: to,
            remark: remark.trim(),
            lines: sent(lines),
          })
        : await create.mutateAsync({
            from_warehouse_id: from,
            to_warehouse_id: to,
            reference: reference.trim(),
            remark: remark.trim(),
            lines: sent(lines),
          });
      notify({ kind: 'success', message: answer.msg });
      onSaved(answer.data.id);
    } catch (error) {
      setFailure(messageOf(error));
      setErrors(fieldErrorsOf(error));
    }
  }

  const title = editing
    ? t('form.edit_transfer', { reference: editing.reference })
    : kind === 'request'
      ? t('form.new_request')
      : t('form.new_transfer');
  const submitLabel = editing
    ? t('form.submit_edit')
    : kind === 'request'
      ? t('form.submit_request')
      : t('form.submit_transfer');
  return (
    <ModalDialog
      title={title}
      onClose={onClose}
      closeLabel={t('actions.close_dialog')}
      size="large"
      footer={
        <>
          <button type="button" className="button" onClick={onClose} disabled={saving}>
            {t('actions.close')}
          </button>
          <button type="submit" form={formId} className="button button-primary" disabled={saving}>
            {submitLabel}
          </button>
        </>
      }
    >
      <form id={formId} className="form" onSubmit={submit} noValidate aria-label={title}>
        {failure && <FormMessage kind="error">{failure}</FormMessage>}
        <div className="form-grid">
          {editing ? (
            <TextField label={t('form.from')} value={placeLabel(editing.from_warehouse)} readOnly />
          ) : (
            <PlaceSelect
              label={t('form.from')}
              value={from}
              onChange={(id) => {
                setFrom(id);
                setErrors((current) => ({
                  ...current,
                  from_warehouse_id: undefined,
                  to_warehouse_id: undefined,
                }));
              }}
              error={errors.from_warehouse_id}
              required
            />
          )}
          <PlaceSelect
            label={t('form.to')}
            value={to}
            onChange={(id) => {
              setTo(id);
              setErrors((current) => ({ ...current, to_warehouse_id: undefined }));
            }}
            error={errors.to_warehouse_id}
            required
          />
          <TextField
            label={t('form.reference')}
            hint={editing ? undefined : t('form.reference_hint')}
            value={reference}
            readOnly={editing !== undefined}
            limit={REFERENCE_MAX}
            onChange={(event) => setReference(event.target.value)}
            error={errors.reference}
          />
        </div>
        {short.length > 0 && (
          <div className="transfer-shortfalls" role="status">
            {t('form.shortfalls', { count: short.length })}
          </div>
        )}
        <LinesEditor
          lines={lines}
          onChange={(next) => {
            setLines(next);
            setErrors((current) => ({ ...current, lines: undefined }));
          }}
          error={errors.lines}
          lineErrors={lineErrors}
          lineWarnings={lineWarnings}
        />
        <TextAreaField
          label={t('form.remark')}
          value={remark}
          limit={REMARK_MAX}
          onChange={(event) => setRemark(event.target.value)}
          error={errors.remark}
        />
      </form>
    </ModalDialog>
  );
}
