import { useMasterCodeSearch } from '@web/api/master-codes';
import { MasterCodeCombobox } from '@web/components/master-code-combobox';
import { useDebounced } from '@web/shell/use-debounced';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * A master code picker: searches the account's master codes by code, name, seller SKU or UPC as the user types and
 * lists the first matches (components/master-code-combobox.tsx). Typing after a pick clears it, so the field never
 * shows one code while holding another.
 */

export interface PickedMasterCode {
  id: string;
  code: string;
  name: string;
  unit_price?: string;
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
  const [text, setText] = useState(value ? describeMasterCode(value) : '');
  const [open, setOpen] = useState(false);
  const search = useDebounced(text);
  const typing = value === null || text !== describeMasterCode(value);
  const matches = useMasterCodeSearch(typing ? search : '', {
    enabled: open,
    ...(type ? { type } : {}),
  });

  // A value set from outside (a reset, a pick from elsewhere) shows in the field; clearing it by typing does not.
  const clearedByTyping = useRef(false);
  useEffect(() => {
    if (clearedByTyping.current) {
      clearedByTyping.current = false;
      return;
    }
    setText(value ? describeMasterCode(value) : '');
  }, [value]);

  return (
    <MasterCodeCombobox
      label={label}
      placeholder={t('picker.placeholder')}
      inactiveLabel={t('picker.inactive')}
      text={text}
      onTextChange={(typed) => {
        setText(typed);
        if (value && !clearOnPick) {
          clearedByTyping.current = true;
          onChange(null);
        }
      }}
      open={open}
      onOpenChange={setOpen}
      options={matches.data?.rows ?? []}
      empty={
        matches.isPending
          ? t('picker.searching')
          : matches.isError
            ? matches.error.message
            : t('picker.no_match')
      }
      onPick={(option) => {
        onChange({ id: option.id, code: option.code, name: option.name, unit_price: option.unit_price });
        setText(clearOnPick ? '' : describeMasterCode(option));
        setOpen(false);
      }}
      error={error}
      required={required}
    />
  );
}
