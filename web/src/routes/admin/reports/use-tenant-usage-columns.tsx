import type { TenantUsage } from '@web/api/admin-reports';
import { dateTimeFormatter } from '@web/shell/format';
import type { ColDef } from 'ag-grid-community';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

/** The accounts grid's columns: every one sortable, as the endpoint sorts by each. */
export function useTenantUsageColumns(): ColDef<TenantUsage>[] {
  const { t, i18n } = useTranslation('admin');
  return useMemo(() => {
    const when = dateTimeFormatter(i18n.language);
    const count = (field: keyof TenantUsage): ColDef<TenantUsage> => ({
      colId: field,
      field,
      headerName: t(`reports.columns.${field}`),
      sortable: true,
      width: 130,
      type: 'rightAligned',
    });
    return [
      {
        colId: 'name',
        field: 'name',
        headerName: t('reports.columns.name'),
        sortable: true,
        flex: 1,
        minWidth: 200,
      },
      {
        colId: 'country',
        field: 'country',
        headerName: t('reports.columns.country'),
        sortable: true,
        width: 100,
      },
      {
        colId: 'package',
        field: 'package',
        headerName: t('reports.columns.package'),
        sortable: true,
        width: 150,
      },
      {
        colId: 'status',
        field: 'status',
        headerName: t('reports.columns.status'),
        sortable: true,
        width: 120,
        valueFormatter: ({ value }) => (value ? t(`reports.statuses.${value}`) : ''),
      },
      count('users'),
      count('stores'),
      count('master_codes'),
      count('orders_this_month'),
      count('held_this_month'),
      {
        colId: 'created_at',
        field: 'created_at',
        headerName: t('reports.columns.created_at'),
        sortable: true,
        width: 170,
        valueFormatter: ({ value }) => (value ? when(value) : ''),
      },
      {
        colId: 'last_sign_in_at',
        field: 'last_sign_in_at',
        headerName: t('reports.columns.last_sign_in_at'),
        sortable: true,
        width: 170,
        valueFormatter: ({ value }) => (value ? when(value) : t('reports.never')),
      },
    ];
  }, [t, i18n.language]);
}
