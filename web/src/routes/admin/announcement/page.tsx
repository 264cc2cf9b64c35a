import {
  ADMIN_ANNOUNCEMENTS_ENDPOINT,
  type AdminAnnouncement,
  useDeleteAnnouncement,
} from '@web/api/announcements';
import { GridScreen } from '@web/components/grid-screen';
import { useTranslation } from 'react-i18next';
import { AnnouncementForm } from './announcement-form';
import { useAnnouncementColumns } from './use-announcement-columns';

/** Admin settings → announcements: every announcement in a grid, written in a dialog, deleted after a confirmation. */
export default function AdminAnnouncementsPage() {
  const { t } = useTranslation('admin');
  return (
    <GridScreen<AdminAnnouncement>
      namespace="admin"
      prefix="announcements"
      gridId="admin.announcements"
      endpoint={ADMIN_ANNOUNCEMENTS_ENDPOINT}
      useColumns={useAnnouncementColumns}
      remove={useDeleteAnnouncement()}
      deleteMessage={(announcement) => t('announcements.delete_confirm', { subject: announcement.subject })}
      form={({ row, onClose, onSaved }) => (
        <AnnouncementForm announcement={row} onClose={onClose} onSaved={onSaved} />
      )}
    />
  );
}
