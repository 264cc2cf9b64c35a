import { type PickerPlace, useTransferPlaces } from '@web/api/transfers';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';

/** A warehouse or branch of the account, for the from and to of a transfer (the transfer pickers' own list). */
export function PlaceSelect({
  label,
  value,
  onChange,
  error,
  required,
  allLabel,
  hideLabel = false,
}: {
  label: string;
  value: string;
  onChange: (id: string) => void;
  error?: string | undefined;
  required?: boolean;
  /** With it, the first option means every place (a filter). */
  allLabel?: string;
  hideLabel?: boolean;
}) {
  const { t } = useTranslation('transfers');
  const id = useId();
  const places = useTransferPlaces();
  const all = places.data ?? [];
  const option = (place: PickerPlace) => (
    <option key={place.id} value={place.id}>
      {place.code} — {place.name}
    </option>
  );
  const warehouses = all.filter((place) => place.kind === 'warehouse');
  const branches = all.filter((place) => place.kind === 'branch');
  return (
    <div className={`field ${error ? 'field-invalid' : ''}`}>
      <span className={`field-label-row ${hideLabel ? 'visually-hidden' : ''}`}>
        <label htmlFor={id} className="field-label">
          {label}
        </label>
        {required && (
          <span className="required-mark" aria-hidden="true">
            *
          </span>
        )}
      </span>
      <select
        id={id}
        className="input"
        value={value}
        aria-required={required || undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(event) => onChange(event.target.value)}
      >
        <option value="">
          {allLabel ?? (places.isPending ? t('form.loading_places') : t('form.choose_place'))}
        </option>
        {warehouses.length > 0 && <optgroup label={t('form.warehouses')}>{warehouses.map(option)}</optgroup>}
        {branches.length > 0 && <optgroup label={t('form.branches')}>{branches.map(option)}</optgroup>}
      </select>
      {error && (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}
