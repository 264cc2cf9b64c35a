import { withQuery } from '@web/api/client';
import {
  SKU_RULES_ENDPOINT,
  type SkuRuleRow,
  useDeleteSkuRule,
  useSaveSkuRule,
  useStoreAllocations,
} from '@web/api/stock-push';
import { GridScreen, type RowActions } from '@web/components/grid-screen';
import { ModalDialog } from '@web/components/modal-dialog';
import {
  MasterCodePicker,
  type PickedMasterCode,
} from '@web/routes/inventory/stock-common/master-code-picker';
import { FormMessage, fieldErrorsOf, messageOf, SelectField } from '@web/shell/form';
import { useNotify } from '@web/shell/notifications';
import type { ColDef, ICellRendererParams } from 'ag-grid-community';
import { type FormEvent, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RuleFields, type RuleText, ruleOf, ruleText, useRuleSummary } from './rule-fields';
import { StoreFilter } from './store-filter';

/**
 * Inventory → Stock allocation by marketplace SKU (spec route /inventory/stock-allocation-marketplace): master codes
 * with a push rule of their own in a store, replacing the store's rule for that master code's SKUs there.
 */

const rowKey = (row: Pick<SkuRuleRow, 'store_id' | 'master_code_id'>) =>
  `${row.store_id}/${row.master_code_id}`;

function ActionsCell({
  data,
  actions,
}: ICellRendererParams<SkuRuleRow> & { actions: RowActions<SkuRuleRow> }) {
  const { t } = useTranslation('push');
  if (!data) return null;
  return (
    <div className="grid-actions">
      <button type="button" className="button button-small" onClick={() => actions.onEdit(data)}>
        {t('actions.edit')}
      </button>
      <button
        type="button"
        className="button button-small button-danger-outline"
        onClick={() => actions.onDelete(data)}
      >
        {t('actions.delete')}
      </button>
    </div>
  );
}

function useColumns(actions: RowActions<SkuRuleRow>): ColDef<SkuRuleRow>[] {
  const { t } = useTranslation('push');
  const summary = useRuleSummary();
  return useMemo(
    () => [
      {
        colId: 'code',
        headerName: t('marketplace.columns.code'),
        valueGetter: ({ data }) => (data ? `${data.code} — ${data.name}` : ''),
        sortable: true,
        flex: 1,
        minWidth: 200,
      },
      {
        colId: 'store',
        headerName: t('marketplace.columns.store'),
        valueGetter: ({ data }) => data?.store_name ?? '',
        sortable: true,
        minWidth: 150,
      },
      {
        colId: 'rule',
        headerName: t('marketplace.columns.rule'),
        valueGetter: ({ data }) => (data ? summary(data.rule) : ''),
        flex: 1,
        minWidth: 240,
      },
      {
        colId: 'actions',
        headerName: t('marketplace.columns.actions'),
        cellRenderer: ActionsCell,
        cellRendererParams: { actions },
        sortable: false,
        minWidth: 170,
      },
    ],
    [t, summary, actions],
  );
}

function SkuRuleForm({
  row,
  onClose,
  onSaved,
}: {
  row: SkuRuleRow | null;
  onClose(): void;
  onSaved(): void;
}) {
  const { t } = useTranslation('push');
  const notify = useNotify();
  const stores = useStoreAllocations();
  const save = useSaveSkuRule();
  const [store, setStore] = useState(row?.store_id ?? '');
  const [masterCode, setMasterCode] = useState<PickedMasterCode | null>(
    row ? { id: row.master_code_id, code: row.code, name: row.name } : null,
  );
  const [text, setText] = useState<RuleText>(ruleText(row?.rule ?? null));
  const [error, setError] = useState<unknown>(null);
  const errors = fieldErrorsOf(error);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    try {
      const answer = await save.mutateAsync({
        store_id: store,
        master_code_id: masterCode?.id ?? '',
        rule: ruleOf(text),
      });
      notify({ kind: 'success', message: answer.msg });
      onSaved();
    } catch (failure) {
      setError(failure);
    }
  }

  return (
    <ModalDialog
      title={row ? t('marketplace.edit_title') : t('marketplace.add')}
      onClose={onClose}
      closeLabel={t('actions.close')}
      footer={
        <button
          type="submit"
          form="sku-rule-form"
          className="button button-primary"
          disabled={save.isPending}
        >
          {t('actions.save')}
        </button>
      }
    >
      <form id="sku-rule-form" noValidate onSubmit={submit}>
        {error !== null && <FormMessage kind="error">{messageOf(error)}</FormMessage>}
        <div className="form-grid">
          <SelectField
            label={t('marketplace.store')}
            required
            disabled={row !== null}
            value={store}
            placeholder={t('marketplace.choose_store')}
            error={errors.store_id}
            options={(stores.data?.stores ?? []).map((option) => ({
              value: option.store_id,
              label: option.name,
            }))}
            onChange={(event) => setStore(event.target.value)}
          />
          {row === null && (
            <MasterCodePicker
              label={t('marketplace.master_code')}
              required
              value={masterCode}
              onChange={setMasterCode}
              error={errors.master_code_id}
            />
          )}
        </div>
        <RuleFields value={text} onChange={setText} errors={errors} />
      </form>
    </ModalDialog>
  );
}

export default function MarketplaceAllocationPage() {
  const { t } = useTranslation('push');
  const remove = useDeleteSkuRule();
  const [store, setStore] = useState('');
  return (
    <GridScreen<SkuRuleRow>
      namespace="push"
      prefix="marketplace"
      gridId="inventory.stock-allocation-marketplace"
      endpoint={withQuery(SKU_RULES_ENDPOINT, { store_id: store || undefined })}
      useColumns={useColumns}
      getRowId={rowKey}
      form={(props) => <SkuRuleForm {...props} />}
      remove={{
        isPending: remove.isPending,
        mutateAsync: (id) => {
          const [store_id = '', master_code_id = ''] = id.split('/');
          return remove.mutateAsync({ store_id, master_code_id });
        },
      }}
      deleteMessage={(row) => t('marketplace.delete_message', { code: row.code, store: row.store_name })}
      filters={<StoreFilter value={store} onChange={setStore} />}
    />
  );
}
