import { type CopyListingsAnswer, useCopyListings, useListingStores } from '@web/api/listings';
import { ModalDialog } from '@web/components/modal-dialog';
import { FormMessage, messageOf } from '@web/shell/form';
import { useNotify } from '@web/shell/notifications';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * Copy listings (shell.md `/products/copy-listings`): the listings selected become new drafts, for the stores chosen
 * (from one store to another) or, with none chosen, each for its own stores. A listing refused is listed with why;
 * the others are copied all the same.
 */
export function CopyListingsDialog({ ids, onClose }: { ids: string[]; onClose(done: boolean): void }) {
  const { t } = useTranslation('listings');
  const notify = useNotify();
  const stores = useListingStores();
  const copy = useCopyListings();
  const formId = useId();
  const [chosen, setChosen] = useState<string[]>([]);
  const [failed, setFailed] = useState<CopyListingsAnswer['failed']>([]);
  const [refused, setRefused] = useState<unknown>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setRefused(null);
    try {
      const answer = await copy.mutateAsync({
        listing_ids: ids,
        ...(chosen.length > 0 ? { store_ids: chosen } : {}),
      });
      notify({ kind: answer.data.copied.length > 0 ? 'success' : 'error', message: answer.msg });
      if (answer.data.failed.length === 0) onClose(true);
      else setFailed(answer.data.failed);
    } catch (error) {
      setRefused(error);
    }
  }

  const toggle = (id: string) =>
    setChosen((now) => (now.includes(id) ? now.filter((one) => one !== id) : [...now, id]));

  return (
    <ModalDialog
      title={t('copy.title', { count: ids.length })}
      onClose={() => onClose(false)}
      closeLabel={t('copy.cancel')}
      footer={
        <>
          <button type="button" className="button button-secondary" onClick={() => onClose(false)}>
            {t('copy.cancel')}
          </button>
          <button type="submit" form={formId} className="button button-primary" disabled={copy.isPending}>
            {t('copy.submit')}
          </button>
        </>
      }
    >
      <form id={formId} className="form" onSubmit={submit} noValidate aria-label={t('copy.stores')}>
        {refused !== null && <FormMessage kind="error">{messageOf(refused)}</FormMessage>}
        {failed.length > 0 && (
          <FormMessage kind="error">
            <ul>
              {failed.map((one) => (
                <li key={one.id}>{t('copy.failed', { id: one.id, msg: one.msg })}</li>
              ))}
            </ul>
          </FormMessage>
        )}
        <fieldset className="field">
          <legend className="field-label">{t('copy.stores')}</legend>
          <p className="field-hint">{t('copy.stores_hint')}</p>
          {(stores.data ?? []).map((store) => (
            <label key={store.id} className="checkbox">
              <input type="checkbox" checked={chosen.includes(store.id)} onChange={() => toggle(store.id)} />{' '}
              {store.name}
            </label>
          ))}
        </fieldset>
      </form>
    </ModalDialog>
  );
}
