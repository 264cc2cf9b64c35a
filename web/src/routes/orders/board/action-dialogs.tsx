import { TEXT_LIMITS } from '@domain/shared/limits';
import { usePickers } from '@web/api/batches';
import { type ActionBody, useShippingOptions } from '@web/api/orders';
import { PRINT_DOCUMENTS, type PrintDocument, type PrintOrigin } from '@web/api/printing';
import { ModalDialog } from '@web/components/modal-dialog';
import { FormMessage, fieldErrorsOf, messageOf, SelectField, TextField } from '@web/shell/form';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The actions that ask for more than a click (spec §4, §9): cancel (a reason), arrange or re-arrange shipment (a
 * tracking number and provider for each order), request pickup (provider, pickup address, day and time). An order
 * of a connected marketplace store gets its tracking number from the marketplace (GET /api/orders/shipping says
 * which): its tracking number may stay empty, and a pickup picks one of the shop's pickup addresses. Assign picker
 * gives the orders to a picker (or takes them back).
 */

interface Target {
  id: string;
  order_number: string;
  tracking_number: string | null;
  shipping_provider: string | null;
}

interface DialogProps {
  orders: Target[];
  busy: boolean;
  error: unknown;
  onRun(body: ActionBody): void;
  onClose(): void;
}

function Footer({ busy, submit, onClose }: { busy: boolean; submit: string; onClose(): void }) {
  const { t } = useTranslation('orders');
  return (
    <>
      <button type="button" className="button button-secondary" onClick={onClose} disabled={busy}>
        {t('actions_ui.close')}
      </button>
      <button type="submit" className="button button-primary" form="order-action-form" disabled={busy}>
        {submit}
      </button>
    </>
  );
}

const MARKETPLACE_REASONS = ['out_of_stock', 'undeliverable_area', 'cod_not_supported'] as const;
type MarketplaceReason = (typeof MARKETPLACE_REASONS)[number];

export function CancelDialog({ orders, busy, error, onRun, onClose }: DialogProps) {
  const { t } = useTranslation('orders');
  const [reason, setReason] = useState('');
  const [marketplaceReason, setMarketplaceReason] = useState<MarketplaceReason>('out_of_stock');
  // Orders of a connected marketplace store are cancelled there too, with one of its reasons.
  const shipping = useShippingOptions(orders.map((order) => order.id));
  const byMarketplace = (shipping.data?.orders ?? []).some((entry) => entry.marketplace);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onRun({
      action: 'cancel',
      order_ids: orders.map((o) => o.id),
      ...(reason.trim() ? { reason } : {}),
      marketplace_reason: marketplaceReason,
    });
  };
  return (
    <ModalDialog
      title={t('cancel.title', { count: orders.length })}
      onClose={onClose}
      closeLabel={t('actions_ui.close')}
      footer={<Footer busy={busy} submit={t('cancel.submit')} onClose={onClose} />}
    >
      <form id="order-action-form" className="form" onSubmit={submit}>
        {error ? <FormMessage kind="error">{messageOf(error)}</FormMessage> : null}
        <p>{t('cancel.intro')}</p>
        <TextField
          label={t('cancel.reason')}
          value={reason}
          limit={TEXT_LIMITS.reason}
          onChange={(event) => setReason(event.target.value)}
        />
        {byMarketplace && (
          <SelectField
            label={t('cancel.marketplace_reason')}
            value={marketplaceReason}
            hint={t('cancel.marketplace_hint')}
            options={MARKETPLACE_REASONS.map((value) => ({
              value,
              label: t(`cancel.marketplace_reasons.${value}`),
            }))}
            onChange={(event) => setMarketplaceReason(event.target.value as MarketplaceReason)}
          />
        )}
      </form>
    </ModalDialog>
  );
}

export function ArrangeDialog({ orders, busy, error, onRun, onClose }: DialogProps) {
  const { t } = useTranslation('orders');
  const [rows, setRows] = useState(() =>
    orders.map((order) => ({
      order_id: order.id,
      order_number: order.order_number,
      tracking_number: order.tracking_number ?? '',
      shipping_provider: order.shipping_provider ?? '',
    })),
  );
  const fields = fieldErrorsOf(error);
  const shipping = useShippingOptions(orders.map((order) => order.id));
  const byMarketplace = new Set(
    (shipping.data?.orders ?? []).filter((entry) => entry.marketplace).map((entry) => entry.order_id),
  );
  const set = (index: number, change: Partial<(typeof rows)[number]>) =>
    setRows((current) => current.map((row, i) => (i === index ? { ...row, ...change } : row)));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onRun({
      action: 'arrange_shipment',
      shipments: rows.map(({ order_id, tracking_number, shipping_provider }) => ({
        order_id,
        tracking_number,
        shipping_provider,
      })),
    });
  };
  return (
    <ModalDialog
      title={t('arrange.title', { count: orders.length })}
      onClose={onClose}
      closeLabel={t('actions_ui.close')}
      size="large"
      footer={<Footer busy={busy} submit={t('arrange.submit')} onClose={onClose} />}
    >
      <form id="order-action-form" className="form" onSubmit={submit}>
        {error ? <FormMessage kind="error">{messageOf(error)}</FormMessage> : null}
        {rows.map((row, index) => (
          <fieldset key={row.order_id} className="order-arrange-row">
            <legend>{row.order_number}</legend>
            <TextField
              label={t('arrange.tracking_number')}
              value={row.tracking_number}
              required={!byMarketplace.has(row.order_id)}
              hint={byMarketplace.has(row.order_id) ? t('arrange.marketplace_hint') : undefined}
              limit={TEXT_LIMITS.reference}
              error={fields.tracking_number}
              onChange={(event) => set(index, { tracking_number: event.target.value })}
            />
            <TextField
              label={t('arrange.shipping_provider')}
              value={row.shipping_provider}
              limit={TEXT_LIMITS.name}
              onChange={(event) => set(index, { shipping_provider: event.target.value })}
            />
          </fieldset>
        ))}
      </form>
    </ModalDialog>
  );
}

const DAYS = ['today', 'after_1_day', 'after_2_days'] as const;
const TIMES = ['none', 'earliest', 'latest'] as const;

export function PickupDialog({ orders, busy, error, onRun, onClose }: DialogProps) {
  const { t } = useTranslation('orders');
  const [provider, setProvider] = useState(orders[0]?.shipping_provider ?? '');
  const [address, setAddress] = useState('');
  const [day, setDay] = useState<(typeof DAYS)[number]>('today');
  const [time, setTime] = useState<(typeof TIMES)[number]>('none');
  // The marketplace's pickup addresses, when it arranges these orders: one is picked instead of typed.
  const shipping = useShippingOptions(orders.map((order) => order.id));
  const offered = shipping.data?.pickup_addresses ?? [];
  const [addressId, setAddressId] = useState<number | null>(null);
  const chosen = offered.find((entry) => entry.id === addressId) ?? offered.find((entry) => entry.is_default);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onRun({
      action: 'request_pickup',
      order_ids: orders.map((o) => o.id),
      provider,
      ...(chosen
        ? { pickup_address: chosen.address, pickup_address_id: chosen.id }
        : { pickup_address: address }),
      pickup_day: day,
      pickup_time: time,
    });
  };
  return (
    <ModalDialog
      title={t('pickup.title', { count: orders.length })}
      onClose={onClose}
      closeLabel={t('actions_ui.close')}
      footer={<Footer busy={busy} submit={t('pickup.submit')} onClose={onClose} />}
    >
      <form id="order-action-form" className="form" onSubmit={submit}>
        {error ? <FormMessage kind="error">{messageOf(error)}</FormMessage> : null}
        <TextField
          label={t('pickup.provider')}
          value={provider}
          required
          limit={TEXT_LIMITS.name}
          onChange={(event) => setProvider(event.target.value)}
        />
        {offered.length > 0 ? (
          <SelectField
            label={t('pickup.address')}
            value={String(chosen?.id ?? '')}
            required
            hint={t('pickup.marketplace_hint')}
            options={offered.map((entry) => ({ value: String(entry.id), label: entry.address }))}
            onChange={(event) => setAddressId(Number(event.target.value))}
          />
        ) : (
          <TextField
            label={t('pickup.address')}
            value={address}
            required
            limit={TEXT_LIMITS.address}
            onChange={(event) => setAddress(event.target.value)}
          />
        )}
        <SelectField
          label={t('pickup.day')}
          value={day}
          options={DAYS.map((value) => ({ value, label: t(`pickup.days.${value}`) }))}
          onChange={(event) => setDay(event.target.value as (typeof DAYS)[number])}
        />
        <SelectField
          label={t('pickup.time')}
          value={time}
          options={TIMES.map((value) => ({ value, label: t(`pickup.times.${value}`) }))}
          onChange={(event) => setTime(event.target.value as (typeof TIMES)[number])}
        />
      </form>
    </ModalDialog>
  );
}

export function MarkPrintedDialog({
  orders,
  origin,
  busy,
  error,
  onRun,
  onClose,
}: DialogProps & { origin: PrintOrigin }) {
  const { t } = useTranslation(['orders', 'printing']);
  const [document, setDocument] = useState<PrintDocument>('AWB');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onRun({ action: 'mark_printed', order_ids: orders.map((o) => o.id), document, origin });
  };
  return (
    <ModalDialog
      title={t('mark_printed.title', { count: orders.length })}
      onClose={onClose}
      closeLabel={t('actions_ui.close')}
      footer={<Footer busy={busy} submit={t('mark_printed.submit')} onClose={onClose} />}
    >
      <form id="order-action-form" className="form" onSubmit={submit}>
        {error ? <FormMessage kind="error">{messageOf(error)}</FormMessage> : null}
        <p>{t('mark_printed.intro')}</p>
        <SelectField
          label={t('mark_printed.document')}
          value={document}
          options={PRINT_DOCUMENTS.map((value) => ({ value, label: t(`printing:documents.${value}`) }))}
          onChange={(event) => setDocument(event.target.value as PrintDocument)}
        />
      </form>
    </ModalDialog>
  );
}

/** "Assign picker" (spec §4 "waiting assign"): an active user of the account, or nobody. */
export function AssignDialog({ orders, busy, error, onRun, onClose }: DialogProps) {
  const { t } = useTranslation('orders');
  const pickers = usePickers();
  const [pickerId, setPickerId] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onRun({ action: 'assign', order_ids: orders.map((o) => o.id), picker_id: pickerId || null });
  };
  return (
    <ModalDialog
      title={t('assign.title', { count: orders.length })}
      onClose={onClose}
      closeLabel={t('actions_ui.close')}
      footer={<Footer busy={busy} submit={t('assign.submit')} onClose={onClose} />}
    >
      <form id="order-action-form" className="form" onSubmit={submit}>
        {error ? <FormMessage kind="error">{messageOf(error)}</FormMessage> : null}
        <SelectField
          label={t('assign.picker')}
          value={pickerId}
          options={[
            { value: '', label: t('assign.nobody') },
            ...(pickers.data ?? []).map((picker) => ({ value: picker.id, label: picker.name })),
          ]}
          onChange={(event) => setPickerId(event.target.value)}
        />
      </form>
    </ModalDialog>
  );
}
