import { type PickerMasterCode, useTransferMasterCodes } from '@web/api/transfers';
import { type KeyboardEvent, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * A standard master code, searched by code, name or seller SKU as the user types: a combobox (ARIA 1.2) whose
 * arrows move, Enter picks and Escape closes. Each pick is handed over and the field empties, ready for the next.
 */

const SEARCH_DELAY_MS = 250;

function useDebounced(value: string): string {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [value]);
  return debounced;
}

export function MasterCodePicker({
  label,
  onPick,
  error,
  exclude,
}: {
  label: string;
  onPick: (masterCode: PickerMasterCode) => void;
  error?: string | undefined;
  /** Master codes already on the list: not offered again. */
  exclude: ReadonlySet<string>;
}) {
  const { t } = useTranslation('transfers');
  const id = useId();
  const listId = `${id}-list`;
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const search = useDebounced(text.trim());
  const matches = useTransferMasterCodes(search, open);
  const options = (matches.data ?? []).filter((option) => !exclude.has(option.id));

  function pick(option: PickerMasterCode) {
    onPick(option);
    setText('');
    setActive(0);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      setOpen(true);
      setActive((current) => Math.min(current + 1, Math.max(options.length - 1, 0)));
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      setActive((current) => Math.max(current - 1, 0));
    } else if (event.key === 'Enter' && open) {
      const option = options[active];
      if (option) {
        event.preventDefault();
        pick(option);
      }
    } else if (event.key === 'Escape') {
      setOpen(false);
    }
  }

  const activeId = open && options[active] ? `${id}-option-${active}` : undefined;
  return (
    <div className={`field combo-field ${error ? 'field-invalid' : ''}`}>
      <span className="field-label-row">
        <label htmlFor={id} className="field-label">
          {label}
        </label>
      </span>
      <div className="combo-anchor">
        <input
          id={id}
          className="input"
          role="combobox"
          autoComplete="off"
          aria-autocomplete="list"
          aria-expanded={open}
          aria-controls={listId}
          aria-activedescendant={activeId}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          placeholder={t('form.master_code_placeholder')}
          value={text}
          onChange={(event) => {
            setText(event.target.value);
            setActive(0);
            setOpen(true);
          }}
          onFocus={() => setOpen(true)}
          onBlur={() => setOpen(false)}
          onKeyDown={onKeyDown}
        />
        {open && options.length > 0 && (
          <div id={listId} role="listbox" aria-label={label} className="combo-list">
            {options.map((option, index) => (
              <div
                key={option.id}
                id={`${id}-option-${index}`}
                role="option"
                aria-selected={index === active}
                tabIndex={-1}
                className={`combo-option ${index === active ? 'combo-option-active' : ''}`}
                // mousedown, not click: the input's blur would close the list first
                onMouseDown={(event) => {
                  event.preventDefault();
                  pick(option);
                }}
                onMouseEnter={() => setActive(index)}
              >
                <span className="combo-code">{option.code}</span>
                <span className="combo-name">{option.name}</span>
                {option.status === 'inactive' && (
                  <span className="badge badge-muted">{t('form.inactive')}</span>
                )}
              </div>
            ))}
          </div>
        )}
        {open && options.length === 0 && (
          <div className="combo-list combo-empty muted" role="status">
            {matches.isFetching ? t('form.searching') : t('form.no_match')}
          </div>
        )}
      </div>
      {error && (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}
