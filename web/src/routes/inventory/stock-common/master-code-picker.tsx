import { type MasterCode, useMasterCodeSearch } from '@web/api/master-codes';
import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * A master code picker: a combobox (ARIA 1.2 pattern) that searches the account's master codes by code, name,
 * seller SKU or UPC as the user types and lists the first matches; arrows move, Enter picks, Escape closes.
 * Typing after a pick clears it, so the field never shows one code while holding another.
 */

export interface PickedMasterCode {
  id: string;
  code: string;
  name: string;
  unit_price?: string;
}

const SEARCH_DELAY_MS = 250;

export function useDebounced<T>(value: T, delay = SEARCH_DELAY_MS): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return debounced;
}

export const describeMasterCode = (item: Pick<PickedMasterCode, 'code' | 'name'>) =>
  item.name ? `${item.code} — ${item.name}` : item.code;

export function MasterCodePicker({
  label,
  value,
  onChange,
  error,
  required,
  clearOnPick = false,
  type,
}: {
  label: string;
  value: PickedMasterCode | null;
  onChange: (value: PickedMasterCode | null) => void;
  error?: string | undefined;
  required?: boolean;
  /** Empty the field after each pick (a picker that adds to a list). */
  clearOnPick?: boolean;
  type?: 'standard' | 'combo';
}) {
  const { t } = useTranslation('stock');
  const id = useId();
  const listId = `${id}-list`;
  const [text, setText] = useState(value ? describeMasterCode(value) : '');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const search = useDebounced(text);
  const typing = value === null || text !== describeMasterCode(value);
  const matches = useMasterCodeSearch(typing ? search : '', {
    enabled: open,
    ...(type ? { type } : {}),
  });
  const options: MasterCode[] = matches.data?.rows ?? [];

  // A value set from outside (a reset, a pick from elsewhere) shows in the field; clearing it by typing does not.
  const clearedByTyping = useRef(false);
  useEffect(() => {
    if (clearedByTyping.current) {
      clearedByTyping.current = false;
      return;
    }
    setText(value ? describeMasterCode(value) : '');
  }, [value]);

  function pick(option: MasterCode) {
    onChange({ id: option.id, code: option.code, name: option.name, unit_price: option.unit_price });
    setText(clearOnPick ? '' : describeMasterCode(option));
    setOpen(false);
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
  const describedBy = error ? `${id}-error` : undefined;

  return (
    <div className={`field combo-field ${error ? 'field-invalid' : ''}`}>
      <span className="field-label-row">
        <label htmlFor={id} className="field-label">
          {label}
        </label>
        {required && (
          <span className="required-mark" aria-hidden="true">
            *
          </span>
        )}
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
          aria-required={required || undefined}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          placeholder={t('picker.placeholder')}
          value={text}
          onChange={(event) => {
            setText(event.target.value);
            setActive(0);
            setOpen(true);
            if (value && !clearOnPick) {
              clearedByTyping.current = true;
              onChange(null);
            }
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
                  <span className="badge badge-muted">{t('picker.inactive')}</span>
                )}
              </div>
            ))}
          </div>
        )}
        {open && options.length === 0 && (
          <div className="combo-list combo-empty muted" role="status">
            {matches.isPending
              ? t('picker.searching')
              : matches.isError
                ? matches.error.message
                : t('picker.no_match')}
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
