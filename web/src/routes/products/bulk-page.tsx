import { useQuery } from '@tanstack/react-query';
import { apiData, withQuery } from '@web/api/client';
import { LISTINGS_ENDPOINT, type ListingListRow, listingKeys, useBulkEditListings } from '@web/api/listings';
import { FormMessage, messageOf } from '@web/shell/form';
import { useNotify } from '@web/shell/notifications';
import { PageHeader } from '@web/shell/page';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import './products.css';
import '@web/routes/management.css';

/**
 * Products → bulk edit (`/products/listings-bulk`): the names, prices and stock of many listings in one grid, one row
 * per SKU. Saving sends only the listings changed, one save each against the revision read; a listing refused (a
 * change made since, a run in progress, a bad price) is listed with its reason and the others are saved. The edits
 * stay while the page is open (spec §9 "bulk-edit state is kept for the session").
 */

const BULK_ROWS = 200;

type Change = { product_name?: string; skus: Record<string, { price?: string; stock?: string }> };

export default function ListingBulkPage() {
  const { t } = useTranslation('listings');
  const notify = useNotify();
  const bulk = useBulkEditListings();
  const listings = useQuery({
    queryKey: [...listingKeys.lists(), 'bulk'],
    queryFn: () =>
      apiData<{ rows: ListingListRow[] }>(
        withQuery(LISTINGS_ENDPOINT, { status: 'all', endRow: String(BULK_ROWS) }),
      ),
  });
  const [changes, setChanges] = useState<Record<string, Change>>({});
  const [failed, setFailed] = useState<{ id: string; msg: string }[]>([]);

  const changeOf = (id: string): Change => changes[id] ?? { skus: {} };
  const edit = (id: string, change: (current: Change) => Change) =>
    setChanges((current) => ({ ...current, [id]: change(current[id] ?? { skus: {} }) }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    const rows = listings.data?.rows ?? [];
    const edited = rows.filter((row) => changes[row.id]);
    if (edited.length === 0) return;
    try {
      const answer = await bulk.mutateAsync({
        listings: edited.map((row) => {
          const change = changeOf(row.id);
          return {
            id: row.id,
            revision: row.revision,
            ...(change.product_name !== undefined ? { product_name: change.product_name } : {}),
            skus: Object.entries(change.skus).map(([seller_sku, sku]) => ({
              seller_sku,
              ...(sku.price !== undefined ? { price: sku.price } : {}),
              ...(sku.stock !== undefined ? { stock: Number(sku.stock) } : {}),
            })),
          };
        }),
      });
      setFailed(answer.data.failed);
      const saved = new Set(
        edited.map((row) => row.id).filter((id) => !answer.data.failed.some((f) => f.id === id)),
      );
      setChanges((current) => Object.fromEntries(Object.entries(current).filter(([id]) => !saved.has(id))));
      notify({ kind: answer.data.failed.length ? 'error' : 'success', message: answer.msg });
      void listings.refetch();
    } catch (error) {
      notify({ kind: 'error', message: messageOf(error) });
    }
  }

  const nameOf = (id: string) => listings.data?.rows.find((row) => row.id === id)?.product_name ?? id;
  return (
    <div className="page listing-page">
      <PageHeader title={t('bulk.title')} intro={t('bulk.intro')} />
      {failed.length > 0 && (
        <FormMessage kind="error">
          <ul>
            {failed.map((one) => (
              <li key={one.id}>
                {nameOf(one.id)}: {one.msg}
              </li>
            ))}
          </ul>
        </FormMessage>
      )}
      <form onSubmit={submit} aria-label={t('bulk.title')}>
        <table className="listing-grid-table card" aria-label={t('bulk.grid_label')}>
          <thead>
            <tr>
              <th>{t('list.columns.product_name')}</th>
              <th>{t('editor.variant')}</th>
              <th>{t('editor.fields.seller_sku')}</th>
              <th>{t('editor.fields.price')}</th>
              <th>{t('editor.fields.stock')}</th>
            </tr>
          </thead>
          <tbody>
            {listings.data?.rows.flatMap((row) =>
              row.skus.map((sku, index) => {
                const change = changeOf(row.id);
                const skuChange = change.skus[sku.seller_sku] ?? {};
                const setSku = (value: { price?: string; stock?: string }) =>
                  edit(row.id, (current) => ({
                    ...current,
                    skus: {
                      ...current.skus,
                      [sku.seller_sku]: { ...current.skus[sku.seller_sku], ...value },
                    },
                  }));
                return (
                  <tr key={`${row.id}:${sku.seller_sku}`}>
                    <td>
                      {index === 0 && (
                        <input
                          className="input"
                          aria-label={t('bulk.name_of', { sku: sku.seller_sku })}
                          value={change.product_name ?? row.product_name}
                          onChange={(event) =>
                            edit(row.id, (current) => ({ ...current, product_name: event.target.value }))
                          }
                        />
                      )}
                    </td>
                    <td>{sku.variant}</td>
                    <td>{sku.seller_sku}</td>
                    <td>
                      <input
                        className="input"
                        inputMode="decimal"
                        aria-label={t('bulk.price_of', { sku: sku.seller_sku })}
                        value={skuChange.price ?? sku.price}
                        onChange={(event) => setSku({ price: event.target.value })}
                      />
                    </td>
                    <td>
                      <input
                        className="input"
                        type="number"
                        min={0}
                        aria-label={t('bulk.stock_of', { sku: sku.seller_sku })}
                        value={skuChange.stock ?? String(sku.stock)}
                        onChange={(event) => setSku({ stock: event.target.value })}
                      />
                    </td>
                  </tr>
                );
              }),
            )}
          </tbody>
        </table>
        <button
          type="submit"
          className="button button-primary"
          disabled={bulk.isPending || Object.keys(changes).length === 0}
        >
          {t('bulk.save', { count: Object.keys(changes).length })}
        </button>
      </form>
    </div>
  );
}
