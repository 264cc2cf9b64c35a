import { type Place, useAllPlaces } from '@web/api/warehouses';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The place a stock is in: the account's warehouses, then its branches (both hold stock). With `allLabel` the
 * first option is "every place" (value '').
 */
export function PlaceSelect({
  label,
  value,
  onChange,
  allLabel,
  placeholder,
  error,
  required,
  hideLabel = false,
}: {
  label: string;
  value: string;
  onChange: (id: string, place: Place | null) => void;
  allLabel?: string;
  placeholder?: string;
  error?: string | undefined;
  required?: boolean;
  hideLabel?: boolean;
}) {
  const { t } = useTranslation('stock');
  const id = useId();
  const { places, isPending } = useAllPlaces();
  const warehouses = places.filter((place) => place.kind === 'warehouse');
  const branches = places.filter((place) => place.kind === 'branch');
  const option = (place: Place) => (
    <option key={place.id} value={place.id}>
      {place.code} — {place.name}
    </option>
  );
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
        onChange={(event) =>
          onChange(event.target.value, places.find((place) => place.id === event.target.value) ?? null)
        }
      >
        {allLabel !== undefined && <option value="">{allLabel}</option>}
        {allLabel === undefined && (
          <option value="" disabled={required}>
            {isPending ? t('picker.loading_places') : (placeholder ?? t('picker.choose_place'))}
          </option>
        )}
        {warehouses.length > 0 && (
          <optgroup label={t('picker.warehouses')}>{warehouses.map(option)}</optgroup>
        )}
        {branches.length > 0 && <optgroup label={t('picker.branches')}>{branches.map(option)}</optgroup>}
      </select>
      {error && (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}

/** The code and name of a place by id, for grid cells ('' until the places are read). */
export function usePlaceNames(): (id: string) => string {
  const { places } = useAllPlaces();
  const byId = new Map(places.map((place) => [place.id, `${place.code} — ${place.name}`]));
  return (id: string) => byId.get(id) ?? '';
}
