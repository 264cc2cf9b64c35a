import { WHOLESALE_PRICING_ENDPOINT, type WholesalePricing } from '@web/api/wholesale-prices';
import { useSession } from '@web/auth/session';
import type { DataGridHandle } from '@web/components/data-grid';
import { GridScreen } from '@web/components/grid-screen';
import { useMemo, useRef, useState } from 'react';
import { WholesaleTiersDialog } from './tiers-dialog';
import { useWholesaleColumns, type WholesaleActions } from './use-wholesale-columns';
import '../inventory.css';

/**
 * Inventory → wholesale pricing (spec §2 /inventory/wholesale-pricing): every master code with its tiers of a
 * minimum quantity and a unit price, searched and filtered as the master code grid is; the tiers are edited in a
 * dialog by holders of inventory-master-code (pos-wholesale-price reads them).
 */
export default function WholesalePricingPage() {
  const { can } = useSession();
  const grid = useRef<DataGridHandle>(null);
  const [editing, setEditing] = useState<WholesalePricing | null>(null);
  const canEdit = can('inventory-master-code');
  const actions = useMemo<WholesaleActions>(() => (canEdit ? { onEdit: setEditing } : {}), [canEdit]);
  const columns = useWholesaleColumns(actions);

  return (
    <GridScreen<WholesalePricing>
      namespace="inventory"
      prefix="wholesale"
      gridId="inventory.wholesale-pricing"
      endpoint={WHOLESALE_PRICING_ENDPOINT}
      useColumns={() => columns}
      className="inventory-page"
      grid={grid}
    >
      {editing && (
        <WholesaleTiersDialog
          row={editing}
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
