import {
  CHANNEL_SKUS_ENDPOINT,
  type ChannelSku,
  type DownloadStatus,
  useDownloadStatuses,
  useLinkChannelSku,
  useStartDownload,
} from '@web/api/channel-skus';
import { useImportListing } from '@web/api/listings';
import { useSession } from '@web/auth/session';
import type { DataGridHandle } from '@web/components/data-grid';
import { GridScreen } from '@web/components/grid-screen';
import { ModalDialog } from '@web/components/modal-dialog';
import { choiceFilter, textFilter } from '@web/routes/inventory/components/grid-filters';
import { MasterCodePicker } from '@web/routes/inventory/components/master-code-picker';
import { messageOf, TextField } from '@web/shell/form';
import { useDateTime } from '@web/shell/format';
import { useNotify } from '@web/shell/notifications';
import type { ColDef, ICellRendererParams } from 'ag-grid-community';
import {
  createContext,
  type FormEvent,
  useContext,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
} from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import './download-status.css';

/**
 * Products → download status (spec §2 "download status view", §3 "Download status"): each store's download of its
 * marketplace items (new, pending, downloading, completed, error, with what it found), and the grid of the channel
 * SKUs it brought in, each linked to a master code by seller SKU or by the seller's hand. Linking here is the same
 * mapping an order line's "item not found" makes, so the store's orders of that SKU follow. "Import to listings"
 * makes a draft listing of a row's item, its SKUs linked as here, and opens it in the editor.
 */

const MANAGE_KEY = 'listings-manage';

const TONE: Record<DownloadStatus['status'], string> = {
  new: 'badge-muted',
  pending: 'badge-warning',
  downloading: 'badge-warning',
  completed: 'badge-new',
  error: 'badge-danger',
};

const keyOf = (row: ChannelSku) => ({ store_id: row.store.id, item_id: row.item_id, model_id: row.model_id });

const RowActions = createContext<{
  link(row: ChannelSku): void;
  unlink(row: ChannelSku): void;
  import(row: ChannelSku): void;
  manage: boolean;
}>({
  link: () => undefined,
  unlink: () => undefined,
  import: () => undefined,
  manage: false,
});

function ActionsCell({ data }: ICellRendererParams<ChannelSku>) {
  const { t } = useTranslation('downloads');
  const actions = useContext(RowActions);
  if (!data || !actions.manage) return null;
  const name = data.seller_sku || data.item_name;
  // Unlinking is offered only where there is a link.
  const shown = (['link', 'unlink', 'import'] as const).filter(
    (action) => action !== 'unlink' || data.master_code,
  );
  return (
    <span className="download-row-actions">
      {shown.map((action) => (
        <button
          key={action}
          type="button"
          className="button button-small"
          aria-label={t(`skus.${action}_named`, { name })}
          onClick={() => actions[action](data)}
        >
          {t(`skus.${action}`)}
        </button>
      ))}
    </span>
  );
}

function useColumns(): ColDef<ChannelSku>[] {
  const { t } = useTranslation('downloads');
  return useMemo(
    () =>
      [
        {
          colId: 'store',
          headerName: t('skus.columns.store'),
          valueGetter: ({ data }) => data?.store.name ?? '',
          sortable: true,
          minWidth: 120,
          ...textFilter<ChannelSku>(),
        },
        {
          colId: 'item_name',
          field: 'item_name',
          headerName: t('skus.columns.item'),
          sortable: true,
          flex: 1,
          minWidth: 160,
          ...textFilter<ChannelSku>(),
        },
        {
          colId: 'model_name',
          field: 'model_name',
          headerName: t('skus.columns.model'),
          sortable: true,
          minWidth: 100,
          ...textFilter<ChannelSku>(),
        },
        {
          colId: 'seller_sku',
          field: 'seller_sku',
          headerName: t('skus.columns.seller_sku'),
          sortable: true,
          minWidth: 140,
          ...textFilter<ChannelSku>(),
        },
        {
          colId: 'price',
          field: 'price',
          headerName: t('skus.columns.price'),
          sortable: true,
          type: 'rightAligned',
          minWidth: 100,
        },
        {
          colId: 'channel_stock',
          field: 'channel_stock',
          headerName: t('skus.columns.channel_stock'),
          sortable: true,
          type: 'rightAligned',
          minWidth: 110,
        },
        {
          colId: 'master_code',
          headerName: t('skus.columns.master_code'),
          valueGetter: ({ data }) =>
            data?.master_code ? `${data.master_code.code} · ${data.master_code.name}` : '',
          sortable: true,
          minWidth: 180,
          ...textFilter<ChannelSku>(),
        },
        {
          colId: 'linked',
          headerName: t('skus.columns.linked'),
          valueGetter: ({ data }) =>
            data ? t(data.linked_by ? `skus.linked_by.${data.linked_by}` : 'skus.unlinked') : '',
          minWidth: 150,
          ...choiceFilter<ChannelSku>({
            label: t('skus.filters.linked'),
            anyLabel: t('skus.filters.any'),
            choices: [
              { value: 'linked', label: t('skus.filters.linked_only') },
              { value: 'unlinked', label: t('skus.unlinked') },
            ],
          }),
        },
        {
          colId: 'status',
          headerName: t('skus.columns.status'),
          valueGetter: ({ data }) =>
            data ? t(`skus.status.${data.status}`, { defaultValue: data.status }) : '',
          sortable: true,
          minWidth: 110,
        },
        {
          colId: 'actions',
          headerName: t('skus.columns.actions'),
          cellRenderer: ActionsCell,
          minWidth: 220,
          pinned: 'right',
        },
      ] satisfies ColDef<ChannelSku>[],
    [t],
  );
}

/** The stores and their downloads, with "Download items" for the chosen ones. */
function DownloadPanel({ manage, onFinished }: { manage: boolean; onFinished(): void }) {
  const { t } = useTranslation('downloads');
  const notify = useNotify();
  const when = useDateTime();
  const statuses = useDownloadStatuses();
  const start = useStartDownload();
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const rows = statuses.data ?? [];
  // A download that ends brings new rows to the grid.
  const finished = rows
    .filter((row) => row.status === 'completed')
    .map((row) => row.finished_at)
    .join();
  const onFinishedRef = useRef(onFinished);
  onFinishedRef.current = onFinished;
  useEffect(() => {
    if (finished) onFinishedRef.current();
  }, [finished]);

  async function download() {
    try {
      const answer = await start.mutateAsync([...chosen]);
      notify({ kind: 'success', message: answer.msg });
      setChosen(new Set());
    } catch (error) {
      notify({ kind: 'error', message: messageOf(error) });
    }
  }

  const toggle = (id: string) =>
    setChosen((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  return (
    <section className="card" aria-labelledby="download-stores-title">
      <h2 id="download-stores-title">{t('stores.title')}</h2>
      {rows.length === 0 && !statuses.isPending ? (
        <p className="muted">{t('stores.none')}</p>
      ) : (
        <table className="download-stores">
          <thead>
            <tr>
              {manage && <th scope="col">{t('stores.choose')}</th>}
              <th scope="col">{t('stores.store')}</th>
              <th scope="col">{t('stores.status')}</th>
              <th scope="col">{t('stores.items')}</th>
              <th scope="col">{t('stores.skus')}</th>
              <th scope="col">{t('stores.linked')}</th>
              <th scope="col">{t('stores.unlinked')}</th>
              <th scope="col">{t('stores.finished')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.store.id} data-store={row.store.name}>
                {manage && (
                  <td>
                    <input
                      type="checkbox"
                      aria-label={t('stores.choose_named', { name: row.store.name })}
                      checked={chosen.has(row.store.id)}
                      onChange={() => toggle(row.store.id)}
                    />
                  </td>
                )}
                <th scope="row">{row.store.name}</th>
                <td>
                  <span className={`badge ${TONE[row.status]}`} data-status={row.status}>
                    {t(`status.${row.status}`)}
                  </span>
                  {row.status === 'error' && row.last_error && (
                    <div className="download-error" role="alert">
                      {row.last_error}
                    </div>
                  )}
                </td>
                <td className="number">{row.items}</td>
                <td className="number">{row.skus}</td>
                <td className="number">{row.linked}</td>
                <td className="number">{row.unlinked}</td>
                <td>{row.finished_at ? when(row.finished_at) : t('stores.never')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {manage && (
        <div className="download-actions">
          <button
            type="button"
            className="button button-primary"
            disabled={chosen.size === 0 || start.isPending}
            onClick={download}
          >
            {t('stores.download', { count: chosen.size })}
          </button>
        </div>
      )}
    </section>
  );
}

function LinkDialog({
  row,
  onClose,
  onDone,
}: {
  row: ChannelSku;
  onClose(): void;
  onDone(msg: string): void;
}) {
  const { t } = useTranslation('downloads');
  const notify = useNotify();
  const link = useLinkChannelSku();
  return (
    <ModalDialog
      title={t('skus.link_title', { name: row.seller_sku || row.item_name })}
      onClose={onClose}
      closeLabel={t('skus.close')}
      footer={
        <button type="button" className="button button-secondary" onClick={onClose}>
          {t('skus.close')}
        </button>
      }
    >
      <p className="muted">{t('skus.link_intro')}</p>
      <MasterCodePicker
        label={t('skus.find_master_code')}
        chosen={row.master_code ? [row.master_code.id] : []}
        onPick={async (masterCode) => {
          try {
            const answer = await link.mutateAsync({ key: keyOf(row), masterCodeId: masterCode.id });
            onDone(answer.msg);
          } catch (error) {
            notify({ kind: 'error', message: messageOf(error) });
          }
        }}
      />
    </ModalDialog>
  );
}

/** "Import to listings" for a row's item: the logistics it ships by (the channel does not say), then the editor. */
function ImportDialog({ row, onClose }: { row: ChannelSku; onClose(): void }) {
  const { t } = useTranslation('downloads');
  const notify = useNotify();
  const navigate = useNavigate();
  const importing = useImportListing();
  const [logistics, setLogistics] = useState('');
  const formId = useId();
  async function submit(event: FormEvent) {
    event.preventDefault();
    try {
      const answer = await importing.mutateAsync({
        store_id: row.store.id,
        item_id: row.item_id,
        logistics: logistics
          .split(',')
          .map((value) => value.trim())
          .filter(Boolean),
      });
      notify({ kind: 'success', message: answer.msg });
      navigate(`/products/listings/${answer.data.id}`);
    } catch (error) {
      notify({ kind: 'error', message: messageOf(error) });
    }
  }
  return (
    <ModalDialog
      title={t('skus.import_title', { name: row.item_name })}
      onClose={onClose}
      closeLabel={t('skus.close')}
      footer={
        <>
          <button type="button" className="button button-secondary" onClick={onClose}>
            {t('skus.close')}
          </button>
          <button
            type="submit"
            form={formId}
            className="button button-primary"
            disabled={importing.isPending}
          >
            {t('skus.import_submit')}
          </button>
        </>
      }
    >
      <form id={formId} onSubmit={submit} noValidate>
        <p className="muted">{t('skus.import_intro')}</p>
        <TextField
          label={t('skus.logistics')}
          hint={t('skus.logistics_hint')}
          required
          value={logistics}
          onChange={(event) => setLogistics(event.target.value)}
        />
      </form>
    </ModalDialog>
  );
}

export default function DownloadStatusPage() {
  const { can } = useSession();
  const notify = useNotify();
  const grid = useRef<DataGridHandle>(null);
  const link = useLinkChannelSku();
  const [linking, setLinking] = useState<ChannelSku | null>(null);
  const [importing, setImporting] = useState<ChannelSku | null>(null);
  const columns = useColumns();
  const manage = can(MANAGE_KEY);
  const actions = useMemo(
    () => ({
      manage,
      link: (row: ChannelSku) => setLinking(row),
      import: (row: ChannelSku) => setImporting(row),
      unlink: async (row: ChannelSku) => {
        try {
          const answer = await link.mutateAsync({ key: keyOf(row) });
          notify({ kind: 'success', message: answer.msg });
          grid.current?.refresh();
        } catch (error) {
          notify({ kind: 'error', message: messageOf(error) });
        }
      },
    }),
    [manage, link, notify],
  );
  return (
    <RowActions.Provider value={actions}>
      <GridScreen<ChannelSku>
        namespace="downloads"
        prefix="skus"
        gridId="products.channel_skus"
        endpoint={CHANNEL_SKUS_ENDPOINT}
        useColumns={() => columns}
        getRowId={(row) => `${row.store.id}:${row.item_id}:${row.model_id}`}
        grid={grid}
        above={<DownloadPanel manage={manage} onFinished={() => grid.current?.refresh()} />}
      >
        {linking && (
          <LinkDialog
            row={linking}
            onClose={() => setLinking(null)}
            onDone={(msg) => {
              setLinking(null);
              notify({ kind: 'success', message: msg });
              grid.current?.refresh();
            }}
          />
        )}
        {importing && <ImportDialog row={importing} onClose={() => setImporting(null)} />}
      </GridScreen>
    </RowActions.Provider>
  );
}
