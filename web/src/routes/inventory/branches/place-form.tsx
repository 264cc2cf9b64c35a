import { TEXT_LIMITS } from '@domain/shared/limits';
import {
  type BranchFields,
  type Place,
  type PlaceKind,
  useCreatePlace,
  useUpdatePlace,
  type WarehouseFields,
} from '@web/api/warehouses';
import { ModalDialog } from '@web/components/modal-dialog';
import {
  CheckboxField,
  FormMessage,
  fieldErrorsOf,
  messageOf,
  TextAreaField,
  TextField,
} from '@web/shell/form';
import { useNotify } from '@web/shell/notifications';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * A warehouse or a branch (spec §3 "Warehouse and rack"). Both: code (unique across warehouses and branches), name,
 * manager, phone. A warehouse: address, default flag, and whether the POS receipt shows its address and phone. A
 * branch: location. The default cannot be unset here: another warehouse is made the default instead.
 */

const PHONE_PATTERN = /^[+0-9 ()-]*$/;

interface Values {
  code: string;
  name: string;
  manager: string;
  phone: string;
  address: string;
  location: string;
  is_default: boolean;
  use_address_on_receipt: boolean;
  use_phone_on_receipt: boolean;
}

type TextFieldName = 'code' | 'name' | 'manager' | 'phone' | 'address' | 'location';
type FlagName = 'is_default' | 'use_address_on_receipt' | 'use_phone_on_receipt';

const initialValues = (place: Place | null): Values => ({
  code: place?.code ?? '',
  name: place?.name ?? '',
  manager: place?.manager ?? '',
  phone: place?.phone ?? '',
  address: place?.address ?? '',
  location: place?.location ?? '',
  is_default: place?.is_default ?? false,
  use_address_on_receipt: place?.use_address_on_receipt ?? false,
  use_phone_on_receipt: place?.use_phone_on_receipt ?? false,
});

export function PlaceForm({
  kind,
  place,
  onClose,
  onSaved,
}: {
  kind: PlaceKind;
  /** null: a new one. */
  place: Place | null;
  onClose(): void;
  onSaved(): void;
}) {
  const { t } = useTranslation('inventory');
  const notify = useNotify();
  const formId = useId();
  const createWarehouse = useCreatePlace('warehouse');
  const createBranch = useCreatePlace('branch');
  const updateWarehouse = useUpdatePlace('warehouse');
  const updateBranch = useUpdatePlace('branch');
  const [values, setValues] = useState<Values>(() => initialValues(place));
  const [errors, setErrors] = useState<Partial<Record<keyof Values, string>>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const isWarehouse = kind === 'warehouse';
  const busy =
    createWarehouse.isPending ||
    createBranch.isPending ||
    updateWarehouse.isPending ||
    updateBranch.isPending;
  const key = (name: string) => `places.${name}`;

  const set = (field: TextFieldName) => (event: { target: { value: string } }) => {
    const value = event.target.value;
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };
  const flip = (field: FlagName) => (event: { target: { checked: boolean } }) => {
    const checked = event.target.checked;
    setValues((current) => ({ ...current, [field]: checked }));
  };

  function check() {
    const found: Partial<Record<keyof Values, string>> = {};
    if (!values.code.trim()) found.code = t('places.errors.code_required');
    if (!values.name.trim()) found.name = t('places.errors.name_required');
    if (!PHONE_PATTERN.test(values.phone.trim())) found.phone = t('places.errors.phone');
    return found;
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFailure(null);
    const found = check();
    setErrors(found);
    if (Object.values(found).some(Boolean)) return;
    const common = {
      code: values.code.trim(),
      name: values.name.trim(),
      manager: values.manager.trim(),
      phone: values.phone.trim(),
    };
    try {
      let msg: string;
      if (isWarehouse) {
        const fields: WarehouseFields = {
          ...common,
          address: values.address.trim(),
          is_default: values.is_default,
          use_address_on_receipt: values.use_address_on_receipt,
          use_phone_on_receipt: values.use_phone_on_receipt,
        };
        if (place) {
          // The default flag only ever turns on here (the old default is cleared by the API).
          const { is_default, ...changes } = fields;
          const answer = await updateWarehouse.mutateAsync({
            id: place.id,
            changes: is_default && !place.is_default ? { ...changes, is_default: true } : changes,
          });
          msg = answer.msg;
        } else {
          msg = (await createWarehouse.mutateAsync(fields)).msg;
        }
      } else {
        const fields: BranchFields = { ...common, location: values.location.trim() };
        msg = place
          ? (await updateBranch.mutateAsync({ id: place.id, changes: fields })).msg
          : (await createBranch.mutateAsync(fields)).msg;
      }
      notify({ kind: 'success', message: msg });
      onSaved();
    } catch (error) {
      setFailure(messageOf(error));
      setErrors(fieldErrorsOf(error) as Partial<Record<keyof Values, string>>);
    }
  }

  return (
    <ModalDialog
      title={t(key(`${place ? 'edit' : 'add'}_title.${kind}`))}
      onClose={onClose}
      closeLabel={t('actions.close_dialog')}
      size="large"
      footer={
        <>
          <button type="button" className="button" onClick={onClose} disabled={busy}>
            {t('actions.cancel')}
          </button>
          <button type="submit" form={formId} className="button button-primary" disabled={busy}>
            {place ? t('actions.save') : t(key(`add.${kind}`))}
          </button>
        </>
      }
    >
      <form id={formId} className="form" onSubmit={submit} noValidate>
        {failure && <FormMessage kind="error">{failure}</FormMessage>}
        <div className="form-grid">
          <TextField
            label={t('places.fields.code')}
            value={values.code}
            onChange={set('code')}
            error={errors.code}
            limit={TEXT_LIMITS.code}
            autoComplete="off"
            required
          />
          <TextField
            label={t('places.fields.name')}
            value={values.name}
            onChange={set('name')}
            error={errors.name}
            limit={TEXT_LIMITS.name}
            required
          />
          <TextField
            label={t('places.fields.manager')}
            value={values.manager}
            onChange={set('manager')}
            error={errors.manager}
            limit={TEXT_LIMITS.name}
          />
          <TextField
            label={t('places.fields.phone')}
            type="tel"
            value={values.phone}
            onChange={set('phone')}
            error={errors.phone}
            limit={TEXT_LIMITS.phone}
          />
        </div>
        {isWarehouse ? (
          <>
            <TextAreaField
              label={t('places.fields.address')}
              value={values.address}
              onChange={set('address')}
              error={errors.address}
              limit={TEXT_LIMITS.address}
            />
            <fieldset className="form-section">
              <legend>{t('places.flags_title')}</legend>
              <CheckboxField
                label={t('places.fields.is_default')}
                checked={values.is_default}
                onChange={flip('is_default')}
                disabled={place?.is_default}
                error={errors.is_default}
              />
              {place?.is_default && <p className="field-hint">{t('places.hints.default_fixed')}</p>}
              <CheckboxField
                label={t('places.fields.use_address_on_receipt')}
                checked={values.use_address_on_receipt}
                onChange={flip('use_address_on_receipt')}
                error={errors.use_address_on_receipt}
              />
              <CheckboxField
                label={t('places.fields.use_phone_on_receipt')}
                checked={values.use_phone_on_receipt}
                onChange={flip('use_phone_on_receipt')}
                error={errors.use_phone_on_receipt}
              />
            </fieldset>
          </>
        ) : (
          <TextAreaField
            label={t('places.fields.location')}
            value={values.location}
            onChange={set('location')}
            error={errors.location}
            limit={TEXT_LIMITS.address}
          />
        )}
      </form>
    </ModalDialog>
  );
}
