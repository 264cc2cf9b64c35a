import { type TeamUser, USERS_ENDPOINT, useDeleteUser } from '@web/api/users';
import { GridScreen } from '@web/components/grid-screen';
import { useTranslation } from 'react-i18next';
import { fullName, useUserColumns } from './use-user-columns';
import { UserForm } from './user-form';

/** Settings → users: the owner's sub-users in a grid, created and edited in a dialog, deleted after a confirmation. */
export default function UsersPage() {
  const { t } = useTranslation('settings');
  return (
    <GridScreen<TeamUser>
      namespace="settings"
      prefix="users"
      gridId="settings.users"
      endpoint={USERS_ENDPOINT}
      useColumns={useUserColumns}
      remove={useDeleteUser()}
      deleteMessage={(user) => t('users.delete_confirm', { name: fullName(user) || user.email })}
      form={({ row, onClose, onSaved }) => <UserForm user={row} onClose={onClose} onSaved={onSaved} />}
    />
  );
}
