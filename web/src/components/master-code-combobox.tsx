import { controlAria, LabelledField } from '@web/shell/form';
import { type KeyboardEvent, useId, useState } from 'react';

/** A master code as the combobox offers it. */
export interface MasterCodeOption {
  id: string;
  code: string;
  name: string;
  status: 'active' | 'inactive';
}

/**
 * A master code search field: a combobox (ARIA 1.2 pattern) listing the matches of what is typed; arrows move,
 * Enter picks, Escape closes. The screen owns the text, whether the list is open (its search runs only then), the
 * matches and what to do with a pick; `empty` says why there are none (searching, no match, a failure).
 */
export function MasterCodeCombobox<Option extends MasterCodeOption>({
  label,
  placeholder,
  inactiveLabel,
  text,
  onTextChange,
  open,
  onOpenChange,
  options,
  empty,
  onPick,
  error,
  required,
}: {
  label: string;
  placeholder: string;
  inactiveLabel: string;
  text: string;
  onTextChange(text: string): void;
  open: boolean;
  onOpenChange(open: boolean): void;
  options: readonly Option[];
  empty: string;
  onPick(option: Option): void;
  error?: string | undefined;
  required?: boolean | undefined;
}) {
  const id = useId();
  const listId = `${id}-list`;
  const [active, setActive] = useState(0);

  function pick(option: Option) {
    onPick(option);
    setActive(0);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      onOpenChange(true);
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
      onOpenChange(false);
    }
  }

  const activeId = open && options[active] ? `${id}-option-${active}` : undefined;
  return (
    <LabelledField id={id} label={label} error={error} required={required ?? false} className="combo-field">
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
          {...controlAria(id, error, required)}
          placeholder={placeholder}
          value={text}
          onChange={(event) => {
            onTextChange(event.target.value);
            setActive(0);
            onOpenChange(true);
          }}
          onFocus={() => onOpenChange(true)}
          onBlur={() => onOpenChange(false)}
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
                {option.status === 'inactive' && <span className="badge badge-muted">{inactiveLabel}</span>}
              </div>
            ))}
          </div>
        )}
        {open && options.length === 0 && (
          <div className="combo-list combo-empty muted" role="status">
            {empty}
          </div>
        )}
      </div>
    </LabelledField>
  );
}
