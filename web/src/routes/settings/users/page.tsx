import { type TeamUser, USERS_ENDPOINT, useDeleteUser } from '@web/api/users';
import { DataGrid, type DataGridHandle } from '@web/components/data-grid';
import { ConfirmDialog } from '@web/components/modal-dialog';
import { messageOf } from '@web/shell/form';
import { useNotify } from '@web/shell/notifications';
import { useCallback, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fullName, type UserActions, useUserColumns } from './use-user-columns';
import { UserForm } from './user-form';
import '@web/routes/management.css';

/** Settings → users: the owner's sub-users in a grid, created and edited in a dialog, deleted after a confirmation. */
export default function UsersPage() {
  const { t } = useTranslation('settings');
  const notify = useNotify();
  const searchId = useId();
  const grid = useRef<DataGridHandle>(null);
  const [search, setSearch] = useState('');
  const [editing, setEditing] = useState<TeamUser | 'new' | null>(null);
  const [deleting, setDeleting] = useState<TeamUser | null>(null);
  const remove = useDeleteUser();

  const onEdit = useCallback((user: TeamUser) => setEditing(user), []);
  const onDelete = useCallback((user: TeamUser) => setDeleting(user), []);
  const actions = useMemo<UserActions>(() => ({ onEdit, onDelete }), [onEdit, onDelete]);
  const columns = useUserColumns(actions);

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
          <h1 className="page-title">{t('users.title')}</h1>
          <p className="muted">{t('users.intro')}</p>
        </div>
        <button type="button" className="button button-primary" onClick={() => setEditing('new')}>
          {t('users.add')}
        </button>
      </div>
      <div className="toolbar">
        <label htmlFor={searchId} className="visually-hidden">
          {t('users.search_label')}
        </label>
        <input
          id={searchId}
          type="search"
          className="input toolbar-search"
          placeholder={t('users.search_placeholder')}
          value={search}
          onChange={(event) => setSearch(event.target.value)}
        />
      </div>
      <DataGrid<TeamUser>
        gridId="settings.users"
        endpoint={USERS_ENDPOINT}
        columns={columns}
        label={t('users.grid_label')}
        search={search}
        getRowId={(user) => user.id}
        handle={grid}
      />
      {editing && (
        <UserForm
          user={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            grid.current?.refresh();
          }}
        />
      )}
      {deleting && (
        <ConfirmDialog
          title={t('users.delete_title')}
          message={t('users.delete_confirm', { name: fullName(deleting) || deleting.email })}
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
