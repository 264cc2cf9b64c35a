import type { MovementRow } from '@web/api/stock';
import { dateTimeFormatter } from '@web/shell/format';
import type { ColDef } from 'ag-grid-community';
import type { TFunction } from 'i18next';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

/** The movement report's columns (spec §3): only the time sorts, newest first by default. */

/**
 * "Adjusted (Deduct)", "Put on hold (Smart POS)", "Shipped (From reserved)", "Received"…: the action in the user's
 * language, with the adjustment mode, hold kind or shipment source the movement has.
 */
export function actionName(t: TFunction<'stock'>, row: Pick<MovementRow, 'action' | 'mode'>): string {
  const action = t(`actions.${row.action}`);
  return row.mode ? t('movements.action_with_mode', { action, mode: t(`modes.${row.mode}`) }) : action;
}

/** "Goods receive note GRN-000012": the document behind a movement as the seller knows it, never its internal id. */
export function sourceName(t: TFunction<'stock'>, source: NonNullable<MovementRow['source']>): string {
  return t([`movements.source.${source.type}`, 'movements.source.other'], {
    number: source.number ?? t('movements.source_gone'),
  });
}

const placeName = (place: { code: string | null; name: string | null; id: string } | null | undefined) =>
  place ? [place.code, place.name].filter(Boolean).join(' — ') || place.id : '';

export function useMovementColumns(): ColDef<MovementRow>[] {
  const { t, i18n } = useTranslation('stock');
  return useMemo(() => {
    const number = new Intl.NumberFormat(i18n.language);
    const signed = new Intl.NumberFormat(i18n.language, { signDisplay: 'exceptZero' });
    const when = dateTimeFormatter(i18n.language, { seconds: true });
    const figure = (value: number | undefined) => (value === undefined ? '' : number.format(value));
    const columns: ColDef<MovementRow>[] = [
      {
        colId: 'occurred_at',
        headerName: t('movements.columns.time'),
        valueGetter: ({ data }) => when(data?.occurred_at),
        sortable: true,
        minWidth: 150,
        // Pinned, so each row keeps its time while the figures scroll.
        pinned: 'left',
      },
      {
        colId: 'code',
        headerName: t('movements.columns.code'),
        valueGetter: ({ data }) => data?.master_code.code ?? '',
        minWidth: 100,
      },
      {
        colId: 'name',
        headerName: t('movements.columns.name'),
        valueGetter: ({ data }) => data?.master_code.name ?? '',
        minWidth: 120,
        flex: 1,
      },
      {
        colId: 'warehouse',
        headerName: t('movements.columns.warehouse'),
        valueGetter: ({ data }) => placeName(data?.warehouse),
        minWidth: 120,
      },
      {
        colId: 'action',
        headerName: t('movements.columns.action'),
        valueGetter: ({ data }) => (data ? actionName(t, data) : ''),
        minWidth: 130,
      },
      {
        colId: 'previous_stock',
        headerName: t('movements.columns.previous_stock'),
        valueGetter: ({ data }) => figure(data?.previous_stock),
        type: 'rightAligned',
        minWidth: 80,
      },
      {
        colId: 'change',
        headerName: t('movements.columns.change'),
        valueGetter: ({ data }) => (data ? signed.format(data.change) : ''),
        type: 'rightAligned',
        minWidth: 80,
        cellClassRules: {
          'stock-up': ({ data }) => (data?.change ?? 0) > 0,
          'stock-down': ({ data }) => (data?.change ?? 0) < 0,
        },
      },
      {
        colId: 'stock_in',
        headerName: t('movements.columns.stock_in'),
        valueGetter: ({ data }) => figure(data?.stock_in),
        type: 'rightAligned',
        minWidth: 70,
      },
      {
        colId: 'stock_out',
        headerName: t('movements.columns.stock_out'),
        valueGetter: ({ data }) => figure(data?.stock_out),
        type: 'rightAligned',
        minWidth: 70,
      },
      {
        colId: 'new_stock',
        headerName: t('movements.columns.new_stock'),
        valueGetter: ({ data }) => figure(data?.new_stock),
        type: 'rightAligned',
        minWidth: 80,
      },
      {
        colId: 'description',
        headerName: t('movements.columns.description'),
        valueGetter: ({ data }) => {
          if (!data) return '';
          const parts = [data.description ?? ''];
          if (data.counterpart_warehouse)
            parts.push(t('movements.counterpart', { warehouse: placeName(data.counterpart_warehouse) }));
          if (data.source) parts.push(sourceName(t, data.source));
          return parts.filter(Boolean).join(' · ');
        },
        minWidth: 130,
        flex: 1,
      },
      {
        colId: 'created_by',
        headerName: t('movements.columns.created_by'),
        valueGetter: ({ data }) => (data ? (data.created_by?.name ?? t('movements.system')) : ''),
        minWidth: 110,
      },
    ];
    // Many columns: each starts at its least width (the rest goes to the flexible ones) so all fit on a wide screen.
    return columns.map((column) => (column.flex ? column : { ...column, width: column.minWidth }));
  }, [t, i18n.language]);
}
