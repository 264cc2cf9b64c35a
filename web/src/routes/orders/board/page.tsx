import {
  ACTION_FROM,
  ACTION_KEYS,
  BOARD_ACTIONS,
  type BoardAction,
  ORDER_FILTERS,
  ORDER_READER_KEYS,
  ORDER_TABS,
  type OrderTab,
  TAB_STATUSES,
} from '@domain/orders/board';
import { PLATFORMS } from '@domain/orders/marketplace-order';
import { useLiveView } from '@web/api/live';
import {
  type ActionBody,
  ORDER_COUNTS_VIEW,
  ORDERS_ENDPOINT,
  ORDERS_VIEW,
  type OrderRow,
  useOrderAction,
  useOrderCounts,
  useOrderStores,
  withQuery,
} from '@web/api/orders';
import type { PrintOrigin } from '@web/api/printing';
import { useSession } from '@web/auth/session';
import type { DataGridHandle } from '@web/components/data-grid';
import { GridScreen } from '@web/components/grid-screen';
import { messageOf } from '@web/shell/form';
import { useNotify } from '@web/shell/notifications';
import { PageHeader } from '@web/shell/page';
import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router-dom';
import { PrintActions } from '../print/print-actions';
import { ArrangeDialog, AssignDialog, CancelDialog, MarkPrintedDialog, PickupDialog } from './action-dialogs';
import { OrderDrawer } from './order-drawer';
import { useOrderColumns } from './use-order-columns';
import '@web/routes/management.css';
import '../orders.css';

/**
 * Orders → Manage orders (spec §2 /orders/manage/{tab}): the tabs with their counts, the filters of spec §4, store,
 * platform, payment and paid dates, search by order or tracking number, the ag-grid list with a checkbox per row and
 * the actions the tab's orders allow, and an order's drawer. Everything follows the live views `orders` (rows) and
 * `orderCounts` (tab counts): orders arriving or scanned in another browser move the board without a reload.
 */

type Target = Pick<OrderRow, 'id' | 'order_number' | 'tracking_number' | 'shipping_provider'>;
type Asking = {
  action: 'cancel' | 'arrange_shipment' | 'request_pickup' | 'mark_printed' | 'assign';
  orders: Target[];
} | null;

/** Folds a burst of live notices into one call every `everyMs` (the first at once). */
function useThrottled(run: () => void, everyMs = 250) {
  const last = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const latest = useRef(run);
  useEffect(() => {
    latest.current = run;
  }, [run]);
  useEffect(() => () => clearTimeout(timer.current), []);
  return useCallback(() => {
    if (timer.current) return;
    const wait = last.current + everyMs - Date.now();
    const fire = () => {
      timer.current = undefined;
      last.current = Date.now();
      latest.current();
    };
    if (wait <= 0) fire();
    else timer.current = setTimeout(fire, wait);
  }, [everyMs]);
}

/** One of the toolbar's select filters: a hidden label, "all" (the empty value) first, then its options. */
function FilterSelect({
  label,
  all,
  value,
  options,
  onChange,
}: {
  label: string;
  all: string;
  value: string;
  options: { value: string; label: string }[];
  onChange(value: string): void;
}) {
  const id = useId();
  return (
    <>
      <label htmlFor={id} className="visually-hidden">
        {label}
      </label>
      <select id={id} className="input" value={value} onChange={(event) => onChange(event.target.value)}>
        <option value="">{all}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </>
  );
}

/** Where a print from this tab is recorded as coming from (spec §4 print log origins). */
function printOrigin(tab: OrderTab): PrintOrigin {
  if (tab === 'shipped') return 'shipped';
  if (tab === 'rts') return 'processed';
  return 'unscan';
}

export default function OrderBoardPage() {
  const { t } = useTranslation('orders');
  const { can } = useSession();
  const notify = useNotify();
  const location = useLocation();
  const tab = (ORDER_TABS as readonly string[]).includes(location.pathname.split('/').at(-1) ?? '')
    ? (location.pathname.split('/').at(-1) as OrderTab)
    : 'all';
  const grid = useRef<DataGridHandle>(null);
  const ids = {
    from: useId(),
    to: useId(),
  };
  // A link may open the board on one filter (the order limit banner's held orders).
  const [filter, setFilter] = useState(() => new URLSearchParams(location.search).get('filter') ?? '');
  const [storeId, setStoreId] = useState('');
  const [platform, setPlatform] = useState('');
  const [payment, setPayment] = useState('');
  const [paidFrom, setPaidFrom] = useState('');
  const [paidTo, setPaidTo] = useState('');
  const [open, setOpen] = useState<string | null>(null);
  const [asking, setAsking] = useState<Asking>(null);

  const counts = useOrderCounts({ store_id: storeId || undefined, platform: platform || undefined });
  const stores = useOrderStores();
  const run = useOrderAction();
  const mayRead = ORDER_READER_KEYS.some((key) => can(key));

  const endpoint = withQuery(ORDERS_ENDPOINT, {
    tab,
    filter: filter || undefined,
    store_id: storeId || undefined,
    platform: platform || undefined,
    payment: payment || undefined,
    paid_from: paidFrom || undefined,
    paid_to: paidTo || undefined,
  });
  const onOpen = useCallback((row: OrderRow) => setOpen(row.id), []);
  const columns = useOrderColumns(onOpen);

  const refreshRows = useThrottled(useCallback(() => grid.current?.refresh(), []));
  const refreshCounts = useThrottled(
    useCallback(() => {
      void counts.refetch();
    }, [counts]),
  );
  useLiveView(ORDERS_VIEW, refreshRows);
  useLiveView(ORDER_COUNTS_VIEW, refreshCounts);

  // The actions this tab's orders may take, that the user holds the key of.
  const actions = useMemo(
    () =>
      BOARD_ACTIONS.filter(
        (action) =>
          can(ACTION_KEYS[action]) &&
          ACTION_FROM[action].some((status) => TAB_STATUSES[tab].includes(status)),
      ),
    [can, tab],
  );

  async function execute(body: ActionBody) {
    try {
      const answer = await run.mutateAsync(body);
      const refused = answer.data.results.find((result) => !result.ok);
      notify({
        kind: refused ? 'info' : 'success',
        message: refused ? `${answer.msg} ${refused.msg}` : answer.msg,
      });
      setAsking(null);
      grid.current?.clearSelection();
      grid.current?.refresh();
    } catch (error) {
      if (!asking) notify({ kind: 'error', message: messageOf(error) });
    }
  }

  function start(action: BoardAction, orders: Target[]) {
    if (
      action === 'cancel' ||
      action === 'arrange_shipment' ||
      action === 'request_pickup' ||
      action === 'mark_printed' ||
      action === 'assign'
    ) {
      run.reset();
      setAsking({ action, orders });
      return;
    }
    void execute({ action, order_ids: orders.map((order) => order.id) });
  }

  const filters = [
    {
      label: t('manage.filter_label'),
      all: t('manage.all_lists'),
      value: filter,
      onChange: setFilter,
      options: ORDER_FILTERS.map((name) => ({ value: name, label: t(`filters.${name}`) })),
    },
    {
      label: t('manage.store_label'),
      all: t('manage.all_stores'),
      value: storeId,
      onChange: setStoreId,
      options: (stores.data ?? []).map((store) => ({
        value: store.store_id,
        label: store.name ?? store.store_id,
      })),
    },
    {
      label: t('manage.platform_label'),
      all: t('manage.all_platforms'),
      value: platform,
      onChange: setPlatform,
      options: PLATFORMS.map((name) => ({ value: name, label: t(`platforms.${name}`) })),
    },
    {
      label: t('manage.payment_label'),
      all: t('manage.any_payment'),
      value: payment,
      onChange: setPayment,
      options: [
        { value: 'cod', label: t('payment.cod') },
        { value: 'paid', label: t('payment.paid') },
        { value: 'unpaid', label: t('payment.unpaid') },
      ],
    },
  ];

  if (!mayRead) {
    return (
      <div className="page">
        <PageHeader title={t(`manage.titles.${tab}`)} />
        <p role="alert">{t('manage.no_access')}</p>
      </div>
    );
  }

  return (
    <GridScreen<OrderRow>
      namespace="orders"
      prefix="manage"
      gridId="orders.board"
      endpoint={endpoint}
      useColumns={() => columns}
      title={t(`manage.titles.${tab}`)}
      className="order-board"
      gridClassName="order-grid"
      grid={grid}
      tabs={{
        label: t('manage.tabs_label'),
        current: tab,
        items: ORDER_TABS.map((name) => ({
          id: name,
          label: t(`tabs.${name}`),
          count: counts.data?.tabs[name],
          to: `/orders/manage/${name}`,
        })),
      }}
      filters={
        <>
          {filters.map((props) => (
            <FilterSelect key={props.label} {...props} />
          ))}
          <label htmlFor={ids.from} className="order-date-label">
            {t('manage.paid_from')}
          </label>
          <input
            id={ids.from}
            type="date"
            className="input"
            value={paidFrom}
            onChange={(e) => setPaidFrom(e.target.value)}
          />
          <label htmlFor={ids.to} className="order-date-label">
            {t('manage.paid_to')}
          </label>
          <input
            id={ids.to}
            type="date"
            className="input"
            value={paidTo}
            onChange={(e) => setPaidTo(e.target.value)}
          />
        </>
      }
      selection={{
        label: t('manage.bulk_label'),
        count: (count) => t('manage.selected', { count }),
        actions: (selected) => (
          <>
            {actions.map((action) => (
              <button
                key={action}
                type="button"
                className="button button-small"
                disabled={selected.length === 0 || run.isPending}
                onClick={() => start(action, selected)}
              >
                {t(`actions.${action}`)}
              </button>
            ))}
            <PrintActions orderIds={selected.map((row) => row.id)} origin={printOrigin(tab)} />
          </>
        ),
      }}
    >
      {open && (
        <OrderDrawer
          orderId={open}
          onClose={() => setOpen(null)}
          onAction={(action, order) => start(action, [order])}
        />
      )}
      {asking?.action === 'cancel' && (
        <CancelDialog
          orders={asking.orders}
          busy={run.isPending}
          error={run.error}
          onRun={execute}
          onClose={() => setAsking(null)}
        />
      )}
      {asking?.action === 'arrange_shipment' && (
        <ArrangeDialog
          orders={asking.orders}
          busy={run.isPending}
          error={run.error}
          onRun={execute}
          onClose={() => setAsking(null)}
        />
      )}
      {asking?.action === 'mark_printed' && (
        <MarkPrintedDialog
          orders={asking.orders}
          origin={printOrigin(tab)}
          busy={run.isPending}
          error={run.error}
          onRun={execute}
          onClose={() => setAsking(null)}
        />
      )}
      {asking?.action === 'assign' && (
        <AssignDialog
          orders={asking.orders}
          busy={run.isPending}
          error={run.error}
          onRun={execute}
          onClose={() => setAsking(null)}
        />
      )}
      {asking?.action === 'request_pickup' && (
        <PickupDialog
          orders={asking.orders}
          busy={run.isPending}
          error={run.error}
          onRun={execute}
          onClose={() => setAsking(null)}
        />
      )}
    </GridScreen>
  );
}
