import type { PermissionCatalogue } from '@web/api/groups';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The permission keys of spec §6 grouped by area, each a labelled checkbox, with a "select all" per area that
 * shows mixed when only some of the area's keys are chosen.
 */

function AreaToggle({
  label,
  checked,
  mixed,
  onChange,
}: {
  label: string;
  checked: boolean;
  mixed: boolean;
  onChange: (checked: boolean) => void;
}) {
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = mixed;
  }, [mixed]);
  return (
    <label className="check-label area-toggle">
      <input
        ref={ref}
        type="checkbox"
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
      />
      {label}
    </label>
  );
}

export function PermissionChecklist({
  catalogue,
  selected,
  onChange,
  disabled = false,
}: {
  catalogue: PermissionCatalogue;
  selected: ReadonlySet<string>;
  onChange: (next: Set<string>) => void;
  disabled?: boolean;
}) {
  const { t } = useTranslation(['permissions', 'settings']);

  const setKeys = (keys: readonly string[], on: boolean) => {
    const next = new Set(selected);
    for (const key of keys) {
      if (on) next.add(key);
      else next.delete(key);
    }
    onChange(next);
  };

  return (
    <div className="permission-areas">
      {catalogue.areas.map(({ area, keys }) => {
        const areaName = t(`permissions:area.${area}`);
        const chosen = keys.filter((key) => selected.has(key)).length;
        return (
          <fieldset key={area} className="permission-area" disabled={disabled} data-area={area}>
            <legend className="permission-area-title">
              {areaName}
              <span className="muted permission-count">
                {t('settings:groups.area_count', { chosen, total: keys.length })}
              </span>
            </legend>
            <AreaToggle
              label={t('settings:groups.select_all_area', { area: areaName })}
              checked={chosen === keys.length}
              mixed={chosen > 0 && chosen < keys.length}
              onChange={(on) => setKeys(keys, on)}
            />
            <ul className="permission-list">
              {keys.map((key) => (
                <li key={key}>
                  <label className="check-label">
                    <input
                      type="checkbox"
                      name="permissions"
                      value={key}
                      checked={selected.has(key)}
                      onChange={(event) => setKeys([key], event.target.checked)}
                    />
                    {t(`permissions:${key}`)}
                  </label>
                </li>
              ))}
            </ul>
          </fieldset>
        );
      })}
    </div>
  );
}
