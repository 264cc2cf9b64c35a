import type { AdminAnnouncement } from '@web/api/announcements';
import type { RowActions } from '@web/components/grid-screen';
import { dateTimeFormatter } from '@web/shell/format';
import type { ColDef, ICellRendererParams } from 'ag-grid-community';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

/** The admin announcements grid's columns; the sortable ones are those the endpoint sorts by. */

export type AnnouncementActions = RowActions<AdminAnnouncement>;

function ActionsCell({
  data,
  actions,
}: ICellRendererParams<AdminAnnouncement> & { actions: AnnouncementActions }) {
  const { t } = useTranslation('admin');
  if (!data) return null;
  return (
    <div className="grid-actions">
      <button
        type="button"
        className="button button-small"
        aria-label={t('announcements.edit_named', { subject: data.subject })}
        onClick={() => actions.onEdit(data)}
      >
        {t('actions.edit')}
      </button>
      <button
        type="button"
        className="button button-small button-danger-outline"
        aria-label={t('announcements.delete_named', { subject: data.subject })}
        onClick={() => actions.onDelete(data)}
      >
        {t('actions.delete')}
      </button>
    </div>
  );
}

export function useAnnouncementColumns(actions: AnnouncementActions): ColDef<AdminAnnouncement>[] {
  const { t, i18n } = useTranslation('admin');
  return useMemo(() => {
    const when = dateTimeFormatter(i18n.language);
    const yesNo = (value: boolean | undefined) => (value === undefined ? '' : value ? t('yes') : t('no'));
    return [
      {
        colId: 'subject',
        field: 'subject',
        headerName: t('announcements.columns.subject'),
        sortable: true,
        flex: 1,
        minWidth: 220,
      },
      {
        colId: 'priority',
        field: 'priority',
        headerName: t('announcements.columns.priority'),
        sortable: true,
        width: 110,
      },
      {
        colId: 'start_at',
        headerName: t('announcements.columns.start_at'),
        valueGetter: ({ data }) => when(data?.start_at),
        sortable: true,
        minWidth: 170,
      },
      {
        colId: 'end_at',
        headerName: t('announcements.columns.end_at'),
        valueGetter: ({ data }) => when(data?.end_at),
        sortable: true,
        minWidth: 170,
      },
      {
        colId: 'is_active',
        headerName: t('announcements.columns.is_active'),
        valueGetter: ({ data }) => yesNo(data?.is_active),
        sortable: true,
        width: 110,
      },
      {
        colId: 'requires_ack',
        headerName: t('announcements.columns.requires_ack'),
        valueGetter: ({ data }) => yesNo(data?.requires_ack),
        sortable: true,
        width: 150,
      },
      {
        colId: 'prompt',
        headerName: t('announcements.columns.prompt'),
        valueGetter: ({ data }) => yesNo(data?.prompt),
        sortable: true,
        width: 110,
      },
      {
        colId: 'country',
        headerName: t('announcements.columns.country'),
        valueGetter: ({ data }) =>
          data ? (data.country ? t(`countries.${data.country}`) : t('announcements.all_countries')) : '',
        sortable: true,
        width: 140,
      },
      {
        colId: 'acks',
        headerName: t('announcements.columns.acks'),
        valueGetter: ({ data }) =>
          data
            ? t('announcements.acks_summary', {
                acknowledged: data.acks.acknowledged,
                rejected: data.acks.rejected,
                read: data.acks.read,
              })
            : '',
        minWidth: 200,
      },
      {
        colId: 'updated_at',
        headerName: t('announcements.columns.updated_at'),
        valueGetter: ({ data }) => when(data?.updated_at),
        sortable: true,
        minWidth: 170,
      },
      {
        colId: 'actions',
        headerName: t('announcements.columns.actions'),
        cellRenderer: ActionsCell,
        cellRendererParams: { actions },
        pinned: 'right',
        width: 170,
      },
    ] satisfies ColDef<AdminAnnouncement>[];
  }, [t, i18n.language, actions]);
}
