import { TEXT_LIMITS } from '@domain/shared/limits';
import { RACK_STATUSES, type Rack, type RackStatus, useCreateRack, useUpdateRack } from '@web/api/racks';
import { useAllPlaces } from '@web/api/warehouses';
import { ModalDialog } from '@web/components/modal-dialog';
import {
  FormMessage,
  fieldErrorsOf,
  messageOf,
  SelectField,
  TextAreaField,
  TextField,
} from '@web/shell/form';
import { useNotify } from '@web/shell/notifications';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** A rack (spec §3 "Rack location": name, status occupied or available, note) in a warehouse or branch. */
export function RackForm({
  rack,
  warehouseId,
  onClose,
  onSaved,
}: {
  /** null: a new rack. */
  rack: Rack | null;
  /** A new rack's place to start with. */
  warehouseId: string | null;
  onClose(): void;
  onSaved(): void;
}) {
  const { t } = useTranslation('inventory');
  const notify = useNotify();
  const formId = useId();
  const { places } = useAllPlaces();
  const create = useCreateRack();
  const update = useUpdateRack();
  const [place, setPlace] = useState(rack?.warehouse.id ?? warehouseId ?? '');
  const [name, setName] = useState(rack?.name ?? '');
  const [status, setStatus] = useState<RackStatus>(rack?.status ?? 'available');
  const [note, setNote] = useState(rack?.note ?? '');
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const busy = create.isPending || update.isPending;

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFailure(null);
    const found: Record<string, string> = {};
    if (!place) found.warehouse_id = t('racks.errors.warehouse');
    if (!name.trim()) found.name = t('racks.errors.name_required');
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const fields = { name: name.trim(), status, note: note.trim() };
    try {
      const answer = rack
        ? await update.mutateAsync({ id: rack.id, changes: fields })
        : await create.mutateAsync({ ...fields, warehouse_id: place });
      notify({ kind: 'success', message: answer.msg });
      onSaved();
    } catch (error) {
      setFailure(messageOf(error));
      setErrors(fieldErrorsOf(error));
    }
  }

  return (
    <ModalDialog
      title={rack ? t('racks.edit_title') : t('racks.add_title')}
      onClose={onClose}
      closeLabel={t('actions.close_dialog')}
      footer={
        <>
          <button type="button" className="button" onClick={onClose} disabled={busy}>
            {t('actions.cancel')}
          </button>
          <button type="submit" form={formId} className="button button-primary" disabled={busy}>
            {rack ? t('actions.save') : t('racks.add')}
          </button>
        </>
      }
    >
      <form id={formId} className="form" onSubmit={submit} noValidate>
        {failure && <FormMessage kind="error">{failure}</FormMessage>}
        <SelectField
          label={t('racks.fields.warehouse')}
          value={place}
          onChange={(event) => {
            setPlace(event.target.value);
            setErrors((current) => ({ ...current, warehouse_id: undefined }));
          }}
          options={places.map((option) => ({
            value: option.id,
            label: `${option.name} (${option.code}) · ${t(`places.kind.${option.kind}`)}`,
          }))}
          placeholder={t('locations.choose_warehouse')}
          error={errors.warehouse_id}
          disabled={rack !== null}
          required
        />
        <TextField
          label={t('racks.fields.name')}
          value={name}
          onChange={(event) => {
            setName(event.target.value);
            setErrors((current) => ({ ...current, name: undefined }));
          }}
          error={errors.name}
          limit={TEXT_LIMITS.name}
          required
        />
        <SelectField
          label={t('racks.fields.status')}
          value={status}
          onChange={(event) => setStatus(event.target.value as RackStatus)}
          options={RACK_STATUSES.map((value) => ({ value, label: t(`racks.status.${value}`) }))}
          error={errors.status}
          required
        />
        <TextAreaField
          label={t('racks.fields.note')}
          value={note}
          onChange={(event) => setNote(event.target.value)}
          error={errors.note}
          limit={TEXT_LIMITS.note}
        />
      </form>
    </ModalDialog>
  );
}
