import { MASTER_CODES_ENDPOINT, type MasterCode, useSetMasterCodeStatus } from '@web/api/master-codes';
import { DataGrid, type DataGridHandle } from '@web/components/data-grid';
import { messageOf } from '@web/shell/form';
import { useNotify } from '@web/shell/notifications';
import { PageHeader, SearchToolbar } from '@web/shell/page';
import { useCallback, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { type MasterCodeActions, useMasterCodeColumns } from './use-master-code-columns';
import '@web/routes/management.css';
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
  const [search, setSearch] = useState('');
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
    <div className="page management-page inventory-page">
      <PageHeader title={t('master_code.title')} intro={t('master_code.intro')}>
        <Link to="/inventory/master-code/new" className="button button-primary">
          {t('master_code.add')}
        </Link>
      </PageHeader>
      <SearchToolbar
        label={t('master_code.search_label')}
        placeholder={t('master_code.search_placeholder')}
        value={search}
        onChange={setSearch}
      />
      <DataGrid<MasterCode>
        gridId="inventory.master-codes"
        endpoint={MASTER_CODES_ENDPOINT}
        columns={columns}
        label={t('master_code.grid_label')}
        search={search}
        getRowId={(row) => row.id}
        handle={grid}
      />
    </div>
  );
}
