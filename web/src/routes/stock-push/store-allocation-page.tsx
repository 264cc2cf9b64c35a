import {
  LINKING_KEY,
  type StoreAllocations,
  useSaveMainStoreLock,
  useSaveStoreRule,
  useSaveStoreWarehouses,
  useStoreAllocations,
} from '@web/api/stock-push';
import { useWarehouses } from '@web/api/warehouses';
import { useSession } from '@web/auth/session';
import { ModalDialog } from '@web/components/modal-dialog';
import {
  CheckboxField,
  FormMessage,
  fieldErrorsOf,
  messageOf,
  SelectField,
  TextField,
} from '@web/shell/form';
import { useNotify } from '@web/shell/notifications';
import { PageHeader } from '@web/shell/page';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { RuleFields, type RuleText, ruleOf, ruleText, useRuleSummary } from './rule-fields';
import '@web/routes/management.css';

/**
 * Inventory → Stock allocation by store (spec route /inventory/stock-allocation-store): each store's push rule
 * (percentage of available plus a fixed amount, buffer, minimum, maximum; none: show all), which warehouses feed
 * it (multiple-warehouse-linking), and the main store lock — below a threshold only the main store shows stock.
 * A change applies from the store's next stock change or "Sync now".
 */

type Store = StoreAllocations['stores'][number];

function RuleDialog({ store, onClose }: { store: Store; onClose(): void }) {
  const { t } = useTranslation('push');
  const notify = useNotify();
  const save = useSaveStoreRule();
  const [text, setText] = useState<RuleText>(ruleText(store.rule));
  const [error, setError] = useState<unknown>(null);

  async function submit(rule: ReturnType<typeof ruleOf> | null) {
    setError(null);
    try {
      notify({ kind: 'success', message: (await save.mutateAsync({ storeId: store.store_id, rule })).msg });
      onClose();
    } catch (failure) {
      setError(failure);
    }
  }

  return (
    <ModalDialog
      title={t('stores.rule_title', { store: store.name })}
      onClose={onClose}
      closeLabel={t('actions.close')}
      footer={
        <>
          <button type="button" className="button" onClick={() => submit(null)} disabled={save.isPending}>
            {t('stores.show_all')}
          </button>
          <button
            type="submit"
            form="store-rule-form"
            className="button button-primary"
            disabled={save.isPending}
          >
            {t('actions.save')}
          </button>
        </>
      }
    >
      <form
        id="store-rule-form"
        noValidate
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          void submit(ruleOf(text));
        }}
      >
        {error !== null && <FormMessage kind="error">{messageOf(error)}</FormMessage>}
        <RuleFields value={text} onChange={setText} errors={fieldErrorsOf(error)} />
      </form>
    </ModalDialog>
  );
}

function WarehousesDialog({ store, onClose }: { store: Store; onClose(): void }) {
  const { t } = useTranslation('push');
  const notify = useNotify();
  const warehouses = useWarehouses();
  const save = useSaveStoreWarehouses();
  const [chosen, setChosen] = useState<string[]>(
    store.default_warehouses ? [] : store.warehouses.map((w) => w.id),
  );
  const [error, setError] = useState<unknown>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    try {
      const answer = await save.mutateAsync({ storeId: store.store_id, warehouseIds: chosen });
      notify({ kind: 'success', message: answer.msg });
      onClose();
    } catch (failure) {
      setError(failure);
    }
  }

  return (
    <ModalDialog
      title={t('stores.warehouses_title', { store: store.name })}
      onClose={onClose}
      closeLabel={t('actions.close')}
      footer={
        <button
          type="submit"
          form="store-warehouses-form"
          className="button button-primary"
          disabled={save.isPending}
        >
          {t('actions.save')}
        </button>
      }
    >
      <form id="store-warehouses-form" noValidate onSubmit={submit}>
        {error !== null && <FormMessage kind="error">{messageOf(error)}</FormMessage>}
        <p className="field-hint">{t('stores.warehouses_hint')}</p>
        {warehouses.data?.map((warehouse) => (
          <CheckboxField
            key={warehouse.id}
            label={warehouse.name}
            checked={chosen.includes(warehouse.id)}
            onChange={(event) =>
              setChosen(
                event.target.checked ? [...chosen, warehouse.id] : chosen.filter((id) => id !== warehouse.id),
              )
            }
          />
        ))}
      </form>
    </ModalDialog>
  );
}

function MainStoreLock({ allocations }: { allocations: StoreAllocations }) {
  const { t } = useTranslation('push');
  const notify = useNotify();
  const save = useSaveMainStoreLock();
  const [main, setMain] = useState(allocations.lock.main_store_id ?? '');
  const [below, setBelow] = useState(String(allocations.lock.lock_below));
  const [error, setError] = useState<unknown>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    try {
      const answer = await save.mutateAsync({ main_store_id: main || null, lock_below: Number(below) });
      notify({ kind: 'success', message: answer.msg });
    } catch (failure) {
      setError(failure);
    }
  }

  return (
    <form onSubmit={submit} noValidate className="form-section">
      <h2>{t('stores.lock_title')}</h2>
      <p className="field-hint">{t('stores.lock_hint')}</p>
      {error !== null && <FormMessage kind="error">{messageOf(error)}</FormMessage>}
      <div className="form-grid">
        <SelectField
          label={t('stores.main_store')}
          value={main}
          placeholder={t('stores.no_main_store')}
          options={allocations.stores.map((store) => ({ value: store.store_id, label: store.name }))}
          onChange={(event) => setMain(event.target.value)}
        />
        <TextField
          label={t('stores.lock_below')}
          inputMode="numeric"
          value={below}
          error={fieldErrorsOf(error).lock_below}
          onChange={(event) => setBelow(event.target.value)}
        />
      </div>
      <div className="toolbar">
        <button type="submit" className="button button-primary" disabled={save.isPending}>
          {t('actions.save')}
        </button>
      </div>
    </form>
  );
}

export default function StoreAllocationPage() {
  const { t } = useTranslation('push');
  const { can } = useSession();
  const allocations = useStoreAllocations();
  const summary = useRuleSummary();
  const [editing, setEditing] = useState<{ store: Store; what: 'rule' | 'warehouses' } | null>(null);

  return (
    <div className="page management-page">
      <PageHeader title={t('stores.title')} intro={t('stores.intro')}>
        <Link className="button" to="/inventory/stock-allocation-marketplace">
          {t('nav.marketplace')}
        </Link>
      </PageHeader>
      {allocations.isError && <FormMessage kind="error">{messageOf(allocations.error)}</FormMessage>}
      {allocations.data && allocations.data.stores.length === 0 && (
        <p className="muted">{t('stores.none')}</p>
      )}
      {allocations.data && allocations.data.stores.length > 0 && (
        <>
          <table className="simple-table">
            <thead>
              <tr>
                <th scope="col">{t('stores.columns.store')}</th>
                <th scope="col">{t('stores.columns.rule')}</th>
                <th scope="col">{t('stores.columns.warehouses')}</th>
                <th scope="col">
                  <span className="visually-hidden">{t('stores.columns.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {allocations.data.stores.map((store) => (
                <tr key={store.store_id}>
                  <th scope="row">
                    {store.name}
                    {store.is_main && <span className="badge">{t('stores.main_badge')}</span>}
                  </th>
                  <td>{summary(store.rule)}</td>
                  <td>
                    {store.warehouses.map((w) => w.name).join(', ')}
                    {store.default_warehouses && <span className="muted"> ({t('stores.default')})</span>}
                  </td>
                  <td>
                    <button
                      type="button"
                      className="button"
                      onClick={() => setEditing({ store, what: 'rule' })}
                    >
                      {t('stores.edit_rule')}
                    </button>
                    {can(LINKING_KEY) && (
                      <button
                        type="button"
                        className="button"
                        onClick={() => setEditing({ store, what: 'warehouses' })}
                      >
                        {t('stores.edit_warehouses')}
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <MainStoreLock allocations={allocations.data} />
        </>
      )}
      {editing?.what === 'rule' && <RuleDialog store={editing.store} onClose={() => setEditing(null)} />}
      {editing?.what === 'warehouses' && (
        <WarehousesDialog store={editing.store} onClose={() => setEditing(null)} />
      )}
    </div>
  );
}
