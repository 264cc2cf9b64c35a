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
import { Spinner } from '@web/shell/spinner';
import {
  AllCommunityModule,
  type ColDef,
  type ColumnState,
  type GridApi,
  type IDatasource,
  ModuleRegistry,
  type RowSelectionOptions,
  type SelectionColumnDef,
} from 'ag-grid-community';
import { AgGridReact } from 'ag-grid-react';
import { type Ref, useCallback, useEffect, useImperativeHandle, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

ModuleRegistry.registerModules([AllCommunityModule]);

/**
 * Every list of the console: ag-grid's Infinite Row Model over a list endpoint that answers
 * `{ rows, lastRow }` for `startRow, endRow, sortModel, filterModel, search`. The column layout the user makes
 * (order, widths, hidden and pinned columns, sort) is kept in their table settings under `gridId`: applied when
 * the grid is ready, saved a moment after each change. With `onSelect`, each row gets a checkbox (no header
 * checkbox, clicking a row does not select it) and a new endpoint or search clears the selection.
 */

export interface GridPage<Row> {
  rows: Row[];
  lastRow: number;
}

export interface DataGridHandle {
  /** Reloads the rows in place, after a change the screen made. */
  refresh(): void;
  /** Clears the selection (after a bulk action); nothing on a grid without selection. */
  clearSelection(): void;
}

export interface DataGridProps<Row> {
  /** The key of this grid's column state in the user's table settings. */
  gridId: string;
  endpoint: string;
  columns: ColDef<Row>[];
  /** The grid's accessible name. */
  label: string;
  search?: string;
  getRowId: (row: Row) => string;
  handle?: Ref<DataGridHandle>;
  blockSize?: number;
  /** Turns on row selection with a checkbox per row; called with the selected rows on every change. */
  onSelect?: (rows: Row[]) => void;
  /** Extra classes on the grid's section (say, its height). */
  className?: string;
}

const SAVE_DELAY_MS = 600;
const SEARCH_DELAY_MS = 300;
const ROW_SELECTION: RowSelectionOptions = {
  mode: 'multiRow',
  checkboxes: true,
  headerCheckbox: false,
  enableClickSelection: false,
};
const SELECTION_COLUMN: SelectionColumnDef = {
  pinned: 'left',
  width: 48,
  minWidth: 48,
  maxWidth: 48,
  resizable: false,
};

/** The part of ag-grid's column state the settings keep. */
/** Headers wrap onto a second line rather than be cut, so figure columns can stay narrow. */
const DEFAULT_COLUMN = {
  resizable: true,
  sortable: false,
  filter: false,
  minWidth: 64,
  wrapHeaderText: true,
  autoHeaderHeight: true,
} as const;

function toSaved(state: ColumnState[]): SavedColumnState[] {
  return state.map((column) => {
    const saved: SavedColumnState = { colId: column.colId };
    if (typeof column.width === 'number') saved.width = Math.round(column.width);
    if (column.hide !== undefined) saved.hide = column.hide;
    saved.pinned = column.pinned === true ? 'left' : column.pinned ? column.pinned : null;
    saved.sort = column.sort ?? null;
    saved.sortIndex = column.sortIndex ?? null;
    if (column.flex !== undefined) saved.flex = column.flex;
    return saved;
  });
}

export function DataGrid<Row>({
  gridId,
  endpoint,
  columns,
  label,
  search = '',
  getRowId,
  handle,
  blockSize = 100,
  onSelect,
  className,
}: DataGridProps<Row>) {
  const { t } = useTranslation('settings');
  const notify = useNotify();
  const queryClient = useQueryClient();
  const settings = useTableSettings();
  const { mutate: saveSettings } = useSaveTableSettings();
  const [gridApi, setGridApi] = useState<GridApi<Row> | null>(null);
  // The first block of rows on its way: a spinner, not an empty first row that reads as "no data".
  const [firstBlockLoading, setFirstBlockLoading] = useState(true);

  const endpointRef = useRef(endpoint);
  const searchRef = useRef(search);
  const applied = useRef(false);
  const lastSaved = useRef('');
  const pending = useRef<SavedColumnState[] | null>(null);
  const saveTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const selectable = onSelect !== undefined;
  const onSelectRef = useRef(onSelect);
  useEffect(() => {
    onSelectRef.current = onSelect;
  }, [onSelect]);

  const datasource = useMemo<IDatasource>(
    () => ({
      getRows(params) {
        const first = params.startRow === 0;
        if (first) setFirstBlockLoading(true);
        apiData<GridPage<Row>>(endpointRef.current, {
          query: {
            startRow: params.startRow,
            endRow: params.endRow,
            sortModel: JSON.stringify(params.sortModel.map(({ colId, sort }) => ({ colId, sort }))),
            filterModel: JSON.stringify(params.filterModel ?? {}),
            search: searchRef.current.trim() || undefined,
          },
        })
          .then(
            (page) => params.successCallback(page.rows, page.lastRow),
            (error: unknown) => {
              params.failCallback();
              notify({ kind: 'error', message: error instanceof Error ? error.message : String(error) });
            },
          )
          .finally(() => first && setFirstBlockLoading(false));
      },
    }),
    [notify],
  );

  useImperativeHandle(
    handle,
    () => ({
      refresh: () => gridApi?.refreshInfiniteCache(),
      clearSelection: () => {
        if (selectable) gridApi?.deselectAll();
      },
    }),
    [gridApi, selectable],
  );

  // A new endpoint or search starts the rows over from the top, and nothing stays selected.
  useEffect(() => {
    if (!gridApi || endpoint === endpointRef.current) return;
    endpointRef.current = endpoint;
    if (selectable) gridApi.deselectAll();
    gridApi.purgeInfiniteCache();
  }, [endpoint, gridApi, selectable]);

  useEffect(() => {
    if (!gridApi || search === searchRef.current) return;
    const timer = setTimeout(() => {
      searchRef.current = search;
      if (selectable) gridApi.deselectAll();
      gridApi.purgeInfiniteCache();
      if (gridApi.getDisplayedRowCount() > 0) gridApi.ensureIndexVisible(0, 'top');
    }, SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [search, gridApi, selectable]);

  // The stored layout, once, as soon as both the grid and the settings are there.
  useEffect(() => {
    if (!gridApi || applied.current || settings.isPending) return;
    const stored = settings.data?.[gridId]?.columnState;
    if (stored && stored.length > 0) gridApi.applyColumnState({ state: stored, applyOrder: true });
    lastSaved.current = JSON.stringify(toSaved(gridApi.getColumnState()));
    applied.current = true;
  }, [gridApi, settings.isPending, settings.data, gridId]);

  const flush = useCallback(() => {
    clearTimeout(saveTimer.current);
    saveTimer.current = undefined;
    const state = pending.current;
    pending.current = null;
    if (!state) return;
    const text = JSON.stringify(state);
    if (text === lastSaved.current) return;
    lastSaved.current = text;
    const current = queryClient.getQueryData<TableSettings>(tableSettingsKeys.detail()) ?? {};
    saveSettings(
      { ...current, [gridId]: { ...current[gridId], columnState: state } },
      {
        onError: (error) =>
          notify({ kind: 'error', message: t('grid.save_failed', { reason: error.message }) }),
      },
    );
  }, [gridId, notify, queryClient, saveSettings, t]);

  const columnsChanged = useCallback(() => {
    if (!gridApi || !applied.current || gridApi.isDestroyed()) return;
    pending.current = toSaved(gridApi.getColumnState());
    clearTimeout(saveTimer.current);
    saveTimer.current = setTimeout(flush, SAVE_DELAY_MS);
  }, [gridApi, flush]);

  // Leaving the screen right after a change still keeps it.
  const flushRef = useRef(flush);
  useEffect(() => {
    flushRef.current = flush;
  }, [flush]);
  useEffect(() => () => flushRef.current(), []);

  const localeText = useMemo(
    () => ({
      loadingOoo: t('grid.loading'),
      noRowsToShow: t('grid.no_rows'),
      loadingError: t('grid.load_failed'),
    }),
    [t],
  );

  // Every header says its whole name on hover: a narrow column may cut a long one short.
  const withTooltips = useMemo(
    () =>
      columns.map((column) =>
        column.headerTooltip || !column.headerName ? column : { ...column, headerTooltip: column.headerName },
      ),
    [columns],
  );

  return (
    <section className={className ? `data-grid ${className}` : 'data-grid'} aria-label={label}>
      <AgGridReact<Row>
        columnDefs={withTooltips}
        defaultColDef={DEFAULT_COLUMN}
        enableBrowserTooltips
        rowModelType="infinite"
        datasource={datasource}
        cacheBlockSize={blockSize}
        maxBlocksInCache={20}
        infiniteInitialRowCount={1}
        getRowId={(params) => getRowId(params.data)}
        rowSelection={selectable ? ROW_SELECTION : undefined}
        selectionColumnDef={selectable ? SELECTION_COLUMN : undefined}
        onSelectionChanged={(event) => onSelectRef.current?.(event.api.getSelectedRows())}
        localeText={localeText}
        loading={firstBlockLoading}
        loadingOverlayComponent={GridLoading}
        loadingOverlayComponentParams={{ label: t('grid.loading') }}
        suppressCellFocus
        maintainColumnOrder
        onGridReady={(event) => setGridApi(event.api)}
        onColumnMoved={(event) => event.finished && columnsChanged()}
        onColumnResized={(event) => event.finished && event.source === 'uiColumnResized' && columnsChanged()}
        onColumnVisible={columnsChanged}
        onColumnPinned={columnsChanged}
        onSortChanged={columnsChanged}
      />
    </section>
  );
}

function GridLoading({ label }: { label: string }) {
  return <Spinner label={label} />;
}
