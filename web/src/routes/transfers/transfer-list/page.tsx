import { LIVE_VIEWS } from '@domain/shared/live-views';
import { useQueryClient } from '@tanstack/react-query';
import { TRANSFERS_ENDPOINT, type TransferRow, transferKeys, useTransferAction } from '@web/api/transfers';
import { useSession } from '@web/auth/session';
import type { DataGridHandle } from '@web/components/data-grid';
import { GridScreen } from '@web/components/grid-screen';
import Forbidden from '@web/routes/forbidden';
import { useCallback, useMemo, useRef, useState } from 'react';
import { useRowAction } from '../components/use-row-action';
import { DocumentForm } from '../document-form';
import { TransferDetailDialog } from '../transfer-detail';
import { useTransferColumns } from './use-transfer-columns';
import '@web/routes/inventory/stock-common/stock.css';
import '../transfers.css';

/**
 * Transfer stock → transfers (/transfer-stock/list-transfer): the account's transfers with the actions their state
 * allows, a detail dialog with the lines, the quantities to receive and the timeline, and a transfer made directly.
 * It follows the live view `transfers`: a shipment or receipt anywhere shows here without a reload.
 */
export default function TransferListPage() {
  const { can } = useSession();
  const queryClient = useQueryClient();
  const grid = useRef<DataGridHandle>(null);
  const [open, setOpen] = useState<string | null>(null);
  const canManage = can('transfer-manage-transfer');
  const canRead = canManage || can('transfer-manage-request') || can('transfer-approve-request');

  const onView = useCallback((row: TransferRow) => setOpen(row.id), []);
  const onShip = useRowAction(useTransferAction().mutate, 'ship', grid);
  const actions = useMemo(
    () => ({ onView, onShip, onReceive: onView, canManage }),
    [onView, onShip, canManage],
  );
  const columns = useTransferColumns(actions);

  if (!canRead) return <Forbidden />;
  return (
    <GridScreen<TransferRow>
      namespace="transfers"
      prefix="transfers"
      gridId="transfers.transfers"
      endpoint={TRANSFERS_ENDPOINT}
      useColumns={() => columns}
      className="transfer-page"
      grid={grid}
      live={LIVE_VIEWS.transfers}
      onLive={() => void queryClient.invalidateQueries({ queryKey: transferKeys.lists() })}
      form={
        canManage
          ? ({ onClose, onSaved }) => (
              <DocumentForm
                kind="transfer"
                onClose={onClose}
                onSaved={(id) => {
                  onSaved();
                  setOpen(id);
                }}
              />
            )
          : undefined
      }
    >
      {open && <TransferDetailDialog id={open} onClose={() => setOpen(null)} />}
    </GridScreen>
  );
}
