import { type Place, useAllPlaces } from '@web/api/warehouses';
import { PlaceSelectField } from '@web/components/place-select';
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
  const { places, isPending } = useAllPlaces();
  return (
    <PlaceSelectField
      label={label}
      value={value}
      onChange={onChange}
      places={places}
      blank={
        allLabel !== undefined
          ? { label: allLabel }
          : {
              label: isPending ? t('picker.loading_places') : (placeholder ?? t('picker.choose_place')),
              disabled: required,
            }
      }
      groups={{ warehouses: t('picker.warehouses'), branches: t('picker.branches') }}
      error={error}
      required={required}
      hideLabel={hideLabel}
    />
  );
}

/** The code and name of a place by id, for grid cells ('' until the places are read). */
export function usePlaceNames(): (id: string) => string {
  const { places } = useAllPlaces();
  const byId = new Map(places.map((place) => [place.id, `${place.code} — ${place.name}`]));
  return (id: string) => byId.get(id) ?? '';
}
