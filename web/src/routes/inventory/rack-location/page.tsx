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
import type { DataGridHandle } from '@web/components/data-grid';
import { GridScreen } from '@web/components/grid-screen';
import { ConfirmDialog } from '@web/components/modal-dialog';
import { FormMessage, messageOf, SelectField } from '@web/shell/form';
import { useNotify } from '@web/shell/notifications';
import { type ReactNode, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { LocationDialog, type LocationTarget } from '../components/location-dialog';
import { useTab } from '../components/tabs';
import { RackForm } from './rack-form';
import { useLocationColumns } from './use-location-columns';
import { useRackColumns } from './use-rack-columns';
import '@web/routes/management.css';
import '../inventory.css';

/**
 * Inventory → rack location (spec §3 "Warehouse and rack"): the racks of every place or of one, and where each master
 * code sits, as two ARIA tabs of one grid screen. A master code is removed from a place only with 0 quantity there;
 * the API's refusal ("Only 0 quantity able to be removed from a branch") is shown as it comes.
 */

const TABS = ['racks', 'locations'] as const;

interface TabProps {
  warehouseId: string | null;
  /** The header, the place filter and the tabs both tabs share. */
  screen: {
    namespace: string;
    title: string;
    intro: string;
    className: string;
    above: ReactNode;
    tabs: {
      label: string;
      current: string;
      items: { id: string; label: string }[];
      onChange(id: string): void;
      aria: true;
    };
  };
}

function RacksTab({ warehouseId, screen }: TabProps) {
  const { t } = useTranslation('inventory');
  return (
    <GridScreen<Rack>
      {...screen}
      prefix="racks"
      gridId="inventory.racks"
      endpoint={scopedEndpoint(RACKS_ENDPOINT, warehouseId)}
      useColumns={useRackColumns}
      remove={useDeleteRack()}
      deleteMessage={(row) => t('racks.delete_confirm', { name: row.name, place: row.warehouse.name })}
      form={({ row, onClose, onSaved }) => (
        <RackForm rack={row} warehouseId={warehouseId} onClose={onClose} onSaved={onSaved} />
      )}
    />
  );
}

function LocationsTab({ warehouseId, screen }: TabProps) {
  const { t } = useTranslation('inventory');
  const notify = useNotify();
  const { can } = useSession();
  const grid = useRef<DataGridHandle>(null);
  const remove = useRemoveLocation();
  const [editing, setEditing] = useState<LocationTarget | null>(null);
  const [removing, setRemoving] = useState<RackLocationRow | null>(null);
  const actions = useMemo(
    () => ({
      onEdit: (row: RackLocationRow) =>
        setEditing({
          masterCode: row.master_code,
          warehouseId: row.warehouse.id,
          rackId: row.rack?.id ?? null,
          note: row.note,
        }),
      onDelete: setRemoving,
    }),
    [],
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
    <GridScreen<RackLocationRow>
      {...screen}
      prefix="locations"
      gridId="inventory.rack-locations"
      endpoint={scopedEndpoint(RACK_LOCATIONS_ENDPOINT, warehouseId)}
      useColumns={() => columns}
      getRowId={(row) => `${row.master_code.id}@${row.warehouse.id}`}
      grid={grid}
      actions={
        (can('inventory-master-code') || can('inventory-rack')) && (
          <button
            type="button"
            className="button button-primary"
            onClick={() => setEditing({ masterCode: null, warehouseId: null, rackId: null, note: '' })}
          >
            {t('locations.place')}
          </button>
        )
      }
    >
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
    </GridScreen>
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

  const screen: TabProps['screen'] = {
    namespace: 'inventory',
    title: t('racks.title'),
    intro: t('racks.intro'),
    className: 'inventory-page',
    above: (
      <>
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
      </>
    ),
    tabs: {
      label: t('racks.tabs_label'),
      current: tab,
      items: TABS.map((id) => ({ id, label: t(`racks.tabs.${id}`) })),
      onChange: (id) => setTab(id as (typeof TABS)[number]),
      aria: true,
    },
  };
  return tab === 'racks' ? (
    <RacksTab key="racks" warehouseId={warehouseId} screen={screen} />
  ) : (
    <LocationsTab key="locations" warehouseId={warehouseId} screen={screen} />
  );
}
