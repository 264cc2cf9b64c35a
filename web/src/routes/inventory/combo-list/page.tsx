import { COMBOS_ENDPOINT, type ComboRow } from '@web/api/combos';
import { useSetMasterCodeStatus } from '@web/api/master-codes';
import { useSession } from '@web/auth/session';
import type { DataGridHandle } from '@web/components/data-grid';
import { GridScreen } from '@web/components/grid-screen';
import { messageOf } from '@web/shell/form';
import { useNotify } from '@web/shell/notifications';
import { useCallback, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { ComboItemsDialog } from '../components/combo-items-dialog';
import { type ComboActions, useComboColumns } from './use-combo-columns';
import '../inventory.css';

/**
 * Inventory → combo list (spec §3 "Combo"): the account's combos with their items, searched by the combo's code or
 * name or an item's code. A combo's items are edited in a dialog; its other fields are a master code's.
 */
export default function ComboListPage() {
  const { t } = useTranslation('inventory');
  const notify = useNotify();
  const { can } = useSession();
  const grid = useRef<DataGridHandle>(null);
  const [editing, setEditing] = useState<ComboRow | null>(null);
  const { mutate } = useSetMasterCodeStatus();
  const canEditDetails = can('inventory-master-code');

  const onToggleStatus = useCallback(
    (row: ComboRow) =>
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
  const actions = useMemo<ComboActions>(
    () => ({ canEditDetails, onEditItems: setEditing, onToggleStatus }),
    [canEditDetails, onToggleStatus],
  );
  const columns = useComboColumns(actions);

  return (
    <GridScreen<ComboRow>
      namespace="inventory"
      prefix="combo"
      gridId="inventory.combos"
      endpoint={COMBOS_ENDPOINT}
      useColumns={() => columns}
      className="inventory-page"
      grid={grid}
      actions={
        <Link to="/inventory/combo-list/new" className="button button-primary">
          {t('combo.add')}
        </Link>
      }
    >
      {editing && (
        <ComboItemsDialog
          combo={editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            grid.current?.refresh();
          }}
        />
      )}
    </GridScreen>
  );
}
