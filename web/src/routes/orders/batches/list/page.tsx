import type { BatchAnswer } from '@api/contracts/batches';
import { BATCHES_ENDPOINT, BATCHES_VIEW, downloadPickList, ORDER_COUNTS_VIEW } from '@web/api/batches';
import { useLiveRefresh } from '@web/api/live';
import { useSession } from '@web/auth/session';
import { DataGrid, type DataGridHandle } from '@web/components/data-grid';
import Forbidden from '@web/routes/forbidden';
import { messageOf } from '@web/shell/form';
import { useNotify } from '@web/shell/notifications';
import { PageHeader, SearchToolbar } from '@web/shell/page';
import { useCallback, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CreateBatchDialog } from '../create-dialog';
import { BatchDetailDialog } from '../detail-dialog';
import { useBatchColumns } from './use-batch-columns';
import '@web/routes/management.css';
import '../batches.css';

/**
 * Orders → batches (/orders/batch): the account's batches with their progress (orders scanned of orders in the
 * batch), a batch made from a selection of waiting orders, and each batch's detail — its orders, its pick list in the
 * five item filters, printing, adding and taking out orders, its picker, closing it. It follows the live view
 * `batches` (and the board's `orderCounts`, its orders' status): an auto batch, or a picker scanning, shows here
 * without a reload.
 */
export default function BatchListPage() {
  const { t } = useTranslation('batches');
  const { can } = useSession();
  const notify = useNotify();
  const grid = useRef<DataGridHandle>(null);
  const [search, setSearch] = useState('');
  const [creating, setCreating] = useState(false);
  const [open, setOpen] = useState<string | null>(null);

  const onView = useCallback((row: BatchAnswer) => setOpen(row.id), []);
  const onPrint = useCallback(
    (row: BatchAnswer) => {
      downloadPickList(row, 'item').catch((error: unknown) =>
        notify({ kind: 'error', message: messageOf(error) }),
      );
    },
    [notify],
  );
  const actions = useMemo(() => ({ onView, onPrint }), [onView, onPrint]);
  const columns = useBatchColumns(actions);
  const refresh = useCallback(() => grid.current?.refresh(), []);
  useLiveRefresh(BATCHES_VIEW, refresh);
  useLiveRefresh(ORDER_COUNTS_VIEW, refresh);

  if (!can('orders-batch')) return <Forbidden />;
  return (
    <div className="page management-page batch-page">
      <PageHeader title={t('list.title')} intro={t('list.intro')}>
        <button type="button" className="button button-primary" onClick={() => setCreating(true)}>
          {t('list.add')}
        </button>
      </PageHeader>
      <SearchToolbar
        label={t('list.search_label')}
        placeholder={t('list.search_placeholder')}
        value={search}
        onChange={setSearch}
      />
      <DataGrid<BatchAnswer>
        gridId="orders.batches"
        endpoint={BATCHES_ENDPOINT}
        columns={columns}
        label={t('list.grid_label')}
        search={search}
        getRowId={(row) => row.id}
        handle={grid}
      />
      {creating && (
        <CreateBatchDialog
          onClose={() => setCreating(false)}
          onCreated={(ids) => {
            setCreating(false);
            grid.current?.refresh();
            if (ids.length === 1) setOpen(ids[0]!);
          }}
        />
      )}
      {open && <BatchDetailDialog id={open} onClose={() => setOpen(null)} />}
    </div>
  );
}
