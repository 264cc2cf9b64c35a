import { TEXT_LIMITS } from '@domain/shared/limits';
import { type GinDetail, QUANTITY_MAX, useSaveGoodsIssue } from '@web/api/goods-issue';
import { ModalDialog } from '@web/components/modal-dialog';
import { FormMessage, fieldErrorsOf, messageOf, TextAreaField, TextField } from '@web/shell/form';
import { useNotify } from '@web/shell/notifications';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MasterCodePicker, type PickedMasterCode } from '../inventory/stock-common/master-code-picker';
import { PlaceSelect } from '../inventory/stock-common/place-select';

/**
 * A goods issue note's draft: the warehouse the goods leave, a reference, the reason, a remark, and its lines (a
 * standard master code each, once, with a quantity). Creates a note, or edits the creator's draft.
 */

interface Line {
  masterCode: PickedMasterCode;
  quantity: string;
}

type Field = 'warehouse' | 'reference' | 'reason' | 'remark' | 'lines';

export function NoteForm({
  note,
  onClose,
  onSaved,
}: {
  /** The draft to edit; absent, a new note. */
  note?: GinDetail;
  onClose(): void;
  onSaved(note: GinDetail): void;
}) {
  const { t } = useTranslation('goods-issue');
  const notify = useNotify();
  const formId = useId();
  const save = useSaveGoodsIssue();
  const [warehouseId, setWarehouseId] = useState(note?.warehouse.id ?? '');
  const [reference, setReference] = useState(note?.reference ?? '');
  const [reason, setReason] = useState(note?.reason ?? '');
  const [remark, setRemark] = useState(note?.remark ?? '');
  const [lines, setLines] = useState<Line[]>(
    note?.lines.map((line) => ({ masterCode: line.master_code, quantity: String(line.quantity) })) ?? [],
  );
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [failure, setFailure] = useState<string | null>(null);

  function check(): Partial<Record<Field, string>> {
    const found: Partial<Record<Field, string>> = {};
    if (!warehouseId) found.warehouse = t('form.errors.warehouse');
    if (!reference.trim()) found.reference = t('form.errors.reference');
    if (!reason.trim()) found.reason = t('form.errors.reason');
    if (lines.length === 0) found.lines = t('form.errors.lines');
    else if (
      lines.some((line) => {
        const value = /^\d+$/.test(line.quantity.trim()) ? Number(line.quantity) : Number.NaN;
        return !Number.isInteger(value) || value < 1 || value > QUANTITY_MAX;
      })
    )
      found.lines = t('form.errors.quantity');
    return found;
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found = check();
    setErrors(found);
    setFailure(null);
    if (Object.keys(found).length > 0) return;
    try {
      const answer = await save.mutateAsync({
        ...(note ? { id: note.id } : {}),
        body: {
          warehouse_id: warehouseId,
          reference: reference.trim(),
          reason: reason.trim(),
          remark: remark.trim(),
          lines: lines.map((line) => ({
            master_code_id: line.masterCode.id,
            quantity: Number(line.quantity),
          })),
        },
      });
      notify({ kind: 'success', message: answer.msg });
      onSaved(answer.data);
    } catch (error) {
      setFailure(messageOf(error));
      // Every field the API refused, beside its field (a line's under the lines).
      const fields = fieldErrorsOf(error);
      setErrors({
        warehouse: fields.warehouse_id,
        reference: fields.reference,
        reason: fields.reason,
        remark: fields.remark,
        lines: fields.lines ?? fields.quantity ?? fields.master_code_id,
      });
    }
  }

  function add(masterCode: PickedMasterCode | null) {
    if (!masterCode) return;
    setErrors((current) => ({ ...current, lines: undefined }));
    setLines((current) =>
      current.some((line) => line.masterCode.id === masterCode.id)
        ? current
        : [...current, { masterCode, quantity: '1' }],
    );
  }

  return (
    <ModalDialog
      title={note ? t('form.edit_title', { reference: note.reference }) : t('form.new_title')}
      onClose={onClose}
      closeLabel={t('actions.close')}
      size="large"
      footer={
        <>
          <button
            type="button"
            className="button button-secondary"
            onClick={onClose}
            disabled={save.isPending}
          >
            {t('actions.close')}
          </button>
          <button type="submit" form={formId} className="button button-primary" disabled={save.isPending}>
            {note ? t('actions.save') : t('actions.create')}
          </button>
        </>
      }
    >
      <form id={formId} onSubmit={submit} noValidate aria-label={t('form.label')}>
        {failure && <FormMessage kind="error">{failure}</FormMessage>}
        <PlaceSelect
          label={t('form.warehouse')}
          value={warehouseId}
          onChange={(id) => {
            setWarehouseId(id);
            setErrors((current) => ({ ...current, warehouse: undefined }));
          }}
          error={errors.warehouse}
          required
        />
        <TextField
          label={t('form.reference')}
          value={reference}
          limit={TEXT_LIMITS.reference}
          onChange={(event) => setReference(event.target.value)}
          error={errors.reference}
          required
        />
        <TextField
          label={t('form.reason')}
          value={reason}
          limit={TEXT_LIMITS.reason}
          onChange={(event) => setReason(event.target.value)}
          error={errors.reason}
          required
        />
        <TextAreaField
          label={t('form.remark')}
          value={remark}
          limit={TEXT_LIMITS.note}
          onChange={(event) => setRemark(event.target.value)}
          error={errors.remark}
        />
        <fieldset className="gin-lines-editor">
          <legend className="field-label">{t('form.lines')}</legend>
          <MasterCodePicker
            label={t('form.add_line')}
            value={null}
            onChange={add}
            type="standard"
            clearOnPick
          />
          {lines.length === 0 ? (
            <p className="muted">{t('form.no_lines')}</p>
          ) : (
            <table className="gin-table">
              <thead>
                <tr>
                  <th scope="col">{t('detail.line_code')}</th>
                  <th scope="col">{t('detail.line_name')}</th>
                  <th scope="col">{t('form.quantity')}</th>
                  <th scope="col">
                    <span className="visually-hidden">{t('form.remove')}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {lines.map((line, index) => (
                  <tr key={line.masterCode.id}>
                    <td>{line.masterCode.code}</td>
                    <td>{line.masterCode.name}</td>
                    <td>
                      <input
                        className="input gin-line-quantity"
                        inputMode="numeric"
                        aria-label={t('form.quantity_named', { code: line.masterCode.code })}
                        value={line.quantity}
                        onChange={(event) => {
                          const quantity = event.target.value;
                          setLines((current) =>
                            current.map((other, at) => (at === index ? { ...other, quantity } : other)),
                          );
                        }}
                      />
                    </td>
                    <td>
                      <button
                        type="button"
                        className="button button-small"
                        aria-label={t('form.remove_named', { code: line.masterCode.code })}
                        onClick={() => setLines((current) => current.filter((_, at) => at !== index))}
                      >
                        {t('form.remove')}
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {errors.lines && (
            <p className="field-error" role="alert">
              {errors.lines}
            </p>
          )}
        </fieldset>
      </form>
    </ModalDialog>
  );
}
