import { ACTION_KEYS, type BoardAction } from '@domain/orders/board';
import { COUNTRY_CODE_LENGTH } from '@domain/orders/marketplace-order';
import { TEXT_LIMITS } from '@domain/shared/limits';
import {
  type AddressInput,
  type OrderDetail,
  type OrderLineDetail,
  useAddGift,
  useChangeAddress,
  useMapLine,
  useMasterCodeOptions,
  useOrder,
  useOrderOfLines,
  useRecordPacking,
  useRemoveLine,
} from '@web/api/orders';
import { useSession } from '@web/auth/session';
import { ModalDialog } from '@web/components/modal-dialog';
import { ReplayLink } from '@web/routes/audit/replay-link';
import { FormMessage, fieldErrorsOf, messageOf, TextAreaField, TextField } from '@web/shell/form';
import { dateTimeFormatter, useMoney } from '@web/shell/format';
import { useNotify } from '@web/shell/notifications';
import { Spinner } from '@web/shell/spinner';
import { type FormEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { paymentKey, timelineKey } from './order-words';
import { Flags } from './use-order-columns';

/**
 * One order beside the board (a drawer over the right edge): its facts and address, its lines with their racks, gift
 * marks, bin and serial numbers — a line whose item was not found is mapped to a master code here, an out-of-stock
 * line removed with the two choices of spec §4, a line's bin and serial numbers recorded —, the actions its status
 * allows, adding a free gift, splitting it, changing its shipping address, making a replacement order of it (and the
 * links between an original and its replacements), its picker, the step the marketplace refused, and its timeline.
 */

const when = (value: string | null, language: string) => dateTimeFormatter(language)(value) || '—';

export function OrderDrawer({
  orderId,
  onClose,
  onAction,
}: {
  orderId: string;
  onClose(): void;
  /** An action of the board on this order (the board runs it, with its dialogs). */
  onAction(action: BoardAction, order: OrderDetail): void;
}) {
  const { t, i18n } = useTranslation('orders');
  const { can } = useSession();
  const order = useOrder(orderId);
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [mapping, setMapping] = useState<OrderLineDetail | null>(null);
  const [removing, setRemoving] = useState<OrderLineDetail | null>(null);
  const [splitting, setSplitting] = useState<'split' | 'replacement' | null>(null);
  const [addressing, setAddressing] = useState(false);
  const [packing, setPacking] = useState<OrderLineDetail | null>(null);
  const [gifting, setGifting] = useState(false);
  const money = useMoney();

  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);

  const detail = order.data;
  const editable = detail
    ? ['unpaid', 'new', 'unscan', 'scanned', 'processed'].includes(detail.status)
    : false;
  // A mapping changes until the order is scanned: a line being picked cannot change what it is.
  const remappable = detail ? ['unpaid', 'new', 'unscan'].includes(detail.status) : false;
  const manage = can('orders-new-order');
  const activeLines = detail?.lines.filter((line) => !line.removed).length ?? 0;

  return (
    <dialog
      ref={ref}
      className="order-drawer"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <div className="order-drawer-header">
        <h2 id={titleId} className="modal-title">
          {detail ? t('detail.title', { number: detail.order_number }) : t('detail.loading')}
        </h2>
        <button type="button" className="modal-close" aria-label={t('actions_ui.close')} onClick={onClose}>
          ×
        </button>
      </div>
      {!detail ? (
        order.error ? (
          <FormMessage kind="error">{messageOf(order.error)}</FormMessage>
        ) : (
          <Spinner label={t('detail.loading')} />
        )
      ) : (
        <div className="order-drawer-body">
          <div className="order-drawer-status">
            <span className="badge" data-testid="order-status">
              {t(`statuses.${detail.status}`)}
            </span>
            <Flags row={detail} />
          </div>

          <div className="order-drawer-actions" role="toolbar" aria-label={t('detail.actions')}>
            {detail.actions
              .filter(
                (action) =>
                  can(ACTION_KEYS[action]) &&
                  !(action === 'set_preview' && detail.preview) &&
                  !(action === 'clear_preview' && !detail.preview),
              )
              .map((action) => (
                <button
                  key={action}
                  type="button"
                  className="button button-small"
                  onClick={() => onAction(action, detail)}
                >
                  {t(`actions.${action}`)}
                </button>
              ))}
            {manage && editable && (
              <>
                <button type="button" className="button button-small" onClick={() => setAddressing(true)}>
                  {t('detail.change_address')}
                </button>
                {['unpaid', 'new', 'unscan'].includes(detail.status) && detail.item_count > 1 && (
                  <button type="button" className="button button-small" onClick={() => setSplitting('split')}>
                    {t('detail.split')}
                  </button>
                )}
                {remappable && (
                  <button type="button" className="button button-small" onClick={() => setGifting(true)}>
                    {t('detail.add_gift')}
                  </button>
                )}
              </>
            )}
            {manage && ['shipped', 'delivered', 'returned'].includes(detail.status) && (
              <button
                type="button"
                className="button button-small"
                onClick={() => setSplitting('replacement')}
              >
                {t('detail.make_replacement')}
              </button>
            )}
          </div>

          {detail.process_failure && (
            <FormMessage kind="error">
              {t('detail.process_failed', {
                step: t(`process_steps.${detail.process_failure.step}`),
                reason: detail.process_failure.reason,
              })}
            </FormMessage>
          )}

          <dl className="order-facts">
            <dt>{t('columns.store')}</dt>
            <dd>
              {detail.store_name ?? detail.store_id} · {t(`platforms.${detail.platform}`, detail.platform)}
            </dd>
            <dt>{t('columns.marketplace_status')}</dt>
            <dd>{t(`marketplace_statuses.${detail.marketplace_status}`, detail.marketplace_status)}</dd>
            <dt>{t('columns.payment')}</dt>
            <dd>
              {t(paymentKey(detail))} · {detail.payment_method}
            </dd>
            <dt>{t('columns.total')}</dt>
            <dd>
              {detail.currency} {money(detail.total_amount)}
            </dd>
            <dt>{t('columns.ordered_at')}</dt>
            <dd>{when(detail.ordered_at, i18n.language)}</dd>
            <dt>{t('columns.paid_at')}</dt>
            <dd>{when(detail.paid_at, i18n.language)}</dd>
            <dt>{t('columns.tracking_number')}</dt>
            <dd data-testid="order-tracking">{detail.tracking_number ?? '—'}</dd>
            <dt>{t('columns.shipping_provider')}</dt>
            <dd>{detail.shipping_provider ?? '—'}</dd>
            <dt>{t('columns.scanned')}</dt>
            <dd>
              {detail.scanned_at
                ? `${when(detail.scanned_at, i18n.language)}${detail.scanned_by?.name ? ` · ${detail.scanned_by.name}` : ''}`
                : '—'}
            </dd>
            <dt>{t('detail.picker')}</dt>
            <dd data-testid="order-picker">{detail.picker?.name ?? t('detail.no_picker')}</dd>
            {detail.replaces && (
              <>
                <dt>{t('filters.replacement')}</dt>
                <dd data-testid="order-replaces">
                  {t('detail.replaces', { number: detail.replaces.order_number ?? detail.replaces.id })}
                </dd>
              </>
            )}
            {detail.replacements.length > 0 && (
              <>
                <dt>{t('detail.replacements')}</dt>
                <dd data-testid="order-replacements">
                  {detail.replacements.map((replacement) => replacement.order_number).join(', ')}
                </dd>
              </>
            )}
            <dt>{t('detail.ship_to')}</dt>
            <dd data-testid="order-address">
              {detail.address.name}, {detail.address.phone}
              <br />
              {detail.address.fullAddress}
            </dd>
            <dt>{t('detail.first_name')}</dt>
            <dd data-testid="order-first-name">{detail.first_name || '—'}</dd>
            <dt>{t('detail.last_name')}</dt>
            <dd data-testid="order-last-name">{detail.last_name || '—'}</dd>
            {detail.buyer_remark && (
              <>
                <dt>{t('detail.buyer_remark')}</dt>
                <dd>{detail.buyer_remark}</dd>
              </>
            )}
            {detail.seller_remark && (
              <>
                <dt>{t('detail.seller_remark')}</dt>
                <dd data-testid="order-seller-remark">{detail.seller_remark}</dd>
              </>
            )}
            {detail.fulfilment_type && (
              <>
                <dt>{t('detail.fulfilment_type')}</dt>
                <dd>{t(`fulfilment_types.${detail.fulfilment_type}`, detail.fulfilment_type)}</dd>
              </>
            )}
            {detail.package_numbers.length > 0 && (
              <>
                <dt>{t('detail.packages', { count: detail.package_numbers.length })}</dt>
                <dd data-testid="order-packages">{detail.package_numbers.join(', ')}</dd>
              </>
            )}
          </dl>

          <h3 className="order-section-title">{t('detail.lines')}</h3>
          <table className="order-table" aria-label={t('detail.lines')}>
            <thead>
              <tr>
                <th>{t('detail.item')}</th>
                <th>{t('detail.seller_sku')}</th>
                <th>{t('detail.master_code')}</th>
                <th>{t('detail.rack')}</th>
                <th className="number">{t('detail.quantity')}</th>
                <th className="number">{t('detail.unit_price')}</th>
                <th>
                  <span className="visually-hidden">{t('detail.line_actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {detail.lines.map((line) => (
                <tr key={line.line_id} className={line.removed ? 'order-line-removed' : undefined}>
                  <td>
                    {line.name}
                    {line.variation ? <span className="muted"> · {line.variation}</span> : null}
                    {line.removed && <span className="badge badge-muted">{t('detail.removed')}</span>}
                    {line.out_of_stock && !line.removed && (
                      <span className="badge order-badge-danger">{t('flags.out_of_stock')}</span>
                    )}
                    {line.gift && (
                      <span className="badge" data-testid="line-gift">
                        {t('detail.gift')}
                      </span>
                    )}
                    {line.bin_number && (
                      <div className="muted" data-testid="line-bin">
                        {t('detail.bin_number')}: {line.bin_number}
                      </div>
                    )}
                    {line.serial_numbers.length > 0 && (
                      <div className="muted" data-testid="line-serials">
                        {t('detail.serial_numbers')}: {line.serial_numbers.join(', ')}
                      </div>
                    )}
                  </td>
                  <td>{line.seller_sku}</td>
                  <td>
                    {line.master_code ? (
                      `${line.master_code.code ?? line.master_code.id}${line.master_code.type === 'combo' ? ` (${t('detail.combo')})` : ''}`
                    ) : (
                      <span className="badge badge-warning">{t('flags.item_not_found')}</span>
                    )}
                  </td>
                  <td data-testid="line-racks">{line.rack_locations.join(', ') || '—'}</td>
                  <td className="number">{line.quantity}</td>
                  <td className="number">{money(line.unit_price)}</td>
                  <td className="order-line-actions">
                    {manage && editable && !line.removed && line.item_not_found && (
                      <button type="button" className="button button-small" onClick={() => setMapping(line)}>
                        {t('detail.map')}
                      </button>
                    )}
                    {manage && remappable && !line.removed && !line.item_not_found && (
                      <button type="button" className="button button-small" onClick={() => setMapping(line)}>
                        {t('detail.remap')}
                      </button>
                    )}
                    {manage && editable && !line.removed && (
                      <button type="button" className="button button-small" onClick={() => setPacking(line)}>
                        {t('detail.packing')}
                      </button>
                    )}
                    {manage && editable && !line.removed && activeLines > 1 && (
                      <button type="button" className="button button-small" onClick={() => setRemoving(line)}>
                        {t('detail.remove')}
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>

          <h3 className="order-section-title">{t('detail.timeline')}</h3>
          <ReplayLink kind="order" id={orderId} />
          <ol className="order-timeline" aria-label={t('detail.timeline')}>
            {detail.timeline.map((entry, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a timeline only grows at its end; its entries never move
              <li key={index}>
                <strong>{t(timelineKey(entry), entry.type)}</strong>
                <span className="muted">
                  {' '}
                  {when(entry.at, i18n.language)}
                  {entry.user?.name ? ` · ${entry.user.name}` : ''}
                </span>
              </li>
            ))}
          </ol>
        </div>
      )}
      {detail && mapping && <MapLineDialog order={detail} line={mapping} onClose={() => setMapping(null)} />}
      {detail && removing && (
        <RemoveLineDialog order={detail} line={removing} onClose={() => setRemoving(null)} />
      )}
      {detail && splitting && (
        <LinesDialog order={detail} kind={splitting} onClose={() => setSplitting(null)} />
      )}
      {detail && addressing && <AddressDialog order={detail} onClose={() => setAddressing(false)} />}
      {detail && packing && <PackingDialog order={detail} line={packing} onClose={() => setPacking(null)} />}
      {detail && gifting && <GiftDialog order={detail} onClose={() => setGifting(false)} />}
    </dialog>
  );
}

/** What a dialog about one line of the order is given. */
interface LineDialogProps {
  order: OrderDetail;
  line: OrderLineDetail;
  onClose(): void;
}

function MapLineDialog({ order, line, onClose }: LineDialogProps) {
  const { t } = useTranslation('orders');
  const map = useMapLine();
  const run = useChangeThenClose(onClose);
  const choose = (masterCodeId: string) =>
    run(map.mutateAsync({ id: order.id, lineId: line.line_id, masterCodeId }));
  return (
    <ModalDialog
      title={t('map.title', { item: line.name })}
      onClose={onClose}
      closeLabel={t('actions_ui.close')}
    >
      <div className="form">
        {map.error ? <FormMessage kind="error">{messageOf(map.error)}</FormMessage> : null}
        <MasterCodeChoices initialSearch={line.seller_sku} disabled={map.isPending} onChoose={choose} />
      </div>
    </ModalDialog>
  );
}

function RemoveLineDialog({ order, line, onClose }: LineDialogProps) {
  const { t } = useTranslation('orders');
  const notify = useNotify();
  const remove = useRemoveLine();
  const run = async (mark: 'out_of_stock' | 'stockable') => {
    try {
      const answer = await remove.mutateAsync({ id: order.id, lineId: line.line_id, mark });
      notify({ kind: 'success', message: answer.msg });
      onClose();
    } catch {
      // Shown in the dialog.
    }
  };
  return (
    <ModalDialog
      title={t('remove.title', { item: line.name })}
      onClose={onClose}
      closeLabel={t('actions_ui.close')}
      size="small"
      footer={
        <>
          <button
            type="button"
            className="button"
            disabled={remove.isPending}
            onClick={() => run('stockable')}
          >
            {t('remove.stockable')}
          </button>
          <button
            type="button"
            className="button button-danger"
            disabled={remove.isPending}
            onClick={() => run('out_of_stock')}
          >
            {t('remove.out_of_stock')}
          </button>
        </>
      }
    >
      {remove.error ? <FormMessage kind="error">{messageOf(remove.error)}</FormMessage> : null}
      <p>{t('remove.intro')}</p>
    </ModalDialog>
  );
}

/** Some of the order's lines to a new order: split off it, or sent again as a replacement order. */
function LinesDialog({
  order,
  kind,
  onClose,
}: {
  order: OrderDetail;
  kind: 'split' | 'replacement';
  onClose(): void;
}) {
  const { t } = useTranslation('orders');
  const make = useOrderOfLines(kind);
  const lines = order.lines.filter((line) => !line.removed);
  const [quantities, setQuantities] = useState<Record<string, string>>(
    Object.fromEntries(lines.map((line) => [line.line_id, '0'])),
  );
  return (
    <FormDialog
      title={t(`${kind}.title`, { number: order.order_number })}
      formId="order-lines-form"
      submitLabel={t(`${kind}.submit`)}
      mutation={make}
      onClose={onClose}
      onSubmit={() =>
        make.mutateAsync({
          id: order.id,
          lines: lines.map((line) => ({
            line_id: line.line_id,
            quantity: Number(quantities[line.line_id] || 0),
          })),
        })
      }
    >
      <p>{t(`${kind}.intro`)}</p>
      {lines.map((line) => (
        <TextField
          key={line.line_id}
          label={t(`${kind}.quantity_of`, { item: line.name, max: line.quantity })}
          type="number"
          min={0}
          max={line.quantity}
          value={quantities[line.line_id] ?? '0'}
          onChange={(event) =>
            setQuantities((current) => ({ ...current, [line.line_id]: event.target.value }))
          }
        />
      ))}
    </FormDialog>
  );
}

function AddressDialog({ order, onClose }: { order: OrderDetail; onClose(): void }) {
  const { t } = useTranslation('orders');
  const change = useChangeAddress();
  const [address, setAddress] = useState<AddressInput>({
    name: order.address.name,
    phone: order.address.phone,
    full_address: order.address.fullAddress,
    city: order.address.city,
    state: order.address.state,
    postal_code: order.address.postalCode,
    country: order.address.country,
  });
  const fields = fieldErrorsOf(change.error);
  const field = (name: keyof AddressInput, max: number, required = true) => (
    <TextField
      label={t(`address.${name}`)}
      value={address[name]}
      required={required}
      limit={max}
      error={fields[name]}
      onChange={(event) => setAddress((current) => ({ ...current, [name]: event.target.value }))}
    />
  );
  return (
    <FormDialog
      title={t('address.title')}
      formId="order-address-form"
      submitLabel={t('address.submit')}
      mutation={change}
      onClose={onClose}
      onSubmit={() => change.mutateAsync({ id: order.id, address })}
    >
      {field('name', TEXT_LIMITS.name)}
      {field('phone', TEXT_LIMITS.phone)}
      {field('full_address', TEXT_LIMITS.address)}
      {field('city', TEXT_LIMITS.name)}
      {field('state', TEXT_LIMITS.name, false)}
      {field('postal_code', TEXT_LIMITS.code)}
      {field('country', COUNTRY_CODE_LENGTH)}
    </FormDialog>
  );
}

/** A line's bin number and serial numbers (one a line), as the packer records them. */
function PackingDialog({ order, line, onClose }: LineDialogProps) {
  const { t } = useTranslation('orders');
  const record = useRecordPacking();
  const [binNumber, setBinNumber] = useState(line.bin_number ?? '');
  const [serials, setSerials] = useState(line.serial_numbers.join('\n'));
  const fields = fieldErrorsOf(record.error);
  return (
    <FormDialog
      title={t('packing.title', { item: line.name })}
      formId="order-packing-form"
      submitLabel={t('packing.submit')}
      mutation={record}
      onClose={onClose}
      onSubmit={() =>
        record.mutateAsync({
          id: order.id,
          lineId: line.line_id,
          binNumber,
          serialNumbers: serials
            .split(/\r?\n/)
            .map((serial) => serial.trim())
            .filter(Boolean),
        })
      }
    >
      <TextField
        label={t('detail.bin_number')}
        value={binNumber}
        limit={TEXT_LIMITS.code}
        error={fields.bin_number}
        onChange={(event) => setBinNumber(event.target.value)}
      />
      <TextAreaField
        label={t('detail.serial_numbers')}
        hint={t('packing.serials_hint', { max: line.quantity })}
        value={serials}
        rows={Math.min(8, Math.max(2, line.quantity))}
        error={fields.serial_numbers}
        onChange={(event) => setSerials(event.target.value)}
      />
    </FormDialog>
  );
}

/**
 * A dialog around one form of the drawer: the change's refusal shown in it, a close and a submit button; a change
 * made is told and closes it.
 */
function FormDialog({
  title,
  formId,
  submitLabel,
  mutation,
  onClose,
  onSubmit,
  children,
}: {
  title: string;
  formId: string;
  submitLabel: string;
  mutation: { isPending: boolean; error: unknown };
  onClose(): void;
  onSubmit(): Promise<{ msg: string }>;
  children: ReactNode;
}) {
  const { t } = useTranslation('orders');
  const run = useChangeThenClose(onClose);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(onSubmit());
  };
  return (
    <ModalDialog
      title={title}
      onClose={onClose}
      closeLabel={t('actions_ui.close')}
      footer={
        <>
          <button type="button" className="button button-secondary" onClick={onClose}>
            {t('actions_ui.close')}
          </button>
          <button type="submit" form={formId} className="button button-primary" disabled={mutation.isPending}>
            {submitLabel}
          </button>
        </>
      }
    >
      <form id={formId} className="form" onSubmit={submit}>
        {mutation.error ? <FormMessage kind="error">{messageOf(mutation.error)}</FormMessage> : null}
        {children}
      </form>
    </ModalDialog>
  );
}

/** A free gift by hand: a master code and how many, at price 0. */
function GiftDialog({ order, onClose }: { order: OrderDetail; onClose(): void }) {
  const { t } = useTranslation('orders');
  const [quantity, setQuantity] = useState('1');
  const add = useAddGift();
  const run = useChangeThenClose(onClose);
  const choose = (masterCodeId: string) =>
    run(add.mutateAsync({ id: order.id, masterCodeId, quantity: Number(quantity) }));
  return (
    <ModalDialog title={t('gift.title')} onClose={onClose} closeLabel={t('actions_ui.close')}>
      <div className="form">
        {add.error ? <FormMessage kind="error">{messageOf(add.error)}</FormMessage> : null}
        <TextField
          label={t('gift.quantity')}
          type="number"
          min={1}
          max={100_000}
          value={quantity}
          onChange={(event) => setQuantity(event.target.value)}
        />
        <MasterCodeChoices initialSearch="" disabled={add.isPending} onChoose={choose} />
      </div>
    </ModalDialog>
  );
}

/** The account's master codes matching a search, each a button that chooses it (mapping a line, adding a gift). */
function MasterCodeChoices({
  initialSearch,
  disabled,
  onChoose,
}: {
  initialSearch: string;
  disabled: boolean;
  onChoose(masterCodeId: string): void;
}) {
  const { t } = useTranslation('orders');
  const [search, setSearch] = useState(initialSearch);
  const options = useMasterCodeOptions(search.trim());
  return (
    <>
      <TextField
        label={t('map.search')}
        type="search"
        value={search}
        onChange={(event) => setSearch(event.target.value)}
      />
      <ul className="order-picker" aria-label={t('map.results')}>
        {(options.data ?? []).map((option) => (
          <li key={option.id}>
            <button
              type="button"
              className="button button-small"
              disabled={disabled}
              onClick={() => onChoose(option.id)}
            >
              {option.code} · {option.name}
              {option.type === 'combo' ? ` (${t('detail.combo')})` : ''}
            </button>
          </li>
        ))}
        {options.data?.length === 0 && <li className="muted">{t('map.none')}</li>}
      </ul>
    </>
  );
}

/** Runs a change of the order: its message told and the dialog closed when made; a refusal stays shown in it. */
function useChangeThenClose(onClose: () => void) {
  const notify = useNotify();
  return async (change: Promise<{ msg: string }>) => {
    try {
      notify({ kind: 'success', message: (await change).msg });
      onClose();
    } catch {
      // Shown in the dialog.
    }
  };
}
