import { GOODS_RECEIPTS_VIEW } from '@domain/shared/live-views';
import { useLiveRecord } from '@web/api/live';
import {
  type GoodsReceiptAction,
  type GoodsReceiptDetail,
  useGoodsReceipt,
  useGoodsReceiptAction,
} from '@web/api/purchases';
import { ReasonDialog } from '@web/components/reason-dialog';
import { RecordScreen } from '@web/components/record-screen';
import { messageOf } from '@web/shell/form';
import { useMoney } from '@web/shell/format';
import { useNotify } from '@web/shell/notifications';
import { PageHeader } from '@web/shell/page';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { GrnStatusBadge, Timeline } from './parts';
import '@web/routes/management.css';
import { ReplayLink } from '@web/routes/audit/replay-link';

/**
 * One goods receive note: its status (1 Pending, 2 Complete, 3 Cancel, 4 Waiting Approve, 5 Waiting Receive,
 * 6 Reject), the actions the user may take now (approve or reject one waiting for approval — never the creator's
 * own, unless the owner —, receive one pending or approved: the stock moves then; cancel one not complete), its lines
 * and the timeline. It follows the live view `goodsReceipts`.
 */

export default function GoodsReceiptDetailPage() {
  const { id = '' } = useParams();
  const { t } = useTranslation('purchases');
  const note = useGoodsReceipt(id);
  useLiveRecord(GOODS_RECEIPTS_VIEW, id, note.refetch);
  return (
    <RecordScreen
      query={note}
      loading={t('detail.loading')}
      back={{ to: '/inventory/goods-receive-notes', label: t('grn.back') }}
    >
      {(data) => <NoteScreen note={data} />}
    </RecordScreen>
  );
}

function NoteScreen({ note }: { note: GoodsReceiptDetail }) {
  const { t, i18n } = useTranslation('purchases');
  const notify = useNotify();
  const money = useMoney();
  const act = useGoodsReceiptAction();
  const [asking, setAsking] = useState<'reject' | 'cancel' | null>(null);
  const number = new Intl.NumberFormat(i18n.language);

  async function run(action: GoodsReceiptAction, body?: unknown): Promise<boolean> {
    try {
      const answer = await act.mutateAsync({ id: note.id, action, body });
      notify({ kind: 'success', message: answer.msg });
      return true;
    } catch (error) {
      notify({ kind: 'error', message: messageOf(error) });
      return false;
    }
  }

  return (
    <div className="page management-page purchase-page">
      <p>
        <Link to="/inventory/goods-receive-notes">{t('grn.back')}</Link>
      </p>
      <PageHeader title={t('grn.title', { number: note.grn_number })}>
        <GrnStatusBadge status={note.status} />
        <ReplayLink kind="goods-receipt" id={note.id} />
      </PageHeader>
      <div className="purchase-actions">
        {note.actions.includes('approve') && (
          <button
            type="button"
            className="button button-primary"
            disabled={act.isPending}
            onClick={() => run('approve')}
          >
            {t('actions.approve')}
          </button>
        )}
        {note.actions.includes('receive') && (
          <button
            type="button"
            className="button button-primary"
            disabled={act.isPending}
            onClick={() => run('receive')}
          >
            {t('actions.receive_note')}
          </button>
        )}
        {note.actions.includes('reject') && (
          <button
            type="button"
            className="button button-secondary"
            disabled={act.isPending}
            onClick={() => setAsking('reject')}
          >
            {t('actions.reject')}
          </button>
        )}
        {note.actions.includes('cancel') && (
          <button
            type="button"
            className="button button-secondary"
            disabled={act.isPending}
            onClick={() => setAsking('cancel')}
          >
            {t('actions.cancel')}
          </button>
        )}
      </div>
      <section className="card purchase-section" aria-labelledby="grn-facts-title">
        <h2 id="grn-facts-title">{t('detail.facts')}</h2>
        <dl className="purchase-facts">
          <dt>{t('grn.purchase')}</dt>
          <dd>
            <Link to={`/purchases/detail/${note.purchase.id}`}>{note.purchase.po_number}</Link>
          </dd>
          <dt>{t('detail.supplier')}</dt>
          <dd>{note.supplier.name ?? '—'}</dd>
          <dt>{t('detail.warehouse')}</dt>
          <dd>
            {note.warehouse.code} — {note.warehouse.name}
          </dd>
          <dt>{t('detail.reference')}</dt>
          <dd>{note.reference || '—'}</dd>
          <dt>{t('detail.created_by')}</dt>
          <dd>{note.created_by?.name ?? '—'}</dd>
          <dt>{t('grn.approval')}</dt>
          <dd>
            {note.approval_required
              ? (note.approved_by?.name ?? t('grn.waiting_approval'))
              : t('grn.no_approval')}
          </dd>
          {note.reason && (
            <>
              <dt>{t('grn.reason')}</dt>
              <dd>{note.reason}</dd>
            </>
          )}
          {note.note && (
            <>
              <dt>{t('detail.note')}</dt>
              <dd>{note.note}</dd>
            </>
          )}
        </dl>
      </section>
      <section className="card purchase-section" aria-labelledby="grn-lines-title">
        <h2 id="grn-lines-title">{t('detail.lines')}</h2>
        <table className="purchase-table" aria-labelledby="grn-lines-title">
          <thead>
            <tr>
              <th scope="col">{t('lines.item')}</th>
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
                {t('lines.net_unit_cost')}
              </th>
            </tr>
          </thead>
          <tbody>
            {note.lines.map((line) => (
              <tr key={line.master_code.id}>
                <td>
                  {line.master_code.code} — {line.master_code.name}
                </td>
                <td className="number">{number.format(line.received)}</td>
                <td className="number">{number.format(line.damaged)}</td>
                <td className="number">{number.format(line.returned)}</td>
                <td className="number">{line.unit_cost === null ? '—' : money(line.unit_cost)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <Timeline items={note.timeline} />
      {asking && (
        <ReasonDialog
          title={t(`grn.${asking}_title`, { number: note.grn_number })}
          reasonLabel={t('dialogs.reason')}
          confirmLabel={t(`actions.${asking}`)}
          closeLabel={t('actions.close')}
          busy={act.isPending}
          onClose={() => setAsking(null)}
          onConfirm={async (reason) => {
            if (await run(asking, { reason })) setAsking(null);
          }}
        />
      )}
    </div>
  );
}
