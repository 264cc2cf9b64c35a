import { useLiveRefresh } from '@web/api/live';
import { DataGrid, type DataGridHandle } from '@web/components/data-grid';
import { ConfirmDialog } from '@web/components/modal-dialog';
import { messageOf } from '@web/shell/form';
import { useNotify } from '@web/shell/notifications';
import { PageHeader, SearchToolbar } from '@web/shell/page';
import type { ColDef } from 'ag-grid-community';
import { type ReactNode, type RefObject, useCallback, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import '@web/routes/management.css';

/**
 * Every grid page of the console: a header (title, intro, the page's actions), optional tabs with counts, a toolbar
 * (search box and the page's filters), an optional selection bar for bulk actions, the server-side grid, and the
 * page's dialogs and drawer. Every prop past the first five is optional, so a page asks only for what it has.
 *
 * Texts come from `<namespace>:<prefix>.title`, `.intro`, `.search_label`, `.search_placeholder`, `.grid_label`,
 * and — with `form` — `.add`; with `remove` — `.delete_title` and `<namespace>:actions.delete|cancel`.
 *
 * Props:
 * - `namespace`, `prefix`: where the texts above live; `gridId`: the key of the column layout in table settings;
 *   `endpoint`: the list endpoint (put the page's filters in its query string: a new endpoint reloads the rows);
 *   `useColumns(actions)`: the columns hook, given `{ onEdit, onDelete, onOpen }` for its action cells (a page
 *   with more row actions wraps it: `useColumns={(actions) => useTransferColumns({ ...actions, approve })}`).
 * - `title`, `intro`: override the texts (a title that follows the tab); `className`, `gridClassName`: extra classes.
 * - `actions`: the header's buttons (beside "add" when `form` is given); `above`: what shows between the header
 *   and the tabs/toolbar (a settings panel).
 * - `form({ row, onClose, onSaved })`: the create (row null) or edit dialog; gives the header its "add" button.
 * - `remove` + `deleteMessage(row)`: delete after a confirmation (a mutation answering `{ msg }`).
 * - `tabs`: `{ label, current, items: [{ id, label, count?, to? }], onChange?, aria? }`; an item with `to` is a link
 *   (a route per tab), otherwise a button calling `onChange(id)`. A count shows as a badge
 *   (`data-testid="tab-count-<id>"`, `…` while undefined). `aria: true` makes them ARIA tabs (a tablist whose panel
 *   holds the toolbar and the grid; arrow keys move between tabs) for a page whose tabs are views of one screen.
 * - `filters`: the toolbar's controls after the search box; `search={false}` drops the search box; `query`: the
 *   search text of a page that keeps its own search box (say, in a filters card in `above`).
 * - `selection`: `{ label, count?(n), actions(rows, clear) }` turns on row checkboxes and a toolbar of bulk actions.
 * - `live`: a live view name (from `@domain/shared/live-views`), or several, whose notices reload the rows; `onLive`
 *   runs after.
 * - `getRowId(row)`: the row's grid id, for rows without an `id` (default `row.id`).
 * - `detail({ row, onClose, refresh })`: a drawer or dialog for the row `actions.onOpen(row)` opened.
 * - `grid`: a ref to the grid's handle, for a page that refreshes it from its own dialogs; `children`: those dialogs.
 *
 * Example (a list with a status filter, a bulk action, live updates and a drawer):
 *
 *     <GridScreen<Transfer>
 *       namespace="transfers" prefix="list" gridId="transfers.list"
 *       endpoint={`/api/transfers?status=${status}`} useColumns={useTransferColumns}
 *       filters={<StatusFilter value={status} onChange={setStatus} />}
 *       selection={{ label: t('list.bulk_label'), actions: (rows, clear) => <ApproveButton rows={rows} onDone={clear} /> }}
 *       live={LIVE_VIEWS.transfers}
 *       detail={({ row, onClose }) => <TransferDrawer id={row.id} onClose={onClose} />}
 *     />
 */

export interface RowActions<Row> {
  onEdit(row: Row): void;
  onDelete(row: Row): void;
  /** Opens the row's `detail` (drawer); optional so a page's own actions object need not carry it. */
  onOpen?(row: Row): void;
}

export interface GridTab {
  id: string;
  label: string;
  /** A badge beside the label; undefined shows `…` (still counting). Leave the key out for no badge. */
  count?: number | undefined;
  /** A link to the tab's own route; without it the tab is a button calling `onChange`. */
  to?: string;
}

export interface GridScreenProps<Row extends object> {
  namespace: string;
  prefix: string;
  gridId: string;
  endpoint: string;
  /** The grid's columns hook; it receives the row actions (edit, delete, open). */
  useColumns(actions: RowActions<Row>): ColDef<Row>[];
  /** A delete after a confirmation; give `deleteMessage` with it. */
  remove?: { mutateAsync(id: string): Promise<{ msg: string }>; isPending: boolean };
  deleteMessage?(row: Row): string;
  /** The create (row null) or edit dialog; with it the header shows the "add" button. */
  form?(props: { row: Row | null; onClose(): void; onSaved(): void }): ReactNode;
  title?: string;
  intro?: string;
  className?: string;
  gridClassName?: string;
  /** The header's other buttons. */
  actions?: ReactNode;
  /** Between the header and the tabs/toolbar (say, a settings panel). */
  above?: ReactNode;
  tabs?: {
    label: string;
    current: string;
    items: readonly GridTab[];
    onChange?(id: string): void;
    aria?: boolean;
  };
  /** The toolbar's controls after the search box. */
  filters?: ReactNode;
  /** `false` leaves the search box out (the toolbar still shows `filters`). */
  search?: boolean;
  /** The search text when the page keeps its own search box (with `search={false}`). */
  query?: string;
  selection?: {
    label: string;
    /** The text saying how many rows are selected. */
    count?(selected: number): string;
    actions(rows: Row[], clear: () => void): ReactNode;
  };
  live?: string | readonly string[];
  onLive?(): void;
  detail?(props: { row: Row; onClose(): void; refresh(): void }): ReactNode;
  grid?: RefObject<DataGridHandle | null>;
  blockSize?: number;
  /** The row's grid id; without it, `row.id`. */
  getRowId?(row: Row): string;
  /** The page's own dialogs, after the grid. */
  children?: ReactNode;
}

export function GridScreen<Row extends object>(props: GridScreenProps<Row>) {
  const { t } = useTranslation(props.namespace);
  const notify = useNotify();
  const ownGrid = useRef<DataGridHandle>(null);
  const grid = props.grid ?? ownGrid;
  const [search, setSearch] = useState('');
  const [editing, setEditing] = useState<Row | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Row | null>(null);
  const [opened, setOpened] = useState<Row | null>(null);
  const [selected, setSelected] = useState<Row[]>([]);
  const key = (name: string) => `${props.prefix}.${name}`;
  const rowId = props.getRowId ?? idOf;
  const refresh = useCallback(() => grid.current?.refresh(), [grid]);
  const clear = useCallback(() => grid.current?.clearSelection(), [grid]);

  const onEdit = useCallback((row: Row) => setEditing(row), []);
  const onDelete = useCallback((row: Row) => setDeleting(row), []);
  const onOpen = useCallback((row: Row) => setOpened(row), []);
  const actions = useMemo<RowActions<Row>>(() => ({ onEdit, onDelete, onOpen }), [onEdit, onDelete, onOpen]);
  const columns = props.useColumns(actions);
  const { remove } = props;

  async function confirmDelete() {
    if (!deleting || !remove) return;
    try {
      const answer = await remove.mutateAsync(rowId(deleting));
      notify({ kind: 'success', message: answer.msg });
      refresh();
    } catch (error) {
      notify({ kind: 'error', message: messageOf(error) });
    } finally {
      setDeleting(null);
    }
  }

  const addButton = props.form && (
    <button type="button" className="button button-primary" onClick={() => setEditing('new')}>
      {t(key('add'))}
    </button>
  );
  const className = ['page', 'management-page', props.className].filter(Boolean).join(' ');
  const tabBase = useId();
  const ariaTabs = props.tabs?.aria === true;
  const panel = (body: ReactNode) =>
    ariaTabs && props.tabs ? (
      <TabPanel base={tabBase} current={props.tabs.current}>
        {body}
      </TabPanel>
    ) : (
      body
    );
  return (
    <div className={className}>
      <PageHeader title={props.title ?? t(key('title'))} intro={props.intro ?? t(key('intro'))}>
        {props.actions ? (
          <div className="header-actions">
            {props.actions}
            {addButton}
          </div>
        ) : (
          addButton
        )}
      </PageHeader>
      {props.above}
      {props.tabs && (ariaTabs ? <AriaTabs {...props.tabs} base={tabBase} /> : <GridTabs {...props.tabs} />)}
      {panel(
        <>
          {props.search === false ? (
            props.filters && <div className="toolbar">{props.filters}</div>
          ) : (
            <SearchToolbar
              label={t(key('search_label'))}
              placeholder={t(key('search_placeholder'))}
              value={search}
              onChange={setSearch}
            >
              {props.filters}
            </SearchToolbar>
          )}
          {props.selection && (
            <div className="grid-selection" role="toolbar" aria-label={props.selection.label}>
              {props.selection.count && (
                <span className="muted" data-testid="selected-count">
                  {props.selection.count(selected.length)}
                </span>
              )}
              {props.selection.actions(selected, clear)}
            </div>
          )}
          <DataGrid<Row>
            gridId={props.gridId}
            endpoint={props.endpoint}
            columns={columns}
            label={t(key('grid_label'))}
            search={props.query ?? search}
            getRowId={rowId}
            handle={grid}
            blockSize={props.blockSize}
            onSelect={props.selection ? setSelected : undefined}
            className={props.gridClassName}
          />
        </>,
      )}
      {(typeof props.live === 'string' ? [props.live] : (props.live ?? [])).map((view) => (
        <LiveRows key={view} view={view} refresh={refresh} also={props.onLive} />
      ))}
      {editing &&
        props.form?.({
          row: editing === 'new' ? null : editing,
          onClose: () => setEditing(null),
          onSaved: () => {
            setEditing(null);
            refresh();
          },
        })}
      {deleting && remove && (
        <ConfirmDialog
          title={t(key('delete_title'))}
          message={props.deleteMessage?.(deleting) ?? ''}
          confirmLabel={t('actions.delete')}
          cancelLabel={t('actions.cancel')}
          busy={remove.isPending}
          onConfirm={confirmDelete}
          onCancel={() => setDeleting(null)}
        />
      )}
      {opened && props.detail?.({ row: opened, onClose: () => setOpened(null), refresh })}
      {props.children}
    </div>
  );
}

function idOf(row: object): string {
  return (row as { id: string }).id;
}

/** Follows a live view while mounted (a component, so a screen without `live` subscribes to nothing). */
function LiveRows({
  view,
  refresh,
  also,
}: {
  view: string;
  refresh(): void;
  also?: (() => void) | undefined;
}) {
  useLiveRefresh(view, () => {
    refresh();
    also?.();
  });
  return null;
}

/** The panel of an ARIA tab list (`AriaTabs` with the same `base`). */
export function TabPanel({
  base,
  current,
  children,
}: {
  base: string;
  current: string;
  children: ReactNode;
}) {
  return (
    <div
      id={`${base}-panel`}
      role="tabpanel"
      aria-labelledby={`${base}-tab-${current}`}
      className="tab-panel"
    >
      {children}
    </div>
  );
}

/**
 * An ARIA tab list (`tabs.aria`, and the tabs of a screen that are not grids): its tabs control the panel
 * `<base>-panel` and are `<base>-tab-<id>`; arrow keys move between them.
 */
export function AriaTabs({
  label,
  current,
  items,
  onChange,
  base,
}: NonNullable<GridScreenProps<{ id: string }>['tabs']> & { base: string }) {
  const tabId = (id: string) => `${base}-tab-${id}`;
  const move = (from: number, step: number) => {
    const next = items[(from + step + items.length) % items.length]!;
    onChange?.(next.id);
    document.getElementById(tabId(next.id))?.focus();
  };
  return (
    <div className="tab-list" role="tablist" aria-label={label}>
      {items.map((tab, index) => (
        <button
          key={tab.id}
          id={tabId(tab.id)}
          type="button"
          role="tab"
          className="tab"
          aria-selected={tab.id === current}
          aria-controls={`${base}-panel`}
          tabIndex={tab.id === current ? 0 : -1}
          onClick={() => onChange?.(tab.id)}
          onKeyDown={(event) => {
            if (event.key === 'ArrowRight') move(index, 1);
            else if (event.key === 'ArrowLeft') move(index, -1);
          }}
        >
          {tab.label}
        </button>
      ))}
    </div>
  );
}

/** The tabs above a grid: links to a route per tab, or buttons; each with its count when it has one. */
export function GridTabs({
  label,
  current,
  items,
  onChange,
}: NonNullable<GridScreenProps<{ id: string }>['tabs']>) {
  return (
    <nav className="grid-tabs" aria-label={label}>
      {items.map((tab) => {
        const isCurrent = tab.id === current;
        const content = (
          <>
            {tab.label}
            {'count' in tab && (
              <span className="grid-tab-count" data-testid={`tab-count-${tab.id}`}>
                {tab.count ?? '…'}
              </span>
            )}
          </>
        );
        const className = `grid-tab ${isCurrent ? 'grid-tab-current' : ''}`;
        return tab.to !== undefined ? (
          <Link key={tab.id} to={tab.to} className={className} aria-current={isCurrent ? 'page' : undefined}>
            {content}
          </Link>
        ) : (
          <button
            key={tab.id}
            type="button"
            className={className}
            aria-pressed={isCurrent}
            onClick={() => onChange?.(tab.id)}
          >
            {content}
          </button>
        );
      })}
    </nav>
  );
}
