import type { RequestAction } from '@domain/transfers/rules';
import { REASON_MAX, useRequestAction, useRequestDetail } from '@web/api/transfers';
import { useSession } from '@web/auth/session';
import { FormMessage, messageOf, TextAreaField } from '@web/shell/form';
import { useNotify } from '@web/shell/notifications';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DocumentDialog, Fact, MasterCodeCell, PlaceFacts, StampFact } from './components/document-dialog';
import { StatusBadge } from './components/status-badge';

/**
 * One transfer request: its places, lines, who did what when, and its timeline; while pending, approve (which
 * makes the transfer) and reject with a reason for holders of "approve request", cancel for holders of "manage
 * request".
 */

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
  const { t } = useTranslation('transfers');
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

  // The buttons are the actions the request's status allows (the domain's, sent with the detail).
  const allows = (name: RequestAction) => request?.actions.includes(name) ?? false;
  const busy = action.isPending;
  return (
    <DocumentDialog
      title={request && t('detail.request_title', { reference: request.reference })}
      document={request}
      loadError={detail.error}
      failure={failure}
      onClose={onClose}
      actions={
        <>
          {allows('cancel') && can('transfer-manage-request') && !rejecting && (
            <button
              type="button"
              className="button button-danger-outline"
              disabled={busy}
              onClick={() => (cancelling ? void run('cancel') : setCancelling(true))}
            >
              {cancelling ? t('actions.confirm_cancel') : t('actions.cancel_request')}
            </button>
          )}
          {allows('approve') && can('transfer-approve-request') && !cancelling && (
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
        </>
      }
    >
      {request && (
        <>
          <dl className="transfer-facts">
            <Fact label={t('columns.status')}>
              <StatusBadge status={request.status} />
            </Fact>
            <PlaceFacts document={request} />
            <StampFact label={t('columns.created')} stamp={request.created} />
            {request.remark && <Fact label={t('columns.remark')}>{request.remark}</Fact>}
            {request.reject_reason && <Fact label={t('columns.reject_reason')}>{request.reject_reason}</Fact>}
            {request.transfer_id && <Fact label={t('columns.transfer')}>{t('detail.transfer_made')}</Fact>}
          </dl>
          {cancelling && <FormMessage kind="info">{t('detail.cancel_question')}</FormMessage>}
          {rejecting && (
            <form id={reasonId} className="form" onSubmit={submitReject} noValidate>
              <TextAreaField
                label={t('detail.reject_reason')}
                value={reason}
                limit={REASON_MAX}
                required
                onChange={(event) => setReason(event.target.value)}
              />
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
                  <MasterCodeCell masterCode={line.master_code} />
                  <td className="number">{line.quantity}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </DocumentDialog>
  );
}
