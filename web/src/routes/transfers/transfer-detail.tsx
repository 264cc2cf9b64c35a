import type { TransferAction } from '@domain/transfers/rules';
import {
  REASON_MAX,
  type TransferActionName,
  type TransferDetail,
  useTransferAction,
  useTransferDetail,
} from '@web/api/transfers';
import { useSession } from '@web/auth/session';
import { ReplayLink } from '@web/routes/audit/replay-link';
import { FormMessage, messageOf, TextField } from '@web/shell/form';
import { useNotify } from '@web/shell/notifications';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DocumentDialog, Fact, MasterCodeCell, PlaceFacts, StampFact } from './components/document-dialog';
import { StatusBadge } from './components/status-badge';
import { DocumentForm } from './document-form';

/**
 * One transfer (spec §3, §4): its places, its lines with what was shipped, received, returned and what is still in
 * transit, who acted when, and its timeline (every stock step with its recorded undo). The actions its state allows,
 * for holders of "manage transfer": edit, confirm, ship and cancel while pending; receive (a quantity per line, at
 * most what is in transit), return the rest and cancel while in transit. While pending, the lines asking for more
 * than the source has on hand are warned about.
 */
export function TransferDetailDialog({ id, onClose }: { id: string; onClose(): void }) {
  const { t } = useTranslation('transfers');
  const { can } = useSession();
  const notify = useNotify();
  const detail = useTransferDetail(id);
  const action = useTransferAction();
  const [receipt, setReceipt] = useState<Record<string, string>>({});
  const [confirming, setConfirming] = useState<'cancel' | 'return-rest' | null>(null);
  const [reason, setReason] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const [editing, setEditing] = useState(false);
  const transfer = detail.data;

  // What is in transit is what a receipt usually takes: offered as it changes (a receipt elsewhere, a live update).
  const inTransitKey =
    transfer?.lines.map((line) => `${line.master_code.id}:${line.in_transit}`).join(',') ?? '';
  // biome-ignore lint/correctness/useExhaustiveDependencies: follows what is in transit, named by inTransitKey
  useEffect(() => {
    if (!transfer) return;
    setReceipt(
      Object.fromEntries(transfer.lines.map((line) => [line.master_code.id, String(line.in_transit)])),
    );
  }, [inTransitKey]);

  async function run(name: TransferActionName) {
    if (!transfer) return;
    setFailure(null);
    const lines =
      name === 'receive'
        ? transfer.lines
            .filter((line) => line.in_transit > 0)
            .map((line) => ({
              masterCodeId: line.master_code.id,
              quantity: /^\d+$/.test(receipt[line.master_code.id]?.trim() ?? '')
                ? Number(receipt[line.master_code.id])
                : -1,
            }))
        : undefined;
    if (lines?.some((line) => line.quantity < 0)) {
      setFailure(t('detail.receipt_invalid'));
      return;
    }
    try {
      const answer = await action.mutateAsync({
        id,
        action: name,
        ...(lines ? { lines } : {}),
        ...(name === 'cancel' && reason.trim() ? { reason: reason.trim() } : {}),
      });
      notify({ kind: 'success', message: answer.msg });
      setConfirming(null);
    } catch (error) {
      setFailure(messageOf(error));
    }
  }

  const manage = can('transfer-manage-transfer');
  const busy = action.isPending;
  const inTransit = transfer?.status === 'in_transit';
  // The buttons are the actions the transfer's state allows (the domain's allowedActions, sent with the detail).
  const allows = (name: TransferAction) =>
    manage && !confirming && (transfer?.actions.includes(name) ?? false);

  if (editing && transfer) {
    return (
      <DocumentForm
        kind="transfer"
        editing={transfer}
        onClose={() => setEditing(false)}
        onSaved={() => setEditing(false)}
      />
    );
  }

  return (
    <DocumentDialog
      title={transfer && t('detail.transfer_title', { reference: transfer.reference })}
      document={transfer}
      loadError={detail.error}
      failure={failure}
      onClose={onClose}
      actions={
        <>
          {transfer && <ReplayLink kind="transfer" id={transfer.id} />}
          {manage && confirming && (
            <>
              <button type="button" className="button" disabled={busy} onClick={() => setConfirming(null)}>
                {t('actions.back')}
              </button>
              <button
                type="button"
                className="button button-danger"
                disabled={busy}
                onClick={() => void run(confirming)}
              >
                {confirming === 'cancel' ? t('actions.confirm_cancel') : t('actions.confirm_return')}
              </button>
            </>
          )}
          {allows('cancel') && (
            <button
              type="button"
              className="button button-danger-outline"
              disabled={busy}
              onClick={() => setConfirming('cancel')}
            >
              {t('actions.cancel_transfer')}
            </button>
          )}
          {allows('edit') && (
            <button type="button" className="button" disabled={busy} onClick={() => setEditing(true)}>
              {t('actions.edit')}
            </button>
          )}
          {allows('confirm') && (
            <button type="button" className="button" disabled={busy} onClick={() => void run('confirm')}>
              {t('actions.confirm')}
            </button>
          )}
          {allows('ship') && (
            <button
              type="button"
              className="button button-primary"
              disabled={busy}
              onClick={() => void run('ship')}
            >
              {t('actions.ship')}
            </button>
          )}
          {allows('returnRest') && (
            <button
              type="button"
              className="button"
              disabled={busy}
              onClick={() => setConfirming('return-rest')}
            >
              {t('actions.return_rest')}
            </button>
          )}
          {allows('receive') && (
            <button
              type="button"
              className="button button-primary"
              disabled={busy}
              onClick={() => void run('receive')}
            >
              {t('actions.receive')}
            </button>
          )}
        </>
      }
    >
      {transfer && (
        <>
          <Facts transfer={transfer} />
          <Shortfalls transfer={transfer} />
          {confirming === 'cancel' && (
            <>
              <FormMessage kind="info">
                {inTransit ? t('detail.cancel_in_transit_question') : t('detail.cancel_pending_question')}
              </FormMessage>
              <TextField
                label={t('detail.cancel_reason')}
                value={reason}
                limit={REASON_MAX}
                onChange={(event) => setReason(event.target.value)}
              />
            </>
          )}
          {confirming === 'return-rest' && (
            <FormMessage kind="info">{t('detail.return_question')}</FormMessage>
          )}
          <table className="transfer-table">
            <caption className="visually-hidden">{t('detail.lines')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('columns.master_code')}</th>
                <th scope="col">{t('columns.quantity')}</th>
                <th scope="col">{t('columns.shipped')}</th>
                <th scope="col">{t('columns.received')}</th>
                <th scope="col">{t('columns.returned')}</th>
                <th scope="col">{t('columns.in_transit')}</th>
                {inTransit && manage && <th scope="col">{t('columns.receive_now')}</th>}
              </tr>
            </thead>
            <tbody>
              {transfer.lines.map((line) => (
                <tr key={line.master_code.id}>
                  <MasterCodeCell masterCode={line.master_code} />
                  <td className="number">{line.quantity}</td>
                  <td className="number">{line.shipped}</td>
                  <td className="number" data-testid={`received-${line.master_code.code}`}>
                    {line.received}
                  </td>
                  <td className="number">{line.returned}</td>
                  <td className="number" data-testid={`in-transit-${line.master_code.code}`}>
                    {line.in_transit}
                  </td>
                  {inTransit && manage && (
                    <td>
                      {line.in_transit > 0 && (
                        <input
                          className="input transfer-quantity"
                          inputMode="numeric"
                          aria-label={t('detail.receive_of', { code: line.master_code.code })}
                          value={receipt[line.master_code.id] ?? ''}
                          onChange={(event) =>
                            setReceipt((current) => ({
                              ...current,
                              [line.master_code.id]: event.target.value,
                            }))
                          }
                        />
                      )}
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </DocumentDialog>
  );
}

/** The lines a pending transfer asks more of than the source has on hand now: shipping would refuse them. */
function Shortfalls({ transfer }: { transfer: TransferDetail }) {
  const { t } = useTranslation('transfers');
  if (transfer.shortfalls.length === 0) return null;
  return (
    <div className="transfer-shortfalls" role="status">
      {t('detail.shortfalls', { count: transfer.shortfalls.length })}
      <ul>
        {transfer.shortfalls.map((line) => (
          <li key={line.master_code.id}>
            {t('detail.shortfall_line', {
              code: line.master_code.code ?? line.master_code.id,
              onHand: line.on_hand,
              quantity: line.quantity,
            })}
          </li>
        ))}
      </ul>
    </div>
  );
}

function Facts({ transfer }: { transfer: TransferDetail }) {
  const { t } = useTranslation('transfers');
  return (
    <dl className="transfer-facts">
      <Fact label={t('columns.status')}>
        <StatusBadge status={transfer.status} />
        {transfer.status === 'pending' && transfer.confirmed && (
          <span className="badge badge-new transfer-confirmed">{t('detail.confirmed')}</span>
        )}
      </Fact>
      <PlaceFacts document={transfer} />
      <StampFact label={t('columns.created')} stamp={transfer.created} />
      {transfer.confirmed_stamp.at !== transfer.shipped.at && (
        <StampFact label={t('columns.confirmed')} stamp={transfer.confirmed_stamp} />
      )}
      <StampFact label={t('columns.shipped_by')} stamp={transfer.shipped} />
      <StampFact label={t('columns.received_by')} stamp={transfer.received} />
      <StampFact label={t('columns.cancelled_by')} stamp={transfer.cancelled} />
      {transfer.cancel_reason && <Fact label={t('columns.cancel_reason')}>{transfer.cancel_reason}</Fact>}
      {transfer.request_id && <Fact label={t('columns.request')}>{t('detail.from_request')}</Fact>}
      {transfer.remark && <Fact label={t('columns.remark')}>{transfer.remark}</Fact>}
    </dl>
  );
}
