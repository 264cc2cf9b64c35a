import {
  ADMIN_ANNOUNCEMENTS_ENDPOINT,
  type AdminAnnouncement,
  useDeleteAnnouncement,
} from '@web/api/announcements';
import { DataGrid, type DataGridHandle } from '@web/components/data-grid';
import { ConfirmDialog } from '@web/components/modal-dialog';
import { messageOf } from '@web/shell/form';
import { useNotify } from '@web/shell/notifications';
import { useCallback, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AnnouncementForm } from './announcement-form';
import { type AnnouncementActions, useAnnouncementColumns } from './use-announcement-columns';
import '@web/routes/management.css';

/** Admin settings → announcements: every announcement in a grid, written in a dialog, deleted after a confirmation. */
export default function AdminAnnouncementsPage() {
  const { t } = useTranslation('admin');
  const notify = useNotify();
  const searchId = useId();
  const grid = useRef<DataGridHandle>(null);
  const [search, setSearch] = useState('');
  const [editing, setEditing] = useState<AdminAnnouncement | 'new' | null>(null);
  const [deleting, setDeleting] = useState<AdminAnnouncement | null>(null);
  const remove = useDeleteAnnouncement();

  const onEdit = useCallback((announcement: AdminAnnouncement) => setEditing(announcement), []);
  const onDelete = useCallback((announcement: AdminAnnouncement) => setDeleting(announcement), []);
  const actions = useMemo<AnnouncementActions>(() => ({ onEdit, onDelete }), [onEdit, onDelete]);
  const columns = useAnnouncementColumns(actions);

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
    <div className="page management-page">
      <div className="page-header">
        <div>
          <h1 className="page-title">{t('announcements.title')}</h1>
          <p className="muted">{t('announcements.intro')}</p>
        </div>
        <button type="button" className="button button-primary" onClick={() => setEditing('new')}>
          {t('announcements.add')}
        </button>
      </div>
      <div className="toolbar">
        <label htmlFor={searchId} className="visually-hidden">
          {t('announcements.search_label')}
        </label>
        <input
          id={searchId}
          type="search"
          className="input toolbar-search"
          placeholder={t('announcements.search_placeholder')}
          value={search}
          onChange={(event) => setSearch(event.target.value)}
        />
      </div>
      <DataGrid<AdminAnnouncement>
        gridId="admin.announcements"
        endpoint={ADMIN_ANNOUNCEMENTS_ENDPOINT}
        columns={columns}
        label={t('announcements.grid_label')}
        search={search}
        getRowId={(announcement) => announcement.id}
        handle={grid}
      />
      {editing && (
        <AnnouncementForm
          announcement={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            grid.current?.refresh();
          }}
        />
      )}
      {deleting && (
        <ConfirmDialog
          title={t('announcements.delete_title')}
          message={t('announcements.delete_confirm', { subject: deleting.subject })}
          confirmLabel={t('actions.delete')}
          cancelLabel={t('actions.cancel')}
          busy={remove.isPending}
          onConfirm={confirmDelete}
          onCancel={() => setDeleting(null)}
        />
      )}
    </div>
  );
}
