import { type PickerMasterCode, useTransferMasterCodes } from '@web/api/transfers';
import { MasterCodeCombobox } from '@web/components/master-code-combobox';
import { useDebounced } from '@web/shell/use-debounced';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * A standard master code, searched by code, name or seller SKU as the user types (the transfer pickers' own list).
 * Each pick is handed over and the field empties, ready for the next.
 */
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
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const search = useDebounced(text.trim());
  const matches = useTransferMasterCodes(search, open);
  return (
    <MasterCodeCombobox
      label={label}
      placeholder={t('form.master_code_placeholder')}
      inactiveLabel={t('form.inactive')}
      text={text}
      onTextChange={setText}
      open={open}
      onOpenChange={setOpen}
      options={(matches.data ?? []).filter((option) => !exclude.has(option.id))}
      empty={matches.isFetching ? t('form.searching') : t('form.no_match')}
      onPick={(option) => {
        onPick(option);
        setText('');
      }}
      error={error}
    />
  );
}
