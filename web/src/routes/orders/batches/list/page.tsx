import type { BatchAnswer } from '@api/contracts/batches';
import { BATCHES_ENDPOINT, BATCHES_VIEW, downloadPickList, ORDER_COUNTS_VIEW } from '@web/api/batches';
import { useSession } from '@web/auth/session';
import type { DataGridHandle } from '@web/components/data-grid';
import { GridScreen } from '@web/components/grid-screen';
import Forbidden from '@web/routes/forbidden';
import { messageOf } from '@web/shell/form';
import { useNotify } from '@web/shell/notifications';
import { useCallback, useMemo, useRef, useState } from 'react';
import { CreateBatchDialog } from '../create-dialog';
import { BatchDetailDialog } from '../detail-dialog';
import { useBatchColumns } from './use-batch-columns';
import '../batches.css';

/**
 * Orders → batches (/orders/batch): the account's batches with their progress (orders scanned of orders in the
 * batch), a batch made from a selection of waiting orders, and each batch's detail — its orders, its pick list in the
 * five item filters, printing, adding and taking out orders, its picker, closing it. It follows the live view
 * `batches` (and the board's `orderCounts`, its orders' status): an auto batch, or a picker scanning, shows here
 * without a reload.
 */
export default function BatchListPage() {
  const { can } = useSession();
  const notify = useNotify();
  const grid = useRef<DataGridHandle>(null);
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

  if (!can('orders-batch')) return <Forbidden />;
  return (
    <GridScreen<BatchAnswer>
      namespace="batches"
      prefix="list"
      gridId="orders.batches"
      endpoint={BATCHES_ENDPOINT}
      useColumns={() => columns}
      className="batch-page"
      grid={grid}
      live={[BATCHES_VIEW, ORDER_COUNTS_VIEW]}
      form={({ onClose, onSaved }) => (
        <CreateBatchDialog
          onClose={onClose}
          onCreated={(ids) => {
            onSaved();
            if (ids.length === 1) setOpen(ids[0]!);
          }}
        />
      )}
    >
      {open && <BatchDetailDialog id={open} onClose={() => setOpen(null)} />}
    </GridScreen>
  );
}
