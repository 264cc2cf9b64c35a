import { useComboItems, useSaveComboItems } from '@web/api/combos';
import { ModalDialog } from '@web/components/modal-dialog';
import { FormMessage, messageOf } from '@web/shell/form';
import { useNotify } from '@web/shell/notifications';
import { Spinner } from '@web/shell/spinner';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  ComboItemsEditor,
  checkItems,
  draftsOf,
  type ItemDraft,
  itemErrorsOf,
  itemsInput,
} from './combo-items-editor';

/** The combo editor (spec §3 "Combo"): a combo's items, read afresh, changed and saved as a whole list. */
export function ComboItemsDialog({
  combo,
  onClose,
  onSaved,
}: {
  combo: { id: string; code: string; name: string };
  onClose(): void;
  onSaved(): void;
}) {
  const { t } = useTranslation('inventory');
  const notify = useNotify();
  const formId = useId();
  const current = useComboItems(combo.id);
  const save = useSaveComboItems();
  const [items, setItems] = useState<ItemDraft[] | null>(null);
  const [errors, setErrors] = useState<Record<number, string>>({});
  const [listError, setListError] = useState<string | undefined>();
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    if (current.data && items === null) setItems(draftsOf(current.data));
  }, [current.data, items]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!items) return;
    setFailure(null);
    const found = checkItems(items, t);
    setErrors(found.quantities);
    setListError(found.list);
    if (found.list || Object.keys(found.quantities).length > 0) return;
    try {
      const answer = await save.mutateAsync({ id: combo.id, items: itemsInput(items) });
      notify({ kind: 'success', message: answer.msg });
      onSaved();
    } catch (error) {
      setFailure(messageOf(error));
      setErrors(itemErrorsOf(error));
    }
  }

  return (
    <ModalDialog
      title={t('combo.items_dialog_title', { code: combo.code })}
      onClose={onClose}
      closeLabel={t('actions.close_dialog')}
      size="large"
      footer={
        <>
          <button type="button" className="button" onClick={onClose} disabled={save.isPending}>
            {t('actions.cancel')}
          </button>
          <button
            type="submit"
            form={formId}
            className="button button-primary"
            disabled={save.isPending || items === null}
          >
            {t('combo.save_items')}
          </button>
        </>
      }
    >
      <form id={formId} className="form" onSubmit={submit} noValidate>
        <p className="muted">{combo.name}</p>
        {failure && <FormMessage kind="error">{failure}</FormMessage>}
        {current.error ? (
          <FormMessage kind="error">{messageOf(current.error)}</FormMessage>
        ) : items === null ? (
          <Spinner label={t('loading')} />
        ) : (
          <ComboItemsEditor
            items={items}
            onChange={(next) => {
              setItems(next);
              setErrors({});
              setListError(undefined);
            }}
            errors={errors}
            listError={listError}
            comboId={combo.id}
          />
        )}
      </form>
    </ModalDialog>
  );
}
