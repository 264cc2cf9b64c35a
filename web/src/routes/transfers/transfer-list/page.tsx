import { useQueryClient } from '@tanstack/react-query';
import { TRANSFERS_ENDPOINT, type TransferRow, transferKeys, useTransferAction } from '@web/api/transfers';
import { useSession } from '@web/auth/session';
import { SearchableGrid, useLiveGrid } from '@web/components/data-grid';
import Forbidden from '@web/routes/forbidden';
import { PageHeader } from '@web/shell/page';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useRowAction } from '../components/use-row-action';
import { DocumentForm } from '../document-form';
import { TransferDetailDialog } from '../transfer-detail';
import { useTransferColumns } from './use-transfer-columns';
import '@web/routes/management.css';
import '@web/routes/inventory/stock-common/stock.css';
import '../transfers.css';

/**
 * Transfer stock → transfers (/transfer-stock/list-transfer): the account's transfers with the actions their state
 * allows, a detail dialog with the lines, the quantities to receive and the timeline, and a transfer made directly.
 * It follows the live view `transfers`: a shipment or receipt anywhere shows here without a reload.
 */
export default function TransferListPage() {
  const { t } = useTranslation('transfers');
  const { can } = useSession();
  const queryClient = useQueryClient();
  const grid = useLiveGrid(
    'transfers',
    () => void queryClient.invalidateQueries({ queryKey: transferKeys.lists() }),
  );
  const [creating, setCreating] = useState(false);
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
    <div className="page management-page transfer-page">
      <PageHeader title={t('transfers.title')} intro={t('transfers.intro')}>
        {canManage && (
          <button type="button" className="button button-primary" onClick={() => setCreating(true)}>
            {t('transfers.add')}
          </button>
        )}
      </PageHeader>
      <SearchableGrid<TransferRow>
        searchLabel={t('transfers.search_label')}
        searchPlaceholder={t('transfers.search_placeholder')}
        gridId="transfers.transfers"
        endpoint={TRANSFERS_ENDPOINT}
        columns={columns}
        label={t('transfers.grid_label')}
        getRowId={(row) => row.id}
        handle={grid}
      />
      {creating && (
        <DocumentForm
          kind="transfer"
          onClose={() => setCreating(false)}
          onSaved={(id) => {
            setCreating(false);
            grid.current?.refresh();
            setOpen(id);
          }}
        />
      )}
      {open && <TransferDetailDialog id={open} onClose={() => setOpen(null)} />}
    </div>
  );
}
