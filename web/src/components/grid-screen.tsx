import { DataGrid, type DataGridHandle } from '@web/components/data-grid';
import { ConfirmDialog } from '@web/components/modal-dialog';
import { messageOf } from '@web/shell/form';
import { useNotify } from '@web/shell/notifications';
import { PageHeader, SearchToolbar } from '@web/shell/page';
import type { ColDef } from 'ag-grid-community';
import { type ReactNode, useCallback, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import '@web/routes/management.css';

/**
 * A management screen made of one grid: a title, an "add" button, a search box, the server-side grid, a dialog to
 * create or edit a row and a confirmation before deleting one. The texts are `<ns>:<prefix>.title`, `.intro`,
 * `.add`, `.search_label`, `.search_placeholder`, `.grid_label`, `.delete_title`, and `<ns>:actions.delete|cancel`.
 */

export interface RowActions<Row> {
  onEdit(row: Row): void;
  onDelete(row: Row): void;
}

export interface GridScreenProps<Row extends { id: string }> {
  namespace: string;
  prefix: string;
  gridId: string;
  endpoint: string;
  /** The grid's columns hook; it receives the row actions (edit, delete). */
  useColumns(actions: RowActions<Row>): ColDef<Row>[];
  remove: { mutateAsync(id: string): Promise<{ msg: string }>; isPending: boolean };
  deleteMessage(row: Row): string;
  /** The create (row null) or edit dialog. */
  form(props: { row: Row | null; onClose(): void; onSaved(): void }): ReactNode;
}

export function GridScreen<Row extends { id: string }>(props: GridScreenProps<Row>) {
  const { t } = useTranslation(props.namespace);
  const notify = useNotify();
  const grid = useRef<DataGridHandle>(null);
  const [search, setSearch] = useState('');
  const [editing, setEditing] = useState<Row | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Row | null>(null);
  const key = (name: string) => `${props.prefix}.${name}`;

  const onEdit = useCallback((row: Row) => setEditing(row), []);
  const onDelete = useCallback((row: Row) => setDeleting(row), []);
  const actions = useMemo<RowActions<Row>>(() => ({ onEdit, onDelete }), [onEdit, onDelete]);
  const columns = props.useColumns(actions);

  async function confirmDelete() {
    if (!deleting) return;
    try {
      const answer = await props.remove.mutateAsync(deleting.id);
      notify({ kind: 'success', message: answer.msg });
      grid.current?.refresh();
    } catch (error) {
      notify({ kind: 'error', message: messageOf(error) });
    } finally {
      setDeleting(null);
    }
  }

  return (
    <div className="page management-page">
      <PageHeader title={t(key('title'))} intro={t(key('intro'))}>
        <button type="button" className="button button-primary" onClick={() => setEditing('new')}>
          {t(key('add'))}
        </button>
      </PageHeader>
      <SearchToolbar
        label={t(key('search_label'))}
        placeholder={t(key('search_placeholder'))}
        value={search}
        onChange={setSearch}
      />
      <DataGrid<Row>
        gridId={props.gridId}
        endpoint={props.endpoint}
        columns={columns}
        label={t(key('grid_label'))}
        search={search}
        getRowId={(row) => row.id}
        handle={grid}
      />
      {editing &&
        props.form({
          row: editing === 'new' ? null : editing,
          onClose: () => setEditing(null),
          onSaved: () => {
            setEditing(null);
            grid.current?.refresh();
          },
        })}
      {deleting && (
        <ConfirmDialog
          title={t(key('delete_title'))}
          message={props.deleteMessage(deleting)}
          confirmLabel={t('actions.delete')}
          cancelLabel={t('actions.cancel')}
          busy={props.remove.isPending}
          onConfirm={confirmDelete}
          onCancel={() => setDeleting(null)}
        />
      )}
    </div>
  );
}
