import { MASTER_CODES_ENDPOINT, type MasterCode, useSetMasterCodeStatus } from '@web/api/master-codes';
import type { DataGridHandle } from '@web/components/data-grid';
import { GridScreen } from '@web/components/grid-screen';
import { messageOf } from '@web/shell/form';
import { useNotify } from '@web/shell/notifications';
import { useCallback, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { type MasterCodeActions, useMasterCodeColumns } from './use-master-code-columns';
import '../inventory.css';

/**
 * Inventory → master code (spec §3): every master code of the account in a server-side grid — search over code,
 * name, seller SKU and UPC, filters under the headers (type, status, text columns, last change) — with activate and
 * deactivate on each row. A master code is created and edited on its own page.
 */
export default function MasterCodesPage() {
  const { t } = useTranslation('inventory');
  const notify = useNotify();
  const grid = useRef<DataGridHandle>(null);
  const setStatus = useSetMasterCodeStatus();
  const { mutate } = setStatus;

  const onToggleStatus = useCallback(
    (row: MasterCode) =>
      mutate(
        { id: row.id, status: row.status === 'active' ? 'inactive' : 'active' },
        {
          onSuccess: (answer) => {
            notify({ kind: 'success', message: answer.msg });
            grid.current?.refresh();
          },
          onError: (error) => notify({ kind: 'error', message: messageOf(error) }),
        },
      ),
    [mutate, notify],
  );
  const actions = useMemo<MasterCodeActions>(() => ({ onToggleStatus }), [onToggleStatus]);
  const columns = useMasterCodeColumns(actions);

  return (
    <GridScreen<MasterCode>
      namespace="inventory"
      prefix="master_code"
      gridId="inventory.master-codes"
      endpoint={MASTER_CODES_ENDPOINT}
      useColumns={() => columns}
      className="inventory-page"
      grid={grid}
      actions={
        <Link to="/inventory/master-code/new" className="button button-primary">
          {t('master_code.add')}
        </Link>
      }
    />
  );
}
