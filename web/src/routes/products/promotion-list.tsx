import {
  LISTING_KEYS,
  listEndpoint,
  MANAGE_KEY,
  PROMOTIONS_VIEW,
  type PromotionRow,
  useStopPromotion,
} from '@web/api/promotions';
import { useSession } from '@web/auth/session';
import { GridScreen } from '@web/components/grid-screen';
import { StatusFilter } from '@web/components/status-filter';
import Forbidden from '@web/routes/forbidden';
import { messageOf } from '@web/shell/form';
import { useDateTime } from '@web/shell/format';
import { useNotify } from '@web/shell/notifications';
import type { ColDef, ICellRendererParams } from 'ag-grid-community';
import { type ReactNode, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The list both promotion screens share (discounts, gifts with purchase): name, store, period, status worked out
 * from the clock (a gift's "upcoming" reads "starting soon", its "stopped" "stopped (manually)"), where the
 * promotion stands on the channel, and "stop" for one not over yet. Follows the live view `promotions`.
 */

const STATUSES = ['upcoming', 'ongoing', 'ended', 'stopped'] as const;

function StopCell({ data }: ICellRendererParams<PromotionRow>) {
  const { t } = useTranslation('promotions');
  const { can } = useSession();
  const notify = useNotify();
  const stop = useStopPromotion();
  if (!data || !can(MANAGE_KEY) || !['upcoming', 'ongoing'].includes(data.status)) return null;
  return (
    <button
      type="button"
      className="button button-secondary button-small"
      disabled={stop.isPending}
      aria-label={t('list.stop_named', { name: data.name })}
      onClick={() =>
        stop.mutate(data.id, {
          onSuccess: (answer) => notify({ kind: 'success', message: answer.msg }),
          onError: (error) => notify({ kind: 'error', message: messageOf(error) }),
        })
      }
    >
      {t('list.stop')}
    </button>
  );
}

function columnsFor(kind: 'discount' | 'gift') {
  return function usePromotionColumns(): ColDef<PromotionRow>[] {
    const { t } = useTranslation('promotions');
    const when = useDateTime();
    return useMemo(
      () => [
        {
          colId: 'name',
          field: 'name',
          headerName: t('list.columns.name'),
          sortable: true,
          flex: 1,
          minWidth: 180,
        },
        {
          colId: 'store',
          headerName: t('list.columns.store'),
          valueGetter: ({ data }) => data?.store.name ?? '',
          minWidth: 140,
        },
        {
          colId: 'start_at',
          headerName: t('list.columns.start'),
          valueGetter: ({ data }) => when(data?.start_at),
          sortable: true,
          minWidth: 150,
        },
        {
          colId: 'end_at',
          headerName: t('list.columns.end'),
          valueGetter: ({ data }) => when(data?.end_at),
          sortable: true,
          minWidth: 150,
        },
        {
          colId: 'status',
          headerName: t('list.columns.status'),
          valueGetter: ({ data }) => (data ? t(`status.${kind}.${data.status}`) : ''),
          minWidth: 140,
        },
        {
          colId: 'channel',
          headerName: t('list.columns.channel'),
          valueGetter: ({ data }) => (data ? t(`channel.${data.channel.state}`) : ''),
          tooltipValueGetter: ({ data }) => data?.channel.error ?? undefined,
          minWidth: 160,
        },
        {
          colId: 'items',
          headerName: t(kind === 'discount' ? 'list.columns.skus' : 'list.columns.gifts'),
          valueGetter: ({ data }) => data?.item_count ?? '',
          type: 'rightAligned',
          minWidth: 90,
        },
        { colId: 'actions', headerName: t('list.columns.actions'), cellRenderer: StopCell, minWidth: 110 },
      ],
      [t, when],
    );
  };
}

const useDiscountColumns = columnsFor('discount');
const useGiftColumns = columnsFor('gift');

export function PromotionList({
  kind,
  form,
}: {
  kind: 'discount' | 'gift';
  form(props: { onClose(): void; onSaved(): void }): ReactNode;
}) {
  const { t } = useTranslation('promotions');
  const { can } = useSession();
  const [status, setStatus] = useState('');
  if (!LISTING_KEYS.some(can)) return <Forbidden />;
  return (
    <GridScreen<PromotionRow>
      namespace="promotions"
      prefix={kind}
      gridId={`products.promotions.${kind}`}
      endpoint={listEndpoint(kind, status)}
      useColumns={kind === 'discount' ? useDiscountColumns : useGiftColumns}
      live={PROMOTIONS_VIEW}
      form={can(MANAGE_KEY) ? form : undefined}
      filters={
        <StatusFilter
          label={t('list.status_filter')}
          allLabel={t('list.all_statuses')}
          value={status}
          onChange={setStatus}
          options={STATUSES.map((value) => ({ value, label: t(`status.${kind}.${value}`) }))}
        />
      }
    />
  );
}
