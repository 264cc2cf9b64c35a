import {
  ACK_ACCEPT,
  ACK_READ,
  ACK_REJECT,
  type AckStatus,
  type SellerAnnouncement,
  useAcknowledgeAnnouncement,
} from '@web/api/announcements';
import { ModalDialog } from '@web/components/modal-dialog';
import { messageOf } from '@web/shell/form';
import { useNotify } from '@web/shell/notifications';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import '@web/routes/management.css';
import { dateTimeFormatter } from '@web/shell/format';

/**
 * One announcement in a modal dialog named by its subject (spec §4): Accept and Reject when it asks for an
 * acknowledgement and has not been answered for good, Close (which records it as read), and "Don't show again".
 */

const FINAL: readonly AckStatus[] = [ACK_ACCEPT, ACK_REJECT];

export function formatRange(language: string, start: string, end: string) {
  const when = dateTimeFormatter(language);
  return `${when(start)} – ${when(end)}`;
}

export function AnnouncementDialog({
  announcement,
  onDone,
  position,
}: {
  announcement: SellerAnnouncement;
  /** Called once the answer is recorded (or nothing needed recording). */
  onDone: () => void;
  /** In a prompt walking through several: which one this is. */
  position?: { index: number; total: number };
}) {
  const { t, i18n } = useTranslation('announcements');
  const notify = useNotify();
  const checkboxId = useId();
  const acknowledge = useAcknowledgeAnnouncement();
  const [dontShowAgain, setDontShowAgain] = useState(announcement.dont_show_again);
  const answered = announcement.ack_status !== null && FINAL.includes(announcement.ack_status);
  const canAnswer = announcement.requires_ack && !answered;

  async function answer(status: AckStatus, announce: boolean) {
    try {
      const result = await acknowledge.mutateAsync({
        id: announcement.id,
        status,
        dont_show_again: dontShowAgain,
      });
      if (announce) notify({ kind: 'success', message: result.msg });
      onDone();
    } catch (error) {
      notify({ kind: 'error', message: messageOf(error) });
    }
  }

  /** Closing records "read" — or, once answered for good, keeps that answer and only the "don't show again" choice. */
  function close() {
    if (acknowledge.isPending) return;
    if (answered) {
      if (dontShowAgain === announcement.dont_show_again) onDone();
      else void answer(announcement.ack_status as AckStatus, false);
      return;
    }
    void answer(ACK_READ, false);
  }

  const busy = acknowledge.isPending;

  return (
    <ModalDialog
      title={announcement.subject}
      onClose={close}
      size="large"
      footer={
        <>
          <label htmlFor={checkboxId} className="check-label footer-check">
            <input
              id={checkboxId}
              type="checkbox"
              checked={dontShowAgain}
              onChange={(event) => setDontShowAgain(event.target.checked)}
            />
            {t('dont_show_again')}
          </label>
          {canAnswer && (
            <>
              <button
                type="button"
                className="button button-danger-outline"
                onClick={() => answer(ACK_REJECT, true)}
                disabled={busy}
              >
                {t('reject')}
              </button>
              <button
                type="button"
                className="button button-primary"
                onClick={() => answer(ACK_ACCEPT, true)}
                disabled={busy}
              >
                {t('accept')}
              </button>
            </>
          )}
          <button type="button" className="button" onClick={close} disabled={busy}>
            {t('close')}
          </button>
        </>
      }
    >
      <div className="announcement-meta">
        {position && position.total > 1 && (
          <span className="muted">{t('position', { index: position.index + 1, total: position.total })}</span>
        )}
        <span className="badge">{t('priority', { priority: announcement.priority })}</span>
        {announcement.requires_ack && <span className="badge badge-warning">{t('requires_ack')}</span>}
        {announcement.ack_status !== null && (
          <span className="badge badge-muted">{t(`ack_status.${announcement.ack_status}`)}</span>
        )}
        <span className="muted">
          {formatRange(i18n.language, announcement.start_at, announcement.end_at)}
        </span>
      </div>
      <div className="announcement-content">{announcement.content}</div>
    </ModalDialog>
  );
}
