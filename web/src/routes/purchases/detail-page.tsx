import { TEXT_LIMITS } from '@domain/shared/limits';
import { AVERAGE_COSTS_VIEW, GOODS_RECEIPTS_VIEW, PURCHASES_VIEW } from '@domain/shared/live-views';
import { useLiveRecord, useLiveView } from '@web/api/live';
import {
  downloadPurchasePdf,
  type PurchaseAction,
  type PurchaseDetail,
  usePurchase,
  usePurchaseAction,
} from '@web/api/purchases';
import { ModalDialog } from '@web/components/modal-dialog';
import { ReasonDialog } from '@web/components/reason-dialog';
import { RecordScreen } from '@web/components/record-screen';
import { FormMessage, messageOf, TextField } from '@web/shell/form';
import { useDate, useDateTime, useMoney } from '@web/shell/format';
import { useNotify } from '@web/shell/notifications';
import { PageHeader } from '@web/shell/page';
import { type FormEvent, useCallback, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { GrnStatusBadge, PurchaseStatusBadge, Timeline } from './parts';
import { ReceiptForm } from './receipt-form';
import '@web/routes/management.css';
import { ReplayLink } from '@web/routes/audit/replay-link';

/**
 * One purchase order: its status, the actions the user may take now (the API says which: place a draft, approve or
 * reject one pending approval — never its creator's own, unless the owner —, receive through a goods receive note,
 * cancel before anything arrived, void, return received goods), the PDF, the supplier and warehouse, the lines with
 * what arrived and each master code's moving average cost, its goods receive notes and the timeline. It follows the
 * live views `purchases`, `goodsReceipts` and `averageCosts`: a note received in another tab shows without a reload.
 */

export default function PurchaseDetailPage() {
  const { id = '' } = useParams();
  const { t } = useTranslation('purchases');
  const purchase = usePurchase(id);
  const { refetch } = purchase;
  const follow = useCallback(
    (ids: string[], missed: boolean) => {
      if (missed || ids.length > 0) void refetch();
    },
    [refetch],
  );
  useLiveRecord(PURCHASES_VIEW, id, refetch);
  useLiveView(GOODS_RECEIPTS_VIEW, follow);
  // A receipt moves the lines' average costs a moment later, in their own projection.
  const codes = purchase.data?.lines.map((line) => line.master_code.id).join(',') ?? '';
  useLiveView(
    AVERAGE_COSTS_VIEW,
    useCallback(
      (ids: string[], missed: boolean) =>
        follow(
          ids.filter((changed) => codes.includes(changed)),
          missed,
        ),
      [follow, codes],
    ),
  );
  return (
    <RecordScreen
      query={purchase}
      loading={t('detail.loading')}
      back={{ to: '/purchases/list', label: t('detail.back') }}
    >
      {(data) => <PurchaseScreen purchase={data} />}
    </RecordScreen>
  );
}

type Dialog = null | 'reject' | 'cancel' | 'void' | 'return' | 'receive';

function PurchaseScreen({ purchase }: { purchase: PurchaseDetail }) {
  const { t, i18n } = useTranslation('purchases');
  const notify = useNotify();
  const navigate = useNavigate();
  const when = useDateTime();
  const day = useDate();
  const money = useMoney();
  const act = usePurchaseAction();
  const [dialog, setDialog] = useState<Dialog>(null);
  const [downloading, setDownloading] = useState(false);
  const number = new Intl.NumberFormat(i18n.language);
  const can = (action: PurchaseAction) => purchase.actions.includes(action);

  async function run(action: Exclude<PurchaseAction, 'receive'>, body?: unknown): Promise<boolean> {
    try {
      const answer = await act.mutateAsync({ id: purchase.id, action, body });
      notify({ kind: 'success', message: answer.msg });
      return true;
    } catch (error) {
      notify({ kind: 'error', message: messageOf(error) });
      return false;
    }
  }

  async function pdf() {
    setDownloading(true);
    try {
      await downloadPurchasePdf(purchase);
    } catch (error) {
      notify({ kind: 'error', message: messageOf(error) });
    } finally {
      setDownloading(false);
    }
  }

  const button = (action: Exclude<PurchaseAction, 'receive'>, primary = false) => (
    <button
      type="button"
      className={`button ${primary ? 'button-primary' : 'button-secondary'}`}
      disabled={act.isPending}
      onClick={() => (action === 'place' || action === 'approve' ? run(action) : setDialog(action))}
    >
      {t(`actions.${action}`)}
    </button>
  );

  return (
    <div className="page management-page purchase-page">
      <p>
        <Link to="/purchases/list">{t('detail.back')}</Link>
      </p>
      <PageHeader title={t('detail.title', { number: purchase.po_number })}>
        <PurchaseStatusBadge status={purchase.status} />
        <ReplayLink kind="purchase" id={purchase.id} />
      </PageHeader>

      <div className="purchase-actions">
        {can('place') && button('place', true)}
        {can('approve') && button('approve', true)}
        {can('reject') && button('reject')}
        {can('receive') && (
          <button type="button" className="button button-primary" onClick={() => setDialog('receive')}>
            {t('actions.receive')}
          </button>
        )}
        {can('return') && button('return')}
        {can('cancel') && button('cancel')}
        {can('void') && button('void')}
        <button type="button" className="button button-secondary" onClick={pdf} disabled={downloading}>
          {t('actions.pdf')}
        </button>
      </div>

      <div className="purchase-grid">
        <section className="card purchase-section" aria-labelledby="purchase-facts-title">
          <h2 id="purchase-facts-title">{t('detail.facts')}</h2>
          <dl className="purchase-facts">
            <dt>{t('detail.supplier')}</dt>
            <dd>{[purchase.supplier.name, purchase.supplier.company].filter(Boolean).join(' · ')}</dd>
            <dt>{t('detail.warehouse')}</dt>
            <dd>
              {purchase.warehouse.code} — {purchase.warehouse.name}
            </dd>
            <dt>{t('detail.date')}</dt>
            <dd>{day(purchase.date)}</dd>
            <dt>{t('detail.estimated_arrival')}</dt>
            <dd>{day(purchase.estimated_arrival) || '—'}</dd>
            <dt>{t('detail.reference')}</dt>
            <dd>{purchase.reference || '—'}</dd>
            <dt>{t('detail.created_by')}</dt>
            <dd>{purchase.created_by?.name ?? '—'}</dd>
            {purchase.reject_reason && (
              <>
                <dt>{t('detail.reject_reason')}</dt>
                <dd>{purchase.reject_reason}</dd>
              </>
            )}
            {purchase.note && (
              <>
                <dt>{t('detail.note')}</dt>
                <dd>{purchase.note}</dd>
              </>
            )}
          </dl>
        </section>
        <section className="card purchase-section" aria-labelledby="purchase-notes-title">
          <h2 id="purchase-notes-title">{t('detail.goods_receipts')}</h2>
          {purchase.goods_receipts.length === 0 && purchase.open_receipts.length === 0 ? (
            <p className="muted">{t('detail.no_goods_receipts')}</p>
          ) : (
            <ul>
              {purchase.goods_receipts.map((note) => (
                <li key={note.id}>
                  <Link to={`/inventory/goods-receive-notes/${note.id}`}>{note.grn_number}</Link>{' '}
                  <GrnStatusBadge status={note.status} />{' '}
                  <span className="muted">{when(note.created_at)}</span>
                </li>
              ))}
              {purchase.open_receipts
                .filter((open) => !purchase.goods_receipts.some((note) => note.id === open.id))
                .map((open) => (
                  <li key={open.id}>
                    <Link to={`/inventory/goods-receive-notes/${open.id}`}>{open.grn_number}</Link>
                  </li>
                ))}
            </ul>
          )}
        </section>
      </div>

      <section className="card purchase-section" aria-labelledby="purchase-lines-title">
        <h2 id="purchase-lines-title">{t('detail.lines')}</h2>
        <table className="purchase-table" aria-labelledby="purchase-lines-title">
          <thead>
            <tr>
              <th scope="col">{t('lines.item')}</th>
              <th scope="col" className="number">
                {t('lines.quantity')}
              </th>
              <th scope="col" className="number">
                {t('lines.unit_cost')}
              </th>
              <th scope="col" className="number">
                {t('lines.net_unit_cost')}
              </th>
              <th scope="col" className="number">
                {t('lines.received')}
              </th>
              <th scope="col" className="number">
                {t('lines.damaged')}
              </th>
              <th scope="col" className="number">
                {t('lines.returned_on_receipt')}
              </th>
              <th scope="col" className="number">
                {t('lines.returned')}
              </th>
              <th scope="col" className="number">
                {t('lines.outstanding')}
              </th>
              <th scope="col" className="number">
                {t('lines.average_cost')}
              </th>
            </tr>
          </thead>
          <tbody>
            {purchase.lines.map((line) => (
              <tr key={line.master_code.id} data-code={line.master_code.code ?? ''}>
                <td>
                  {line.master_code.code} — {line.master_code.name}
                </td>
                <td className="number">{number.format(line.quantity)}</td>
                <td className="number">{money(line.unit_cost)}</td>
                <td className="number">{money(line.net_unit_cost)}</td>
                <td className="number" data-field="received">
                  {number.format(line.received)}
                </td>
                <td className="number">{number.format(line.damaged)}</td>
                <td className="number">{number.format(line.returned_on_receipt)}</td>
                <td className="number">{number.format(line.returned)}</td>
                <td className="number" data-field="outstanding">
                  {number.format(line.outstanding)}
                </td>
                <td className="number" data-field="average_cost">
                  {line.average_cost === null ? '—' : money(line.average_cost)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <dl className="purchase-totals">
          <dt>{t('detail.subtotal')}</dt>
          <dd>{money(purchase.subtotal)}</dd>
          <dt>{t('detail.discount')}</dt>
          <dd>{money(purchase.discount)}</dd>
          <dt>{t('detail.total')}</dt>
          <dd>{money(purchase.total)}</dd>
        </dl>
      </section>

      <Timeline items={purchase.timeline} />

      {dialog === 'receive' && (
        <ReceiptForm
          purchase={purchase}
          onClose={() => setDialog(null)}
          onSaved={(note, msg) => {
            setDialog(null);
            notify({ kind: 'success', message: msg });
            navigate(`/inventory/goods-receive-notes/${note.id}`);
          }}
        />
      )}
      {(dialog === 'reject' || dialog === 'cancel' || dialog === 'void') && (
        <ReasonDialog
          title={t(`dialogs.${dialog}_title`, { number: purchase.po_number })}
          message={t(`dialogs.${dialog}_message`)}
          reasonLabel={t('dialogs.reason')}
          confirmLabel={t(`actions.${dialog}`)}
          closeLabel={t('actions.close')}
          busy={act.isPending}
          onClose={() => setDialog(null)}
          onConfirm={async (reason) => {
            if (await run(dialog, { reason })) setDialog(null);
          }}
        />
      )}
      {dialog === 'return' && (
        <ReturnDialog
          purchase={purchase}
          busy={act.isPending}
          onClose={() => setDialog(null)}
          onConfirm={async (items, reason) => {
            if (await run('return', { items, reason })) setDialog(null);
          }}
        />
      )}
    </div>
  );
}

function ReturnDialog({
  purchase,
  busy,
  onClose,
  onConfirm,
}: {
  purchase: PurchaseDetail;
  busy: boolean;
  onClose(): void;
  onConfirm(items: { master_code_id: string; quantity: number }[], reason: string): void;
}) {
  const { t } = useTranslation('purchases');
  const id = useId();
  const lines = purchase.lines.filter((line) => line.received - line.damaged - line.returned > 0);
  const [quantities, setQuantities] = useState<Record<string, string>>({});
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  return (
    <ModalDialog
      title={t('dialogs.return_title', { number: purchase.po_number })}
      onClose={onClose}
      footer={
        <>
          <button type="button" className="button button-secondary" onClick={onClose} disabled={busy}>
            {t('actions.close')}
          </button>
          <button type="submit" form={id} className="button button-danger" disabled={busy}>
            {t('actions.return')}
          </button>
        </>
      }
    >
      <form
        id={id}
        className="form"
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          const items = lines
            .map((line) => ({
              master_code_id: line.master_code.id,
              quantity: Number(quantities[line.master_code.id]) || 0,
            }))
            .filter((item) => item.quantity > 0);
          if (items.length === 0) return setError(t('dialogs.return_nothing'));
          onConfirm(items, reason.trim());
        }}
      >
        <p>{t('dialogs.return_message')}</p>
        {error && <FormMessage kind="error">{error}</FormMessage>}
        {lines.map((line) => (
          <TextField
            key={line.master_code.id}
            label={t('dialogs.return_quantity', {
              code: line.master_code.code ?? '',
              max: line.received - line.damaged - line.returned,
            })}
            type="number"
            min={0}
            max={line.received - line.damaged - line.returned}
            value={quantities[line.master_code.id] ?? ''}
            onChange={(event) =>
              setQuantities((current) => ({ ...current, [line.master_code.id]: event.target.value }))
            }
          />
        ))}
        <TextField
          label={t('dialogs.reason')}
          value={reason}
          limit={TEXT_LIMITS.reason}
          onChange={(event) => setReason(event.target.value)}
        />
      </form>
    </ModalDialog>
  );
}
