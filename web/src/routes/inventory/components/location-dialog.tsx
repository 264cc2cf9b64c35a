import { TEXT_LIMITS } from '@domain/shared/limits';
import { useRacksOf, useSetLocation } from '@web/api/racks';
import { useAllPlaces } from '@web/api/warehouses';
import { ModalDialog } from '@web/components/modal-dialog';
import { FormMessage, fieldErrorsOf, messageOf, SelectField, TextAreaField } from '@web/shell/form';
import { useNotify } from '@web/shell/notifications';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MasterCodePicker } from './master-code-picker';

/**
 * A master code's rack location in one warehouse or branch (spec §3 "Master code in warehouse"): the place, one of
 * its racks or none, and a note. Opened from the master code editor (the master code is given) or from the rack
 * location screen (the master code is picked). Editing keeps the place; moving elsewhere is remove-then-add, as
 * stock may remain where it is.
 */

export interface LocationTarget {
  masterCode: { id: string; code: string; name: string } | null;
  /** Set when editing an existing location. */
  warehouseId: string | null;
  rackId: string | null;
  note: string;
}

export function LocationDialog({
  target,
  excludePlaces = [],
  onClose,
  onSaved,
}: {
  target: LocationTarget;
  /** Places the master code is in already (a new location picks another). */
  excludePlaces?: readonly string[];
  onClose(): void;
  onSaved(): void;
}) {
  const { t } = useTranslation('inventory');
  const notify = useNotify();
  const formId = useId();
  const editing = target.warehouseId !== null;
  const [masterCode, setMasterCode] = useState(target.masterCode);
  const [warehouseId, setWarehouseId] = useState(target.warehouseId ?? '');
  const [rackId, setRackId] = useState(target.rackId ?? '');
  const [note, setNote] = useState(target.note);
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const { places } = useAllPlaces();
  const racks = useRacksOf(warehouseId || null);
  const save = useSetLocation();

  const placeOptions = places
    .filter((place) => editing || !excludePlaces.includes(place.id))
    .map((place) => ({
      value: place.id,
      label: `${place.name} (${place.code}) · ${t(`places.kind.${place.kind}`)}`,
    }));
  const rackOptions = (racks.data ?? []).map((rack) => ({
    value: rack.id,
    label: `${rack.name} · ${t(`racks.status.${rack.status}`)}`,
  }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFailure(null);
    const found: Record<string, string> = {};
    if (!masterCode) found.master_code = t('locations.errors.master_code');
    if (!warehouseId) found.warehouse_id = t('locations.errors.warehouse');
    setErrors(found);
    if (!masterCode || !warehouseId) return;
    try {
      const answer = await save.mutateAsync({
        masterCodeId: masterCode.id,
        warehouse_id: warehouseId,
        rack_id: rackId || null,
        note: note.trim(),
      });
      notify({ kind: 'success', message: answer.msg });
      onSaved();
    } catch (error) {
      setFailure(messageOf(error));
      setErrors(fieldErrorsOf(error));
    }
  }

  return (
    <ModalDialog
      title={editing ? t('locations.edit_title') : t('locations.add_title')}
      onClose={onClose}
      closeLabel={t('actions.close_dialog')}
      size="large"
      footer={
        <>
          <button type="button" className="button" onClick={onClose} disabled={save.isPending}>
            {t('actions.cancel')}
          </button>
          <button type="submit" form={formId} className="button button-primary" disabled={save.isPending}>
            {t('actions.save')}
          </button>
        </>
      }
    >
      <form id={formId} className="form" onSubmit={submit} noValidate>
        {failure && <FormMessage kind="error">{failure}</FormMessage>}
        {masterCode ? (
          <div className="chosen-master-code">
            <span className="field-label">{t('locations.fields.master_code')}</span>
            <span>
              <strong>{masterCode.code}</strong> <span className="muted">{masterCode.name}</span>
            </span>
            {!target.masterCode && (
              <button type="button" className="button button-small" onClick={() => setMasterCode(null)}>
                {t('locations.change_master_code')}
              </button>
            )}
          </div>
        ) : (
          <>
            <MasterCodePicker
              label={t('locations.fields.find_master_code')}
              type="standard"
              onPick={(picked) => {
                setMasterCode({ id: picked.id, code: picked.code, name: picked.name });
                setErrors((current) => ({ ...current, master_code: undefined }));
              }}
            />
            {errors.master_code && (
              <p className="field-error" role="alert">
                {errors.master_code}
              </p>
            )}
          </>
        )}
        <div className="form-grid">
          <SelectField
            label={t('locations.fields.warehouse')}
            value={warehouseId}
            onChange={(event) => {
              setWarehouseId(event.target.value);
              setRackId('');
              setErrors((current) => ({ ...current, warehouse_id: undefined }));
            }}
            options={placeOptions}
            placeholder={t('locations.choose_warehouse')}
            error={errors.warehouse_id}
            disabled={editing}
            required
          />
          <SelectField
            label={t('locations.fields.rack')}
            value={rackId}
            onChange={(event) => setRackId(event.target.value)}
            options={rackOptions}
            placeholder={t('locations.no_rack')}
            error={errors.rack_id}
            disabled={!warehouseId}
            hint={
              warehouseId && racks.isSuccess && rackOptions.length === 0 ? t('locations.no_racks') : undefined
            }
          />
        </div>
        <TextAreaField
          label={t('locations.fields.note')}
          value={note}
          limit={TEXT_LIMITS.note}
          onChange={(event) => setNote(event.target.value)}
          error={errors.note}
        />
      </form>
    </ModalDialog>
  );
}
