import { REFERENCE_MAX, REMARK_MAX, useCreateDocument, useTransferPlaces } from '@web/api/transfers';
import { ModalDialog } from '@web/components/modal-dialog';
import { FormMessage, fieldErrorsOf, messageOf, TextAreaField, TextField } from '@web/shell/form';
import { useNotify } from '@web/shell/notifications';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type DraftLine, isQuantity, LinesEditor } from './components/lines-editor';
import { PlaceSelect } from './components/place-select';

/**
 * A new transfer request (a branch asks for stock) or a transfer made directly (spec §3: from and to branch,
 * reference, quantities, remark). The source and destination must differ (spec §5); every line a standard master
 * code once, with a whole quantity of at least 1. The server checks all of it again.
 */
export function DocumentForm({
  kind,
  onClose,
  onSaved,
}: {
  kind: 'request' | 'transfer';
  onClose(): void;
  onSaved(id: string): void;
}) {
  const { t } = useTranslation('transfers');
  const notify = useNotify();
  const formId = useId();
  const create = useCreateDocument(kind);
  const places = useTransferPlaces();
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [reference, setReference] = useState('');
  const [remark, setRemark] = useState('');
  const [lines, setLines] = useState<DraftLine[]>([]);
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const [lineErrors, setLineErrors] = useState<Record<string, string | undefined>>({});
  const [failure, setFailure] = useState<string | null>(null);

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
      const answer = await create.mutateAsync({
        from_warehouse_id: from,
        to_warehouse_id: to,
        reference: reference.trim(),
        remark: remark.trim(),
        lines: lines.map((line) => ({ master_code_id: line.masterCode.id, quantity: Number(line.quantity) })),
      });
      notify({ kind: 'success', message: answer.msg });
      onSaved(answer.data.id);
    } catch (error) {
      setFailure(messageOf(error));
      setErrors(fieldErrorsOf(error));
    }
  }

  const title = kind === 'request' ? t('form.new_request') : t('form.new_transfer');
  return (
    <ModalDialog
      title={title}
      onClose={onClose}
      closeLabel={t('actions.close_dialog')}
      size="large"
      footer={
        <>
          <button type="button" className="button" onClick={onClose} disabled={create.isPending}>
            {t('actions.close')}
          </button>
          <button type="submit" form={formId} className="button button-primary" disabled={create.isPending}>
            {kind === 'request' ? t('form.submit_request') : t('form.submit_transfer')}
          </button>
        </>
      }
    >
      <form id={formId} className="form" onSubmit={submit} noValidate aria-label={title}>
        {failure && <FormMessage kind="error">{failure}</FormMessage>}
        <div className="form-grid">
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
            hint={t('form.reference_hint')}
            value={reference}
            maxLength={REFERENCE_MAX}
            onChange={(event) => setReference(event.target.value)}
            error={errors.reference}
          />
        </div>
        <LinesEditor
          lines={lines}
          onChange={(next) => {
            setLines(next);
            setErrors((current) => ({ ...current, lines: undefined }));
          }}
          error={errors.lines}
          lineErrors={lineErrors}
        />
        <TextAreaField
          label={t('form.remark')}
          value={remark}
          maxLength={REMARK_MAX}
          onChange={(event) => setRemark(event.target.value)}
          error={errors.remark}
        />
      </form>
    </ModalDialog>
  );
}
