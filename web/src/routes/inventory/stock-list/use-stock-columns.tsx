import type { EXTRA_FIGURES, StockRow } from '@web/api/stock';
import { dateTimeFormatter } from '@web/shell/format';
import type { ColDef, ICellRendererParams } from 'ag-grid-community';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

/**
 * The stock list's columns, every stock figure of spec §3 (on hand, reserved, in process, the three holds,
 * incoming, available online and its percent of on hand); the sortable ones are those the stock endpoint sorts by.
 */

export interface StockRowLinks {
  /** The user may open the point-in-time view. */
  history: boolean;
  /** The user may adjust stock. */
  adjust: boolean;
}

function FlagCell({ data }: ICellRendererParams<StockRow>) {
  const { t } = useTranslation('stock');
  if (!data) return null;
  return (
    <span className="stock-flags">
      {data.negative && <span className="badge badge-danger">{t('list.flags.oversold')}</span>}
      {!data.negative && data.low && <span className="badge badge-warning">{t('list.flags.low')}</span>}
      {data.type === 'combo' && <span className="badge badge-muted">{t('list.flags.combo')}</span>}
      {data.status === 'inactive' && <span className="badge badge-muted">{t('list.flags.inactive')}</span>}
    </span>
  );
}

function ActionsCell({ data, links }: ICellRendererParams<StockRow> & { links: StockRowLinks }) {
  const { t } = useTranslation(['stock', 'audit']);
  if (!data || data.type === 'combo') return null;
  const target = new URLSearchParams({
    master_code_id: data.master_code_id,
    code: data.code,
    name: data.name,
    warehouse_id: data.warehouse_id,
  });
  const replayTarget = new URLSearchParams({
    master_code_id: data.master_code_id,
    warehouse_id: data.warehouse_id,
  });
  return (
    <div className="grid-actions">
      {links.history && (
        <Link
          className="button button-small"
          to={`/inventory/stock-history?${target}`}
          aria-label={t('list.history_named', { code: data.code, warehouse: data.warehouse_code })}
        >
          {t('list.history')}
        </Link>
      )}
      {links.history && (
        <Link
          className="button button-small"
          to={`/audit/stock?${replayTarget}`}
          aria-label={t('audit:replay.open_named', { code: data.code, warehouse: data.warehouse_code })}
        >
          {t('audit:replay.open')}
        </Link>
      )}
      {links.adjust && (
        <Link
          className="button button-small"
          to={`/inventory/stock-adjustment?${target}`}
          aria-label={t('list.adjust_named', { code: data.code, warehouse: data.warehouse_code })}
        >
          {t('list.adjust')}
        </Link>
      )}
    </div>
  );
}

export function useStockColumns(links: StockRowLinks): ColDef<StockRow>[] {
  const { t, i18n } = useTranslation('stock');
  return useMemo(() => {
    const number = new Intl.NumberFormat(i18n.language);
    const when = dateTimeFormatter(i18n.language);
    const percent = new Intl.NumberFormat(i18n.language, {
      style: 'percent',
      minimumFractionDigits: 1,
      maximumFractionDigits: 1,
    });
    const figure = (value: number | null | undefined) =>
      value === null ? t('list.no_own_stock') : value === undefined ? '' : number.format(value);
    const figureColumn = (colId: 'on_hand' | 'reserved' | (typeof EXTRA_FIGURES)[number], minWidth: number) =>
      ({
        colId,
        headerName: t(`list.columns.${colId}`),
        valueGetter: ({ data }) => figure(data?.[colId]),
        sortable: true,
        type: 'rightAligned',
        minWidth,
      }) satisfies ColDef<StockRow>;
    const columns: ColDef<StockRow>[] = [
      // Pinned, so a row is still known by its code while the figures scroll.
      {
        colId: 'code',
        field: 'code',
        headerName: t('list.columns.code'),
        sortable: true,
        minWidth: 110,
        pinned: 'left',
      },
      {
        colId: 'name',
        field: 'name',
        headerName: t('list.columns.name'),
        sortable: true,
        flex: 1,
        minWidth: 120,
      },
      {
        colId: 'warehouse',
        headerName: t('list.columns.warehouse'),
        valueGetter: ({ data }) => (data ? `${data.warehouse_code} — ${data.warehouse_name}` : ''),
        sortable: true,
        minWidth: 120,
      },
      // Left to right as available online is worked out: on hand less what orders and holds keep.
      // Headers wrap (components/data-grid.tsx): a figure needs no wider a column than its number.
      figureColumn('on_hand', 80),
      figureColumn('reserved', 80),
      figureColumn('in_process', 80),
      figureColumn('on_hold', 80),
      figureColumn('pos_on_hold', 80),
      figureColumn('supplier_on_hold', 80),
      {
        colId: 'available',
        headerName: t('list.columns.available'),
        valueGetter: ({ data }) => figure(data?.available),
        sortable: true,
        type: 'rightAligned',
        minWidth: 90,
        cellClassRules: {
          'stock-negative': ({ data }) => data?.negative === true,
          'stock-low': ({ data }) => data?.negative === false && data.low,
        },
      },
      {
        colId: 'available_percent',
        headerName: t('list.columns.available_percent'),
        // Nothing on hand (or a combo): no percent to show.
        valueGetter: ({ data }) =>
          !data ? '' : data.available_percent === null ? '' : percent.format(data.available_percent / 100),
        sortable: true,
        type: 'rightAligned',
        minWidth: 80,
      },
      // Expected, not yet on hand: no part of available.
      figureColumn('incoming', 80),
      {
        colId: 'flags',
        headerName: t('list.columns.flags'),
        cellRenderer: FlagCell,
        minWidth: 110,
      },
      {
        colId: 'last_movement_at',
        headerName: t('list.columns.last_movement'),
        valueGetter: ({ data }) => when(data?.last_movement_at),
        sortable: true,
        minWidth: 130,
      },
    ];
    if (links.history || links.adjust) {
      columns.push({
        colId: 'actions',
        headerName: t('list.columns.actions'),
        cellRenderer: ActionsCell,
        cellRendererParams: { links },
        pinned: 'right',
        minWidth: 150,
        width: 150,
      });
    }
    // Each starts at its least width (the name takes the rest), so the figures show without scrolling.
    return columns.map((column) =>
      column.flex || column.width ? column : { ...column, width: column.minWidth },
    );
  }, [t, i18n.language, links]);
}
