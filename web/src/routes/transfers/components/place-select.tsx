import { useTransferPlaces } from '@web/api/transfers';
import { PlaceSelectField } from '@web/components/place-select';
import { useTranslation } from 'react-i18next';

/** A warehouse or branch of the account, for the from and to of a transfer (the transfer pickers' own list). */
export function PlaceSelect({
  label,
  value,
  onChange,
  error,
  required,
}: {
  label: string;
  value: string;
  onChange: (id: string) => void;
  error?: string | undefined;
  required?: boolean;
}) {
  const { t } = useTranslation('transfers');
  const places = useTransferPlaces();
  return (
    <PlaceSelectField
      label={label}
      value={value}
      onChange={onChange}
      places={places.data ?? []}
      blank={{ label: places.isPending ? t('form.loading_places') : t('form.choose_place') }}
      groups={{ warehouses: t('form.warehouses'), branches: t('form.branches') }}
      error={error}
      required={required}
    />
  );
}
