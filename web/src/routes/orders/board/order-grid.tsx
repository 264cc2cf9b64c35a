import { useQueryClient } from '@tanstack/react-query';
import { apiData } from '@web/api/client';
import {
  type SavedColumnState,
  type TableSettings,
  tableSettingsKeys,
  useSaveTableSettings,
  useTableSettings,
} from '@web/api/table-settings';
import { useNotify } from '@web/shell/notifications';
import {
  AllCommunityModule,
  type ColDef,
  type GridApi,
  type IDatasource,
  ModuleRegistry,
} from 'ag-grid-community';
import { AgGridReact } from 'ag-grid-react';
import { type Ref, useCallback, useEffect, useImperativeHandle, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { OrderRow } from '../api';

ModuleRegistry.registerModules([AllCommunityModule]);

/**
 * The board's grid: ag-grid's Infinite Row Model over GET /api/orders (as the console's DataGrid), with a checkbox
 * per row for the bulk actions. The column layout is kept in the user's table settings under `orders.board`.
 */

export interface OrderGridHandle {
  /** Reloads the rows in place (a live change, an action done). */
  refresh(): void;
  /** Clears the selection (after a bulk action). */
  clearSelection(): void;
}

const GRID_ID = 'orders.board';
const SEARCH_DELAY_MS = 300;
const SAVE_DELAY_MS = 600;

export function OrderGrid({
  endpoint,
  columns,
  label,
  search,
  onSelect,
  handle,
}: {
  endpoint: string;
  columns: ColDef<OrderRow>[];
  label: string;
  search: string;
  onSelect(rows: OrderRow[]): void;
  handle: Ref<OrderGridHandle>;
}) {
  const { t } = useTranslation('settings');
  const notify = useNotify();
  const queryClient = useQueryClient();
  const settings = useTableSettings();
  const { mutate: saveSettings } = useSaveTableSettings();
  const [gridApi, setGridApi] = useState<GridApi<OrderRow> | null>(null);
  const endpointRef = useRef(endpoint);
  const searchRef = useRef(search);
  const applied = useRef(false);
  const saveTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const onSelectRef = useRef(onSelect);
  useEffect(() => {
    onSelectRef.current = onSelect;
  }, [onSelect]);

  const datasource = useMemo<IDatasource>(
    () => ({
      getRows(params) {
        apiData<{ rows: OrderRow[]; lastRow: number }>(endpointRef.current, {
          query: {
            startRow: params.startRow,
            endRow: params.endRow,
            sortModel: JSON.stringify(params.sortModel.map(({ colId, sort }) => ({ colId, sort }))),
            filterModel: JSON.stringify(params.filterModel ?? {}),
            search: searchRef.current.trim() || undefined,
          },
        }).then(
          (page) => params.successCallback(page.rows, page.lastRow),
          (error: unknown) => {
            params.failCallback();
            notify({ kind: 'error', message: error instanceof Error ? error.message : String(error) });
          },
        );
      },
    }),
    [notify],
  );

  useImperativeHandle(
    handle,
    () => ({
      refresh: () => gridApi?.refreshInfiniteCache(),
      clearSelection: () => gridApi?.deselectAll(),
    }),
    [gridApi],
  );

  // Another tab, filter or store: the rows start over from the top, and nothing stays selected.
  useEffect(() => {
    if (!gridApi || endpoint === endpointRef.current) return;
    endpointRef.current = endpoint;
    gridApi.deselectAll();
    gridApi.purgeInfiniteCache();
  }, [endpoint, gridApi]);

  useEffect(() => {
    if (!gridApi || search === searchRef.current) return;
    const timer = setTimeout(() => {
      searchRef.current = search;
      gridApi.deselectAll();
      gridApi.purgeInfiniteCache();
    }, SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [search, gridApi]);

  useEffect(() => {
    if (!gridApi || applied.current || settings.isPending) return;
    const stored = settings.data?.[GRID_ID]?.columnState;
    if (stored && stored.length > 0) gridApi.applyColumnState({ state: stored, applyOrder: true });
    applied.current = true;
  }, [gridApi, settings.isPending, settings.data]);

  const columnsChanged = useCallback(() => {
    if (!gridApi || !applied.current || gridApi.isDestroyed()) return;
    const state: SavedColumnState[] = gridApi.getColumnState().map((column) => ({
      colId: column.colId,
      ...(typeof column.width === 'number' ? { width: Math.round(column.width) } : {}),
      hide: column.hide ?? null,
      pinned: column.pinned === true ? 'left' : column.pinned ? column.pinned : null,
      sort: column.sort ?? null,
      sortIndex: column.sortIndex ?? null,
    }));
    clearTimeout(saveTimer.current);
    saveTimer.current = setTimeout(() => {
      const current = queryClient.getQueryData<TableSettings>(tableSettingsKeys.detail()) ?? {};
      saveSettings({ ...current, [GRID_ID]: { ...current[GRID_ID], columnState: state } });
    }, SAVE_DELAY_MS);
  }, [gridApi, queryClient, saveSettings]);
  useEffect(() => () => clearTimeout(saveTimer.current), []);

  const localeText = useMemo(
    () => ({
      loadingOoo: t('grid.loading'),
      noRowsToShow: t('grid.no_rows'),
      loadingError: t('grid.load_failed'),
    }),
    [t],
  );

  return (
    <section className="data-grid order-grid" aria-label={label}>
      <AgGridReact<OrderRow>
        columnDefs={columns}
        defaultColDef={{ resizable: true, sortable: false, filter: false, minWidth: 80 }}
        rowModelType="infinite"
        datasource={datasource}
        cacheBlockSize={100}
        maxBlocksInCache={20}
        infiniteInitialRowCount={1}
        getRowId={(params) => params.data.id}
        rowSelection={{
          mode: 'multiRow',
          checkboxes: true,
          headerCheckbox: false,
          enableClickSelection: false,
        }}
        selectionColumnDef={{ pinned: 'left', width: 48, minWidth: 48, maxWidth: 48, resizable: false }}
        onSelectionChanged={(event) => onSelectRef.current(event.api.getSelectedRows())}
        localeText={localeText}
        suppressCellFocus
        maintainColumnOrder
        onGridReady={(event) => setGridApi(event.api)}
        onColumnMoved={(event) => event.finished && columnsChanged()}
        onColumnResized={(event) => event.finished && event.source === 'uiColumnResized' && columnsChanged()}
        onColumnVisible={columnsChanged}
        onSortChanged={columnsChanged}
      />
    </section>
  );
}
