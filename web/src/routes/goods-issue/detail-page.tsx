import {
  GIN_VIEW,
  type GinAction,
  type GinDetail,
  mayViewGoodsIssues,
  useGoodsIssue,
  useGoodsIssueAction,
} from '@web/api/goods-issue';
import { useLiveRecord } from '@web/api/live';
import { useSession } from '@web/auth/session';
import { ConfirmDialog } from '@web/components/modal-dialog';
import { ReasonDialog } from '@web/components/reason-dialog';
import { RecordScreen } from '@web/components/record-screen';
import Forbidden from '@web/routes/forbidden';
import { FormMessage, messageOf } from '@web/shell/form';
import { useDateTime } from '@web/shell/format';
import { useNotify } from '@web/shell/notifications';
import { PageHeader } from '@web/shell/page';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { NoteForm } from './note-form';
import { ApprovalProgress, StatusBadge, Timeline } from './parts';
import '@web/routes/management.css';
import { ReplayLink } from '@web/routes/audit/replay-link';

/**
 * One goods issue note: its status, the actions the user may take now (the API says which: edit and submit for
 * its creator's draft, approve or reject for a holder of the waiting layer's key, cancel for its creator, retry
 * after a failed issue), the lines, the approval progress layer by layer, the issue's outcome and the timeline.
 * It follows the live view `goodsIssues`: another user's approval shows without a reload.
 */

export default function GoodsIssueDetailPage() {
  const { id = '' } = useParams();
  const { can } = useSession();
  const note = useGoodsIssue(id);
  useLiveRecord(GIN_VIEW, id, note.refetch);
  const { t } = useTranslation('goods-issue');
  if (!mayViewGoodsIssues(can)) return <Forbidden />;
  return (
    <RecordScreen
      query={note}
      loading={t('detail.loading')}
      back={{ to: '/inventory/goods-issue-notes', label: t('detail.back') }}
    >
      {(data) => <NoteScreen note={data} />}
    </RecordScreen>
  );
}

function NoteScreen({ note }: { note: GinDetail }) {
  const { t, i18n } = useTranslation('goods-issue');
  const notify = useNotify();
  const when = useDateTime();
  const act = useGoodsIssueAction();
  const [editing, setEditing] = useState(false);
  const [rejecting, setRejecting] = useState(false);
  const [cancelling, setCancelling] = useState(false);
  const number = new Intl.NumberFormat(i18n.language);

  async function run(action: GinAction, body?: Record<string, unknown>) {
    try {
      const answer = await act.mutateAsync({ id: note.id, action, ...(body ? { body } : {}) });
      notify({ kind: answer.data.issue.failure ? 'error' : 'success', message: answer.msg });
      return true;
    } catch (error) {
      notify({ kind: 'error', message: messageOf(error) });
      return false;
    }
  }

  const { actions } = note;
  return (
    <div className="page management-page gin-page">
      <p>
        <Link to="/inventory/goods-issue-notes">{t('detail.back')}</Link>
      </p>
      <PageHeader title={t('detail.title', { reference: note.reference })}>
        <StatusBadge
          status={note.status}
          layer={note.approval?.current_layer}
          layers={note.approval?.layers}
        />
        <ReplayLink kind="goods-issue" id={note.id} />
      </PageHeader>

      <div className="gin-actions">
        {actions.edit && (
          <button type="button" className="button" onClick={() => setEditing(true)} disabled={act.isPending}>
            {t('actions.edit')}
          </button>
        )}
        {actions.submit && (
          <button
            type="button"
            className="button button-primary"
            onClick={() => run('submit')}
            disabled={act.isPending}
          >
            {t('actions.submit')}
          </button>
        )}
        {actions.approve !== null && (
          <button
            type="button"
            className="button button-primary"
            disabled={act.isPending}
            onClick={() => run('approve', { layer: actions.approve })}
          >
            {t('actions.approve', { layer: actions.approve })}
          </button>
        )}
        {actions.reject !== null && (
          <button
            type="button"
            className="button button-danger-outline"
            disabled={act.isPending}
            onClick={() => setRejecting(true)}
          >
            {t('actions.reject', { layer: actions.reject })}
          </button>
        )}
        {actions.retry && (
          <button
            type="button"
            className="button button-primary"
            onClick={() => run('retry')}
            disabled={act.isPending}
          >
            {t('actions.retry')}
          </button>
        )}
        {actions.cancel && (
          <button
            type="button"
            className="button button-danger-outline"
            disabled={act.isPending}
            onClick={() => setCancelling(true)}
          >
            {t('actions.cancel')}
          </button>
        )}
      </div>

      {note.issue.failure && (
        <FormMessage kind="error">
          <strong>{t('detail.issue_failed_title')}</strong> {t('detail.issue_failed_text')}{' '}
          {note.issue.failure.lines
            .map((line) =>
              t('detail.short_line', {
                code: line.master_code.code,
                on_hand: line.on_hand,
                quantity: line.quantity,
              }),
            )
            .join('; ')}
        </FormMessage>
      )}

      <div className="gin-grid">
        <section className="card gin-section" aria-labelledby="gin-facts-title">
          <h2 id="gin-facts-title">{t('detail.facts_title')}</h2>
          <dl className="gin-facts">
            <dt>{t('detail.warehouse')}</dt>
            <dd>
              {note.warehouse.code} — {note.warehouse.name}
            </dd>
            <dt>{t('detail.reason')}</dt>
            <dd>{note.reason}</dd>
            <dt>{t('detail.remark')}</dt>
            <dd>{note.remark || <span className="muted">{t('detail.no_remark')}</span>}</dd>
            <dt>{t('detail.created')}</dt>
            <dd>
              {note.created_by.name} · {when(note.created_at)}
            </dd>
            {note.cancellation && (
              <>
                <dt>{t('detail.cancelled')}</dt>
                <dd>
                  {note.cancellation.by.name} · {when(note.cancellation.at)}
                  {note.cancellation.reason ? ` · ${note.cancellation.reason}` : ''}
                </dd>
              </>
            )}
          </dl>
          <table className="gin-table" aria-label={t('detail.lines_title')}>
            <caption className="visually-hidden">{t('detail.lines_title')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('detail.line_code')}</th>
                <th scope="col">{t('detail.line_name')}</th>
                <th scope="col" className="gin-number">
                  {t('detail.line_quantity')}
                </th>
              </tr>
            </thead>
            <tbody>
              {note.lines.map((line) => (
                <tr key={line.master_code.id}>
                  <td>{line.master_code.code}</td>
                  <td>{line.master_code.name}</td>
                  <td className="gin-number">{number.format(line.quantity)}</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row" colSpan={2}>
                  {t('detail.total')}
                </th>
                <td className="gin-number">{number.format(note.total_quantity)}</td>
              </tr>
            </tfoot>
          </table>
        </section>
        <ApprovalProgress note={note} />
      </div>
      <Timeline items={note.timeline} />

      {editing && (
        <NoteForm note={note} onClose={() => setEditing(false)} onSaved={() => setEditing(false)} />
      )}
      {rejecting && actions.reject !== null && (
        <ReasonDialog
          title={t('actions.reject_title', { layer: actions.reject })}
          reasonLabel={t('actions.reject_reason')}
          confirmLabel={t('actions.reject_confirm')}
          closeLabel={t('actions.keep')}
          requiredMessage={t('actions.reject_reason_required')}
          busy={act.isPending}
          onClose={() => setRejecting(false)}
          onConfirm={async (reason) => {
            if (await run('reject', { layer: actions.reject, reason })) setRejecting(false);
          }}
        />
      )}
      {cancelling && (
        <ConfirmDialog
          title={t('actions.confirm_cancel_title')}
          message={t('actions.confirm_cancel_message', { reference: note.reference })}
          confirmLabel={t('actions.cancel')}
          cancelLabel={t('actions.keep')}
          busy={act.isPending}
          onCancel={() => setCancelling(false)}
          onConfirm={async () => {
            await run('cancel');
            setCancelling(false);
          }}
        />
      )}
    </div>
  );
}
