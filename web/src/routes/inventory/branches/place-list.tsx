import {
  type Place,
  type PlaceKind,
  useDeletePlace,
  useMakeDefaultWarehouse,
  usePlaces,
} from '@web/api/warehouses';
import { ConfirmDialog } from '@web/components/modal-dialog';
import { FormMessage, messageOf } from '@web/shell/form';
import { useNotify } from '@web/shell/notifications';
import { Spinner } from '@web/shell/spinner';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PlaceForm } from './place-form';

/**
 * The warehouses (the default first) or the branches, with their racks and located master codes counted. Add and
 * edit in a dialog; a warehouse can be made the default; delete asks first, and the API refuses the default
 * warehouse while others exist and any place where a master code still has stock — its message is shown as it comes.
 */
export function PlaceList({ kind }: { kind: PlaceKind }) {
  const { t } = useTranslation('inventory');
  const notify = useNotify();
  const places = usePlaces(kind);
  const remove = useDeletePlace(kind);
  const makeDefault = useMakeDefaultWarehouse();
  const [editing, setEditing] = useState<Place | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Place | null>(null);
  const isWarehouse = kind === 'warehouse';
  const rows = places.data ?? [];

  async function confirmDelete() {
    if (!deleting) return;
    try {
      const answer = await remove.mutateAsync(deleting.id);
      notify({ kind: 'success', message: answer.msg });
    } catch (error) {
      notify({ kind: 'error', message: messageOf(error) });
    } finally {
      setDeleting(null);
    }
  }

  const setDefault = (place: Place) =>
    makeDefault.mutate(place.id, {
      onSuccess: (answer) => notify({ kind: 'success', message: answer.msg }),
      onError: (error) => notify({ kind: 'error', message: messageOf(error) }),
    });

  return (
    <section className="card" aria-label={t(`places.list_label.${kind}`)}>
      <div className="section-header">
        <p className="muted">{t(`places.intro.${kind}`)}</p>
        <button type="button" className="button button-primary" onClick={() => setEditing('new')}>
          {t(`places.add.${kind}`)}
        </button>
      </div>
      {places.error && <FormMessage kind="error">{messageOf(places.error)}</FormMessage>}
      {places.isPending ? (
        <Spinner label={t('loading')} />
      ) : rows.length === 0 ? (
        <p className="muted">{t(`places.empty.${kind}`)}</p>
      ) : (
        <div className="table-scroll">
          <table className="simple-table">
            <thead>
              <tr>
                <th scope="col">{t('places.fields.code')}</th>
                <th scope="col">{t('places.fields.name')}</th>
                <th scope="col">{t('places.fields.manager')}</th>
                <th scope="col">{t('places.fields.phone')}</th>
                <th scope="col">{isWarehouse ? t('places.fields.address') : t('places.fields.location')}</th>
                {isWarehouse && <th scope="col">{t('places.columns.receipt')}</th>}
                <th scope="col">{t('places.columns.racks')}</th>
                <th scope="col">{t('columns.master_codes')}</th>
                <th scope="col">{t('columns.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((place) => (
                <tr key={place.id}>
                  <td>{place.code}</td>
                  <td>
                    {place.name}{' '}
                    {place.is_default && <span className="badge badge-new">{t('places.default_badge')}</span>}
                  </td>
                  <td>{place.manager}</td>
                  <td>{place.phone}</td>
                  <td className="cell-text">{isWarehouse ? place.address : place.location}</td>
                  {isWarehouse && (
                    <td>
                      {[
                        place.use_address_on_receipt ? t('places.receipt.address') : null,
                        place.use_phone_on_receipt ? t('places.receipt.phone') : null,
                      ]
                        .filter(Boolean)
                        .join(', ') || <span className="muted">{t('places.receipt.none')}</span>}
                    </td>
                  )}
                  <td>{place.rack_count}</td>
                  <td>{place.master_code_count}</td>
                  <td>
                    <div className="row-actions">
                      <button
                        type="button"
                        className="button button-small"
                        aria-label={t('places.edit_named', { name: place.name })}
                        onClick={() => setEditing(place)}
                      >
                        {t('actions.edit')}
                      </button>
                      {isWarehouse && !place.is_default && (
                        <button
                          type="button"
                          className="button button-small"
                          aria-label={t('places.make_default_named', { name: place.name })}
                          disabled={makeDefault.isPending}
                          onClick={() => setDefault(place)}
                        >
                          {t('places.make_default')}
                        </button>
                      )}
                      <button
                        type="button"
                        className="button button-small button-danger-outline"
                        aria-label={t('places.delete_named', { name: place.name })}
                        onClick={() => setDeleting(place)}
                      >
                        {t('actions.delete')}
                      </button>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {editing && (
        <PlaceForm
          kind={kind}
          place={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={() => setEditing(null)}
        />
      )}
      {deleting && (
        <ConfirmDialog
          title={t(`places.delete_title.${kind}`)}
          message={t('places.delete_confirm', { name: deleting.name, code: deleting.code })}
          confirmLabel={t('actions.delete')}
          cancelLabel={t('actions.cancel')}
          busy={remove.isPending}
          onConfirm={confirmDelete}
          onCancel={() => setDeleting(null)}
        />
      )}
    </section>
  );
}
