import type { MasterCodeDetail, MasterCodeLocation } from '@web/api/master-codes';
import { useRemoveLocation } from '@web/api/racks';
import { useSession } from '@web/auth/session';
import { ConfirmDialog } from '@web/components/modal-dialog';
import { messageOf } from '@web/shell/form';
import { useNotify } from '@web/shell/notifications';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LocationDialog, type LocationTarget } from '../components/location-dialog';

/**
 * A standard master code's places (spec §3 "Master code in warehouse"): in which warehouses and branches it is, on
 * which rack, with a note. Holders of `inventory-rack` add, change and remove them; removing is refused while the
 * quantity there is not 0 ("Only 0 quantity able to be removed from a branch").
 */
export function LocationsSection({ masterCode }: { masterCode: MasterCodeDetail }) {
  const { t } = useTranslation('inventory');
  const notify = useNotify();
  const { can } = useSession();
  const canManage = can('inventory-rack');
  const remove = useRemoveLocation();
  const [editing, setEditing] = useState<LocationTarget | null>(null);
  const [removing, setRemoving] = useState<MasterCodeLocation | null>(null);
  const self = { id: masterCode.id, code: masterCode.code, name: masterCode.name };

  async function confirmRemove() {
    if (!removing) return;
    try {
      const answer = await remove.mutateAsync({
        masterCodeId: masterCode.id,
        warehouseId: removing.warehouse.id,
      });
      notify({ kind: 'success', message: answer.msg });
    } catch (error) {
      notify({ kind: 'error', message: messageOf(error) });
    } finally {
      setRemoving(null);
    }
  }

  return (
    <section className="card" aria-labelledby="master-code-locations">
      <div className="section-header">
        <h2 id="master-code-locations">{t('locations.title')}</h2>
        {canManage && (
          <button
            type="button"
            className="button"
            onClick={() => setEditing({ masterCode: self, warehouseId: null, rackId: null, note: '' })}
          >
            {t('locations.add')}
          </button>
        )}
      </div>
      {masterCode.locations.length === 0 ? (
        <p className="muted">{t('locations.empty')}</p>
      ) : (
        <table className="simple-table">
          <thead>
            <tr>
              <th scope="col">{t('locations.columns.warehouse')}</th>
              <th scope="col">{t('locations.columns.rack')}</th>
              <th scope="col">{t('locations.columns.rack_status')}</th>
              <th scope="col">{t('locations.columns.note')}</th>
              {canManage && <th scope="col">{t('columns.actions')}</th>}
            </tr>
          </thead>
          <tbody>
            {masterCode.locations.map((location) => (
              <tr key={location.warehouse.id}>
                <td>
                  {location.warehouse.name} <span className="muted">({location.warehouse.code})</span>{' '}
                  <span className="badge badge-muted">{t(`places.kind.${location.warehouse.kind}`)}</span>
                </td>
                <td>{location.rack?.name ?? <span className="muted">{t('locations.no_rack')}</span>}</td>
                <td>{location.rack ? t(`racks.status.${location.rack.status}`) : ''}</td>
                <td>{location.note}</td>
                {canManage && (
                  <td>
                    <div className="row-actions">
                      <button
                        type="button"
                        className="button button-small"
                        aria-label={t('locations.edit_named', { place: location.warehouse.name })}
                        onClick={() =>
                          setEditing({
                            masterCode: self,
                            warehouseId: location.warehouse.id,
                            rackId: location.rack?.id ?? null,
                            note: location.note,
                          })
                        }
                      >
                        {t('actions.edit')}
                      </button>
                      <button
                        type="button"
                        className="button button-small button-danger-outline"
                        aria-label={t('locations.remove_named', { place: location.warehouse.name })}
                        onClick={() => setRemoving(location)}
                      >
                        {t('actions.remove')}
                      </button>
                    </div>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {editing && (
        <LocationDialog
          target={editing}
          excludePlaces={masterCode.locations.map((location) => location.warehouse.id)}
          onClose={() => setEditing(null)}
          onSaved={() => setEditing(null)}
        />
      )}
      {removing && (
        <ConfirmDialog
          title={t('locations.remove_title')}
          message={t('locations.remove_confirm', { code: masterCode.code, place: removing.warehouse.name })}
          confirmLabel={t('actions.remove')}
          cancelLabel={t('actions.cancel')}
          busy={remove.isPending}
          onConfirm={confirmRemove}
          onCancel={() => setRemoving(null)}
        />
      )}
    </section>
  );
}
