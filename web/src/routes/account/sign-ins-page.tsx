import { SIGN_INS_ENDPOINT, type SignInEntry } from '@web/api/account';
import { withQuery } from '@web/api/client';
import { GridScreen } from '@web/components/grid-screen';
import { StatusFilter } from '@web/components/status-filter';
import { dateFilter, textFilter } from '@web/routes/inventory/components/grid-filters';
import { dateTimeFormatter } from '@web/shell/format';
import type { ColDef } from 'ag-grid-community';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** `/login_access/list`: each sign-in to the account, with its time, address, device and result. */

const RESULTS = ['success', 'failure', 'locked'] as const;

function useSignInColumns(): ColDef<SignInEntry>[] {
  const { t, i18n } = useTranslation('account');
  return useMemo(() => {
    const dateTime = dateTimeFormatter(i18n.language, { seconds: true });
    return [
      {
        colId: 'at',
        headerName: t('sign_ins.columns.at'),
        valueGetter: ({ data }) => (data ? dateTime(data.at) : ''),
        sortable: true,
        minWidth: 190,
        ...dateFilter<SignInEntry>(),
      },
      {
        colId: 'user',
        headerName: t('sign_ins.columns.user'),
        valueGetter: ({ data }) => (data ? ((data.user?.name || data.user?.email) ?? data.login) : ''),
        sortable: true,
        minWidth: 170,
        ...textFilter<SignInEntry>(),
      },
      {
        colId: 'address',
        field: 'address',
        headerName: t('sign_ins.columns.address'),
        sortable: true,
        minWidth: 150,
        ...textFilter<SignInEntry>(),
      },
      {
        colId: 'user_agent',
        field: 'user_agent',
        headerName: t('sign_ins.columns.device'),
        tooltipField: 'user_agent',
        flex: 1,
        minWidth: 240,
      },
      {
        colId: 'result',
        headerName: t('sign_ins.columns.result'),
        valueGetter: ({ data }) => (data ? t(`sign_ins.result.${data.result}`) : ''),
        sortable: true,
        minWidth: 120,
      },
    ] satisfies ColDef<SignInEntry>[];
  }, [t, i18n.language]);
}

export default function SignInsPage() {
  const { t } = useTranslation('account');
  const [result, setResult] = useState('');
  return (
    <GridScreen<SignInEntry>
      namespace="account"
      prefix="sign_ins"
      gridId="account.sign_ins"
      endpoint={withQuery(SIGN_INS_ENDPOINT, { result: result || undefined })}
      useColumns={useSignInColumns}
      search={false}
      filters={
        <StatusFilter
          label={t('sign_ins.result_filter')}
          allLabel={t('sign_ins.all_results')}
          value={result}
          onChange={setResult}
          options={RESULTS.map((value) => ({ value, label: t(`sign_ins.result.${value}`) }))}
        />
      }
    />
  );
}
