import { LISTINGS_VIEW } from '@domain/shared/live-views';
import { withQuery } from '@web/api/client';
import {
  LISTING_STATUS_FILTER,
  LISTINGS_ENDPOINT,
  type ListingListRow,
  type ListingStatusFilter,
  MANAGE_KEY,
  PAGE_SIZES,
} from '@web/api/listings';
import { useSession } from '@web/auth/session';
import { GridScreen } from '@web/components/grid-screen';
import { useDateTime, useMoney } from '@web/shell/format';
import type { ColDef, ICellRendererParams } from 'ag-grid-community';
import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { CopyListingsDialog } from './copy-dialog';
import { ListingUploadDialog } from './upload-dialog';
import './products.css';

/**
 * Products → listings: every listing of the account under the status filter of spec §4, a page size to choose, and
 * each store's publication as it goes (publish in progress, syncing, failed): it follows the live view `listings`,
 * so a store's progress shows without a reload. `fixedStatus` makes it the draft listings page.
 */

function NameCell({ data }: ICellRendererParams<ListingListRow>) {
  if (!data) return null;
  return <Link to={`/products/listings/${data.id}`}>{data.product_name}</Link>;
}

/** Each store the listing went to, with where its last run stands. */
export function StoresCell({ data }: ICellRendererParams<ListingListRow>) {
  const { t } = useTranslation('listings');
  if (!data) return null;
  return (
    <span className="listing-stores">
      {data.stores.map((store) => (
        <span
          key={store.store_id}
          className={`badge listing-store-${storeState(store)}`}
          data-testid={`store-${store.store_id}`}
        >
          {store.store_name ?? store.store_id}: {t(`store_state.${storeState(store)}`)}
        </span>
      ))}
    </span>
  );
}

/** One word for where a store's publication stands. */
export function storeState(store: {
  running: string | null;
  error: string | null;
  item_id: string | null;
  listed: boolean;
}) {
  if (store.running)
    return store.running === 'publish' ? 'publishing' : store.running === 'sync' ? 'syncing' : 'unlisting';
  if (store.error) return 'failed';
  if (!store.item_id) return 'draft';
  return store.listed ? 'listed' : 'unlisted';
}

function useColumns(): ColDef<ListingListRow>[] {
  const { t, i18n } = useTranslation('listings');
  const when = useDateTime();
  const money = useMoney();
  return useMemo(() => {
    const number = new Intl.NumberFormat(i18n.language);
    return [
      {
        colId: 'product_name',
        headerName: t('list.columns.product_name'),
        cellRenderer: NameCell,
        sortable: true,
        flex: 2,
        minWidth: 200,
      },
      {
        colId: 'parent_sku',
        field: 'parent_sku',
        headerName: t('list.columns.parent_sku'),
        sortable: true,
        minWidth: 130,
      },
      {
        colId: 'stores',
        headerName: t('list.columns.stores'),
        cellRenderer: StoresCell,
        flex: 2,
        minWidth: 220,
      },
      {
        colId: 'total_stock',
        headerName: t('list.columns.stock'),
        valueGetter: ({ data }) => (data ? number.format(data.total_stock) : ''),
        sortable: true,
        type: 'rightAligned',
        minWidth: 90,
      },
      {
        colId: 'min_price',
        headerName: t('list.columns.price'),
        valueGetter: ({ data }) =>
          data
            ? data.min_price === data.max_price
              ? money(data.min_price)
              : `${money(data.min_price)} – ${money(data.max_price)}`
            : '',
        sortable: true,
        type: 'rightAligned',
        minWidth: 130,
      },
      {
        colId: 'status',
        headerName: t('list.columns.status'),
        valueGetter: ({ data }) => (data ? t(`status.${data.status}`) : ''),
        sortable: true,
        minWidth: 110,
      },
      {
        colId: 'updated_at',
        headerName: t('list.columns.updated_at'),
        valueGetter: ({ data }) => when(data?.updated_at),
        sortable: true,
        minWidth: 150,
      },
    ] satisfies ColDef<ListingListRow>[];
  }, [t, i18n.language, when, money]);
}

export function ListingGrid({ fixedStatus, prefix }: { fixedStatus?: ListingStatusFilter; prefix: string }) {
  const { t } = useTranslation('listings');
  const { can } = useSession();
  const [status, setStatus] = useState<ListingStatusFilter>(fixedStatus ?? 'all');
  const [pageSize, setPageSize] = useState<number>(PAGE_SIZES[1]);
  const statusId = useId();
  const sizeId = useId();
  const [uploading, setUploading] = useState(false);
  const [copying, setCopying] = useState<{ ids: string[]; clear(): void } | null>(null);
  return (
    <>
      {uploading && <ListingUploadDialog onClose={() => setUploading(false)} />}
      {copying && (
        <CopyListingsDialog
          ids={copying.ids}
          onClose={(done) => {
            if (done) copying.clear();
            setCopying(null);
          }}
        />
      )}
      <GridScreen<ListingListRow>
        // A new page size is a new grid: the row model's block size is fixed when it is made.
        key={pageSize}
        namespace="listings"
        prefix={prefix}
        gridId={`listings.${prefix}`}
        endpoint={withQuery(LISTINGS_ENDPOINT, { status })}
        useColumns={useColumns}
        className="listing-page"
        live={LISTINGS_VIEW}
        blockSize={pageSize}
        actions={
          can(MANAGE_KEY) && (
            <>
              <button type="button" className="button button-secondary" onClick={() => setUploading(true)}>
                {t('upload.open')}
              </button>
              <Link className="button button-primary" to={`/products/listings/${crypto.randomUUID()}`}>
                {t('list.add')}
              </Link>
            </>
          )
        }
        selection={
          can(MANAGE_KEY)
            ? {
                label: t('list.selection_label'),
                count: (selected) => t('list.selected', { count: selected }),
                actions: (rows, clear) => (
                  <button
                    type="button"
                    className="button button-secondary"
                    disabled={rows.length === 0}
                    onClick={() => setCopying({ ids: rows.map((row) => row.id), clear })}
                  >
                    {t('copy.open')}
                  </button>
                ),
              }
            : undefined
        }
        filters={
          <>
            {!fixedStatus && (
              <>
                <label htmlFor={statusId} className="visually-hidden">
                  {t('list.status_filter')}
                </label>
                <select
                  id={statusId}
                  className="input"
                  value={status}
                  onChange={(event) => setStatus(event.target.value as ListingStatusFilter)}
                >
                  {LISTING_STATUS_FILTER.map((value) => (
                    <option key={value} value={value}>
                      {t(`filter.${value.replace(' ', '_')}`)}
                    </option>
                  ))}
                </select>
              </>
            )}
            <label htmlFor={sizeId} className="visually-hidden">
              {t('list.page_size')}
            </label>
            <select
              id={sizeId}
              className="input"
              value={pageSize}
              onChange={(event) => setPageSize(Number(event.target.value))}
            >
              {PAGE_SIZES.map((size) => (
                <option key={size} value={size}>
                  {t('list.per_page', { count: size })}
                </option>
              ))}
            </select>
          </>
        }
      />
    </>
  );
}

export default function ListingListPage() {
  return <ListingGrid prefix="list" />;
}
