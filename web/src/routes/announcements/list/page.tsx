import { AnnouncementDialog, formatRange } from '@web/announcements/announcement-dialog';
import { type SellerAnnouncement, useAnnouncements } from '@web/api/announcements';
import { FormMessage, messageOf } from '@web/shell/form';
import { PageHeader } from '@web/shell/page';
import { Spinner } from '@web/shell/spinner';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import '@web/routes/management.css';

/** The announcements shown to the seller now, highest priority first, with their answer; each opens to be read and answered. */
export default function AnnouncementsPage() {
  const { t, i18n } = useTranslation('announcements');
  const announcements = useAnnouncements();
  const [open, setOpen] = useState<SellerAnnouncement | null>(null);
  const list = announcements.data ?? [];

  return (
    <div className="page management-page">
      <PageHeader title={t('title')} intro={t('intro')} />
      {announcements.error && <FormMessage kind="error">{messageOf(announcements.error)}</FormMessage>}
      {announcements.isPending ? (
        <Spinner label={t('loading')} />
      ) : list.length === 0 ? (
        <div className="card empty-state">
          <p className="muted">{t('empty')}</p>
        </div>
      ) : (
        <ul className="announcement-list" aria-label={t('list_label')}>
          {list.map((announcement) => (
            <li key={announcement.id} className="card announcement-card">
              <div className="announcement-card-main">
                <h2 className="announcement-subject">{announcement.subject}</h2>
                <div className="announcement-meta">
                  <span className="badge">{t('priority', { priority: announcement.priority })}</span>
                  {announcement.requires_ack && (
                    <span className="badge badge-warning">{t('requires_ack')}</span>
                  )}
                  <span className={`badge ${announcement.ack_status === null ? 'badge-new' : 'badge-muted'}`}>
                    {announcement.ack_status === null
                      ? t('ack_status.none')
                      : t(`ack_status.${announcement.ack_status}`)}
                  </span>
                  {announcement.dont_show_again && (
                    <span className="badge badge-muted">{t('hidden_from_prompt')}</span>
                  )}
                  <span className="muted">
                    {formatRange(i18n.language, announcement.start_at, announcement.end_at)}
                  </span>
                </div>
                <p className="announcement-excerpt">{announcement.content}</p>
              </div>
              <button
                type="button"
                className="button"
                aria-label={t('view_named', { subject: announcement.subject })}
                onClick={() => setOpen(announcement)}
              >
                {t('view')}
              </button>
            </li>
          ))}
        </ul>
      )}
      {open && <AnnouncementDialog key={open.id} announcement={open} onDone={() => setOpen(null)} />}
    </div>
  );
}
