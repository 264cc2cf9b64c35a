import { type RequestDetail, useRequestAction, useRequestDetail } from '@web/api/transfers';
import { useSession } from '@web/auth/session';
import { ModalDialog } from '@web/components/modal-dialog';
import { dateTimeFormatter } from '@web/routes/inventory/components/fields';
import { FormMessage, messageOf } from '@web/shell/form';
import { useNotify } from '@web/shell/notifications';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { StatusBadge } from './components/status-badge';
import { Timeline } from './components/timeline';

/**
 * One transfer request: its places, lines, who did what when, and its timeline; while pending, approve (which
 * makes the transfer) and reject with a reason for holders of "approve request", cancel for holders of "manage
 * request".
 */

export const placeLabel = (place: RequestDetail['from_warehouse']) =>
  place.code ? `${place.code} — ${place.name}` : place.id;

export function RequestDetailDialog({
  id,
  onClose,
  intent,
}: {
  id: string;
  onClose(): void;
  /** Opened to reject: the reason field shows at once. */
  intent?: 'reject' | 'cancel' | undefined;
}) {
  const { t, i18n } = useTranslation('transfers');
  const when = dateTimeFormatter(i18n.language);
  const { can } = useSession();
  const notify = useNotify();
  const detail = useRequestDetail(id);
  const action = useRequestAction();
  const [rejecting, setRejecting] = useState(intent === 'reject');
  const [cancelling, setCancelling] = useState(intent === 'cancel');
  const [reason, setReason] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const reasonId = useId();
  const request = detail.data;

  async function run(name: 'approve' | 'reject' | 'cancel', extra: { reason?: string } = {}) {
    setFailure(null);
    try {
      const answer = await action.mutateAsync({ id, action: name, ...extra });
      notify({ kind: 'success', message: answer.msg });
      setRejecting(false);
      setCancelling(false);
    } catch (error) {
      setFailure(messageOf(error));
    }
  }

  function submitReject(event: FormEvent) {
    event.preventDefault();
    if (!reason.trim()) {
      setFailure(t('detail.reason_required'));
      return;
    }
    void run('reject', { reason: reason.trim() });
  }

  const pending = request?.status === 'pending';
  const busy = action.isPending;
  return (
    <ModalDialog
      title={request ? t('detail.request_title', { reference: request.reference }) : t('detail.loading')}
      onClose={onClose}
      closeLabel={t('actions.close_dialog')}
      size="large"
      footer={
        <>
          {pending && can('transfer-manage-request') && !rejecting && (
            <button
              type="button"
              className="button button-danger-outline"
              disabled={busy}
              onClick={() => (cancelling ? void run('cancel') : setCancelling(true))}
            >
              {cancelling ? t('actions.confirm_cancel') : t('actions.cancel_request')}
            </button>
          )}
          {pending && can('transfer-approve-request') && !cancelling && (
            <>
              {!rejecting && (
                <button type="button" className="button" disabled={busy} onClick={() => setRejecting(true)}>
                  {t('actions.reject')}
                </button>
              )}
              {rejecting ? (
                <button type="submit" form={reasonId} className="button button-danger" disabled={busy}>
                  {t('actions.confirm_reject')}
                </button>
              ) : (
                <button
                  type="button"
                  className="button button-primary"
                  disabled={busy}
                  onClick={() => void run('approve')}
                >
                  {t('actions.approve')}
                </button>
              )}
            </>
          )}
          <button type="button" className="button" onClick={onClose}>
            {t('actions.close')}
          </button>
        </>
      }
    >
      {detail.isError && <FormMessage kind="error">{detail.error.message}</FormMessage>}
      {failure && <FormMessage kind="error">{failure}</FormMessage>}
      {request && (
        <div className="transfer-detail">
          <dl className="transfer-facts">
            <dt>{t('columns.status')}</dt>
            <dd>
              <StatusBadge status={request.status} />
            </dd>
            <dt>{t('columns.from')}</dt>
            <dd>{placeLabel(request.from_warehouse)}</dd>
            <dt>{t('columns.to')}</dt>
            <dd>{placeLabel(request.to_warehouse)}</dd>
            <dt>{t('columns.created')}</dt>
            <dd>
              {request.created.by?.name} · {when(request.created.at)}
            </dd>
            {request.remark && (
              <>
                <dt>{t('columns.remark')}</dt>
                <dd>{request.remark}</dd>
              </>
            )}
            {request.reject_reason && (
              <>
                <dt>{t('columns.reject_reason')}</dt>
                <dd>{request.reject_reason}</dd>
              </>
            )}
            {request.transfer_id && (
              <>
                <dt>{t('columns.transfer')}</dt>
                <dd>{t('detail.transfer_made')}</dd>
              </>
            )}
          </dl>
          {cancelling && <FormMessage kind="info">{t('detail.cancel_question')}</FormMessage>}
          {rejecting && (
            <form id={reasonId} className="form" onSubmit={submitReject} noValidate>
              <div className="field field-wide">
                <label htmlFor={`${reasonId}-reason`} className="field-label">
                  {t('detail.reject_reason')}
                </label>
                <textarea
                  id={`${reasonId}-reason`}
                  className="input textarea"
                  value={reason}
                  maxLength={500}
                  onChange={(event) => setReason(event.target.value)}
                  required
                />
              </div>
            </form>
          )}
          <table className="transfer-table">
            <caption className="visually-hidden">{t('detail.lines')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('columns.master_code')}</th>
                <th scope="col">{t('columns.quantity')}</th>
              </tr>
            </thead>
            <tbody>
              {request.lines.map((line) => (
                <tr key={line.master_code.id}>
                  <td>
                    <strong>{line.master_code.code}</strong>{' '}
                    <span className="muted">{line.master_code.name}</span>
                  </td>
                  <td className="number">{line.quantity}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <h3 className="transfer-section-title">{t('timeline.title')}</h3>
          <Timeline
            entries={request.timeline}
            masterCodes={request.lines.map((line) => line.master_code)}
            places={[request.from_warehouse, request.to_warehouse]}
          />
        </div>
      )}
    </ModalDialog>
  );
}
