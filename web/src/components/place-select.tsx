import { controlAria, LabelledField } from '@web/shell/form';
import { useId } from 'react';

/** A warehouse or branch as a place picker lists it. */
export interface PlaceOption {
  id: string;
  code: string;
  name: string;
  kind: 'warehouse' | 'branch';
}

/**
 * A place of the account: a select listing its warehouses, then its branches (both hold stock), after a first blank
 * option (`blank`: "every place" for a filter, or "choose a place"). The screens give the places and the words.
 */
export function PlaceSelectField<Place extends PlaceOption>({
  label,
  value,
  onChange,
  places,
  blank,
  groups,
  error,
  required,
  hideLabel = false,
}: {
  label: string;
  value: string;
  onChange: (id: string, place: Place | null) => void;
  places: readonly Place[];
  blank: { label: string; disabled?: boolean | undefined };
  groups: { warehouses: string; branches: string };
  error?: string | undefined;
  required?: boolean | undefined;
  hideLabel?: boolean;
}) {
  const id = useId();
  const option = (place: Place) => (
    <option key={place.id} value={place.id}>
      {place.code} — {place.name}
    </option>
  );
  const warehouses = places.filter((place) => place.kind === 'warehouse');
  const branches = places.filter((place) => place.kind === 'branch');
  return (
    <LabelledField id={id} label={label} error={error} required={required ?? false} hideLabel={hideLabel}>
      <select
        id={id}
        className="input"
        value={value}
        {...controlAria(id, error, required)}
        onChange={(event) =>
          onChange(event.target.value, places.find((place) => place.id === event.target.value) ?? null)
        }
      >
        <option value="" disabled={blank.disabled}>
          {blank.label}
        </option>
        {warehouses.length > 0 && <optgroup label={groups.warehouses}>{warehouses.map(option)}</optgroup>}
        {branches.length > 0 && <optgroup label={groups.branches}>{branches.map(option)}</optgroup>}
      </select>
    </LabelledField>
  );
}
