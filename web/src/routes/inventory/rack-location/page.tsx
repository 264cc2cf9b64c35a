import {
  RACK_LOCATIONS_ENDPOINT,
  RACKS_ENDPOINT,
  type Rack,
  type RackLocationRow,
  scopedEndpoint,
  useDeleteRack,
  useRemoveLocation,
} from '@web/api/racks';
import { useAllPlaces } from '@web/api/warehouses';
import { useSession } from '@web/auth/session';
import { DataGrid, type DataGridHandle } from '@web/components/data-grid';
import type { RowActions } from '@web/components/grid-screen';
import { ConfirmDialog } from '@web/components/modal-dialog';
import { FormMessage, messageOf, SelectField } from '@web/shell/form';
import { useNotify } from '@web/shell/notifications';
import { useCallback, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { LocationDialog, type LocationTarget } from '../components/location-dialog';
import { Tabs, useTab } from '../components/tabs';
import { RackForm } from './rack-form';
import { useLocationColumns } from './use-location-columns';
import { useRackColumns } from './use-rack-columns';
import '@web/routes/management.css';
import '../inventory.css';

/**
 * Inventory → rack location (spec §3 "Warehouse and rack"): the racks of every place or of one (name, status
 * occupied or available, note), and where each master code sits. A master code is removed from a place only with 0
 * quantity there; the API's refusal ("Only 0 quantity able to be removed from a branch") is shown as it comes.
 */

const TABS = ['racks', 'locations'] as const;

function useRowActions<Row>(onEdit: (row: Row) => void, onDelete: (row: Row) => void): RowActions<Row> {
  return useMemo(() => ({ onEdit, onDelete }), [onEdit, onDelete]);
}

function RacksTab({ warehouseId }: { warehouseId: string | null }) {
  const { t } = useTranslation('inventory');
  const notify = useNotify();
  const searchId = useId();
  const grid = useRef<DataGridHandle>(null);
  const remove = useDeleteRack();
  const [search, setSearch] = useState('');
  const [editing, setEditing] = useState<Rack | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Rack | null>(null);
  const actions = useRowActions<Rack>(
    useCallback((row) => setEditing(row), []),
    useCallback((row) => setDeleting(row), []),
  );
  const columns = useRackColumns(actions);

  async function confirmDelete() {
    if (!deleting) return;
    try {
      const answer = await remove.mutateAsync(deleting.id);
      notify({ kind: 'success', message: answer.msg });
      grid.current?.refresh();
    } catch (error) {
      notify({ kind: 'error', message: messageOf(error) });
    } finally {
      setDeleting(null);
    }
  }

  return (
    <>
      <div className="toolbar">
        <label htmlFor={searchId} className="visually-hidden">
          {t('racks.search_label')}
        </label>
        <input
          id={searchId}
          type="search"
          className="input toolbar-search"
          placeholder={t('racks.search_placeholder')}
          value={search}
          onChange={(event) => setSearch(event.target.value)}
        />
        <button type="button" className="button button-primary toolbar-end" onClick={() => setEditing('new')}>
          {t('racks.add')}
        </button>
      </div>
      <DataGrid<Rack>
        gridId="inventory.racks"
        endpoint={scopedEndpoint(RACKS_ENDPOINT, warehouseId)}
        columns={columns}
        label={t('racks.grid_label')}
        search={search}
        getRowId={(row) => row.id}
        handle={grid}
      />
      {editing && (
        <RackForm
          rack={editing === 'new' ? null : editing}
          warehouseId={warehouseId}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            grid.current?.refresh();
          }}
        />
      )}
      {deleting && (
        <ConfirmDialog
          title={t('racks.delete_title')}
          message={t('racks.delete_confirm', { name: deleting.name, place: deleting.warehouse.name })}
          confirmLabel={t('actions.delete')}
          cancelLabel={t('actions.cancel')}
          busy={remove.isPending}
          onConfirm={confirmDelete}
          onCancel={() => setDeleting(null)}
        />
      )}
    </>
  );
}

function LocationsTab({ warehouseId }: { warehouseId: string | null }) {
  const { t } = useTranslation('inventory');
  const notify = useNotify();
  const { can } = useSession();
  const searchId = useId();
  const grid = useRef<DataGridHandle>(null);
  const remove = useRemoveLocation();
  const [search, setSearch] = useState('');
  const [editing, setEditing] = useState<LocationTarget | null>(null);
  const [removing, setRemoving] = useState<RackLocationRow | null>(null);
  const actions = useRowActions<RackLocationRow>(
    useCallback(
      (row) =>
        setEditing({
          masterCode: row.master_code,
          warehouseId: row.warehouse.id,
          rackId: row.rack?.id ?? null,
          note: row.note,
        }),
      [],
    ),
    useCallback((row) => setRemoving(row), []),
  );
  const columns = useLocationColumns(actions);

  async function confirmRemove() {
    if (!removing) return;
    try {
      const answer = await remove.mutateAsync({
        masterCodeId: removing.master_code.id,
        warehouseId: removing.warehouse.id,
      });
      notify({ kind: 'success', message: answer.msg });
      grid.current?.refresh();
    } catch (error) {
      notify({ kind: 'error', message: messageOf(error) });
    } finally {
      setRemoving(null);
    }
  }

  return (
    <>
      <div className="toolbar">
        <label htmlFor={searchId} className="visually-hidden">
          {t('locations.search_label')}
        </label>
        <input
          id={searchId}
          type="search"
          className="input toolbar-search"
          placeholder={t('locations.search_placeholder')}
          value={search}
          onChange={(event) => setSearch(event.target.value)}
        />
        {(can('inventory-master-code') || can('inventory-rack')) && (
          <button
            type="button"
            className="button button-primary toolbar-end"
            onClick={() => setEditing({ masterCode: null, warehouseId: null, rackId: null, note: '' })}
          >
            {t('locations.place')}
          </button>
        )}
      </div>
      <DataGrid<RackLocationRow>
        gridId="inventory.rack-locations"
        endpoint={scopedEndpoint(RACK_LOCATIONS_ENDPOINT, warehouseId)}
        columns={columns}
        label={t('locations.grid_label')}
        search={search}
        getRowId={(row) => `${row.master_code.id}@${row.warehouse.id}`}
        handle={grid}
      />
      {editing && (
        <LocationDialog
          target={editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            grid.current?.refresh();
          }}
        />
      )}
      {removing && (
        <ConfirmDialog
          title={t('locations.remove_title')}
          message={t('locations.remove_confirm', {
            code: removing.master_code.code,
            place: removing.warehouse.name,
          })}
          confirmLabel={t('actions.remove')}
          cancelLabel={t('actions.cancel')}
          busy={remove.isPending}
          onConfirm={confirmRemove}
          onCancel={() => setRemoving(null)}
        />
      )}
    </>
  );
}

export default function RackLocationPage() {
  const { t } = useTranslation('inventory');
  const [tab, setTab] = useTab(TABS);
  const [params, setParams] = useSearchParams();
  const { places, error } = useAllPlaces();
  const asked = params.get('place');
  const warehouseId = asked && places.some((place) => place.id === asked) ? asked : null;

  const choosePlace = (id: string) =>
    setParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        if (id) next.set('place', id);
        else next.delete('place');
        return next;
      },
      { replace: true },
    );

  return (
    <div className="page management-page inventory-page">
      <div className="page-header">
        <div>
          <h1 className="page-title">{t('racks.title')}</h1>
          <p className="muted">{t('racks.intro')}</p>
        </div>
      </div>
      {error && <FormMessage kind="error">{messageOf(error)}</FormMessage>}
      <div className="place-scope">
        <SelectField
          label={t('racks.place_filter')}
          value={warehouseId ?? ''}
          onChange={(event) => choosePlace(event.target.value)}
          options={places.map((place) => ({
            value: place.id,
            label: `${place.name} (${place.code}) · ${t(`places.kind.${place.kind}`)}`,
          }))}
          placeholder={t('racks.all_places')}
        />
      </div>
      <Tabs
        label={t('racks.tabs_label')}
        tabs={TABS.map((id) => ({ id, label: t(`racks.tabs.${id}`) }))}
        current={tab}
        onChange={setTab}
      >
        {tab === 'racks' ? (
          <RacksTab warehouseId={warehouseId} />
        ) : (
          <LocationsTab warehouseId={warehouseId} />
        )}
      </Tabs>
    </div>
  );
}
