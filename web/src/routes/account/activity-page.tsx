import { ACTIVITY_ENDPOINT, type ActivityEntry } from '@web/api/account';
import { GridScreen } from '@web/components/grid-screen';
import { dateFilter, textFilter } from '@web/routes/inventory/components/grid-filters';
import { dateTimeFormatter } from '@web/shell/format';
import type { ColDef } from 'ag-grid-community';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

/** `/user-activities-logs`: who changed what and when in the account, filtered by user, action and date. */

const describe = (detail: Record<string, unknown>) =>
  Object.entries(detail)
    .map(([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(', ');

function useActivityColumns(): ColDef<ActivityEntry>[] {
  const { t, i18n } = useTranslation('account');
  return useMemo(() => {
    const dateTime = dateTimeFormatter(i18n.language, { seconds: true });
    return [
      {
        colId: 'at',
        headerName: t('activity.columns.at'),
        valueGetter: ({ data }) => (data ? dateTime(data.at) : ''),
        sortable: true,
        minWidth: 190,
        ...dateFilter<ActivityEntry>(),
      },
      {
        colId: 'user',
        headerName: t('activity.columns.user'),
        valueGetter: ({ data }) =>
          data ? ((data.user?.name || data.user?.email) ?? t('activity.removed_user')) : '',
        sortable: true,
        minWidth: 170,
        ...textFilter<ActivityEntry>(),
      },
      {
        colId: 'action',
        field: 'action',
        headerName: t('activity.columns.action'),
        sortable: true,
        minWidth: 170,
        ...textFilter<ActivityEntry>(),
      },
      {
        colId: 'subject',
        headerName: t('activity.columns.subject'),
        valueGetter: ({ data }) => (data ? `${data.subject_type} ${data.subject_id}` : ''),
        minWidth: 200,
      },
      {
        colId: 'detail',
        headerName: t('activity.columns.detail'),
        valueGetter: ({ data }) => (data ? describe(data.detail) : ''),
        tooltipValueGetter: ({ data }) => (data ? describe(data.detail) : ''),
        flex: 1,
        minWidth: 240,
      },
    ] satisfies ColDef<ActivityEntry>[];
  }, [t, i18n.language]);
}

export default function ActivityPage() {
  return (
    <GridScreen<ActivityEntry>
      namespace="account"
      prefix="activity"
      gridId="account.activity"
      endpoint={ACTIVITY_ENDPOINT}
      useColumns={useActivityColumns}
      search={false}
    />
  );
}
