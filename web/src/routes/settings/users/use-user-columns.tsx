import type { TeamUser } from '@web/api/users';
import type { RowActions } from '@web/components/grid-screen';
import { dateTimeFormatter } from '@web/shell/format';
import type { ColDef, ICellRendererParams } from 'ag-grid-community';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

/** The users grid's columns; the sortable ones are those the users endpoint sorts by. */

export type UserActions = RowActions<TeamUser>;

export const fullName = (user: Pick<TeamUser, 'first_name' | 'last_name'>) =>
  `${user.first_name} ${user.last_name}`.trim();

function ActionsCell({ data, actions }: ICellRendererParams<TeamUser> & { actions: UserActions }) {
  const { t } = useTranslation('settings');
  if (!data) return null;
  if (!data.editable) return <span className="muted">{t('users.owner_not_editable')}</span>;
  const who = data.username ?? data.email;
  return (
    <div className="grid-actions">
      <button
        type="button"
        className="button button-small"
        aria-label={t('users.edit_named', { name: who })}
        onClick={() => actions.onEdit(data)}
      >
        {t('actions.edit')}
      </button>
      <button
        type="button"
        className="button button-small button-danger-outline"
        aria-label={t('users.delete_named', { name: who })}
        onClick={() => actions.onDelete(data)}
      >
        {t('actions.delete')}
      </button>
    </div>
  );
}

export function useUserColumns(actions: UserActions): ColDef<TeamUser>[] {
  const { t, i18n } = useTranslation('settings');
  return useMemo(() => {
    const when = dateTimeFormatter(i18n.language);
    return [
      {
        colId: 'username',
        field: 'username',
        headerName: t('users.columns.username'),
        sortable: true,
        minWidth: 140,
      },
      {
        colId: 'name',
        headerName: t('users.columns.name'),
        valueGetter: ({ data }) => (data ? fullName(data) : ''),
        sortable: true,
        flex: 1,
        minWidth: 160,
      },
      { colId: 'email', field: 'email', headerName: t('users.columns.email'), sortable: true, minWidth: 200 },
      { colId: 'phone', field: 'phone', headerName: t('users.columns.phone'), minWidth: 130 },
      {
        colId: 'group',
        headerName: t('users.columns.group'),
        valueGetter: ({ data }) =>
          data
            ? (data.group?.name ?? (data.kind === 'owner' ? t('users.all_permissions') : t('users.no_group')))
            : '',
        sortable: true,
        minWidth: 140,
      },
      {
        colId: 'kind',
        headerName: t('users.columns.kind'),
        valueGetter: ({ data }) => (data ? t(`common:kinds.${data.kind}`) : ''),
        minWidth: 110,
      },
      {
        colId: 'status',
        headerName: t('users.columns.status'),
        valueGetter: ({ data }) => (data ? t(`users.status.${data.status}`) : ''),
        sortable: true,
        minWidth: 110,
      },
      {
        colId: 'last_sign_in_at',
        headerName: t('users.columns.last_sign_in'),
        valueGetter: ({ data }) => (data ? when(data.last_sign_in_at) || t('users.never') : ''),
        minWidth: 170,
      },
      {
        colId: 'created_at',
        headerName: t('users.columns.created'),
        valueGetter: ({ data }) => when(data?.created_at),
        sortable: true,
        minWidth: 170,
      },
      {
        colId: 'actions',
        headerName: t('users.columns.actions'),
        cellRenderer: ActionsCell,
        cellRendererParams: { actions },
        pinned: 'right',
        minWidth: 170,
        width: 170,
      },
    ] satisfies ColDef<TeamUser>[];
  }, [t, i18n.language, actions]);
}
