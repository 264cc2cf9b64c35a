import { ACCOUNT_USER_KINDS, type PARTNER_KINDS } from '@domain/access/kinds';
import { TEXT_LIMITS } from '@domain/shared/limits';
import { useGroups } from '@web/api/groups';
import { type SubUserChanges, type TeamUser, useCreateUser, useUpdateUser } from '@web/api/users';
import { ModalDialog } from '@web/components/modal-dialog';
import { passwordIsStrong } from '@web/config';
import { FormMessage, fieldErrorsOf, messageOf, SelectField, TextField } from '@web/shell/form';
import { useNotify } from '@web/shell/notifications';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

/**
 * Create or edit a user: their kind (a sub-user in a group, or a partner — supplier, dealer… — holding their kind's
 * scope, chosen at creation), login names, contact, password (with its confirmation; left empty on edit to keep the
 * current one), group and status. The server's refusals — a taken username, the package's sub-user limit — show
 * above the form, its field messages under their fields.
 */

const USERNAME_PATTERN = /^[a-z0-9._-]{3,50}$/;
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

type NewKind = 'subuser' | (typeof PARTNER_KINDS)[number];

interface Values {
  kind: NewKind;
  username: string;
  email: string;
  first_name: string;
  last_name: string;
  phone: string;
  password: string;
  confirm_password: string;
  group_id: string;
  status: 'active' | 'inactive';
}

type Field = keyof Values;

const initialValues = (user: TeamUser | null): Values => ({
  kind: user && user.kind !== 'owner' ? user.kind : 'subuser',
  username: user?.username ?? '',
  email: user?.email ?? '',
  first_name: user?.first_name ?? '',
  last_name: user?.last_name ?? '',
  phone: user?.phone ?? '',
  password: '',
  confirm_password: '',
  group_id: user?.group?.id ?? '',
  status: user?.status === 'inactive' ? 'inactive' : 'active',
});

export function UserForm({
  user,
  onClose,
  onSaved,
}: {
  /** null: a new sub-user. */
  user: TeamUser | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation(['settings', 'common']);
  const notify = useNotify();
  const formId = useId();
  const groups = useGroups();
  const create = useCreateUser();
  const update = useUpdateUser();
  const [values, setValues] = useState<Values>(() => initialValues(user));
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const editing = user !== null;
  const inGroup = values.kind === 'subuser';
  const busy = create.isPending || update.isPending;

  const set = (field: Field) => (event: { target: { value: string } }) => {
    const value = event.target.value;
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };

  function check(): Partial<Record<Field, string>> {
    const found: Partial<Record<Field, string>> = {};
    const username = values.username.trim().toLowerCase();
    if (!USERNAME_PATTERN.test(username)) found.username = t('users.errors.username');
    if (!EMAIL_PATTERN.test(values.email.trim())) found.email = t('users.errors.email');
    if (!values.first_name.trim()) found.first_name = t('users.errors.first_name');
    if (!/^[+0-9 ()-]*$/.test(values.phone.trim())) found.phone = t('users.errors.phone');
    const changingPassword = !editing || values.password !== '' || values.confirm_password !== '';
    if (changingPassword) {
      if (!passwordIsStrong(values.password)) found.password = t('users.errors.password_rule');
      if (values.password !== values.confirm_password)
        found.confirm_password = t('users.errors.password_mismatch');
    }
    if (inGroup && !values.group_id) found.group_id = t('users.errors.group');
    return found;
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFailure(null);
    const found = check();
    setErrors(found);
    if (Object.values(found).some(Boolean)) return;
    const fields = {
      username: values.username.trim().toLowerCase(),
      email: values.email.trim(),
      first_name: values.first_name.trim(),
      last_name: values.last_name.trim(),
      phone: values.phone.trim(),
      ...(inGroup ? { group_id: values.group_id } : {}),
      status: values.status,
    };
    try {
      if (user) {
        const changes: SubUserChanges = { ...fields };
        if (values.password !== '') {
          changes.password = values.password;
          changes.confirm_password = values.confirm_password;
        }
        const answer = await update.mutateAsync({ id: user.id, changes });
        notify({ kind: 'success', message: answer.msg });
      } else {
        const answer = await create.mutateAsync({
          ...fields,
          kind: values.kind,
          password: values.password,
          confirm_password: values.confirm_password,
        });
        notify({ kind: 'success', message: answer.msg });
      }
      onSaved();
    } catch (error) {
      setFailure(messageOf(error));
      setErrors(fieldErrorsOf(error) as Partial<Record<Field, string>>);
    }
  }

  const groupOptions = (groups.data ?? []).map((group) => ({ value: group.id, label: group.name }));
  const noGroups = groups.isSuccess && groupOptions.length === 0;

  return (
    <ModalDialog
      title={editing ? t('users.edit_title') : t('users.create_title')}
      onClose={onClose}
      closeLabel={t('actions.close_dialog')}
      size="large"
      footer={
        <>
          <button type="button" className="button" onClick={onClose} disabled={busy}>
            {t('actions.cancel')}
          </button>
          <button type="submit" form={formId} className="button button-primary" disabled={busy}>
            {editing ? t('actions.save') : t('users.create')}
          </button>
        </>
      }
    >
      <form id={formId} className="form" onSubmit={submit} noValidate>
        {failure && <FormMessage kind="error">{failure}</FormMessage>}
        <div className="form-grid">
          <SelectField
            label={t('common:kinds.label')}
            value={values.kind}
            onChange={set('kind')}
            disabled={editing}
            options={ACCOUNT_USER_KINDS.filter((kind) => kind !== 'owner').map((kind) => ({
              value: kind,
              label: t(`common:kinds.${kind}`),
            }))}
            required
          />
          <TextField
            label={t('users.fields.username')}
            value={values.username}
            onChange={set('username')}
            error={errors.username}
            hint={t('users.hints.username')}
            autoComplete="off"
            required
          />
          <TextField
            label={t('users.fields.email')}
            type="email"
            value={values.email}
            onChange={set('email')}
            error={errors.email}
            limit={TEXT_LIMITS.email}
            autoComplete="off"
            required
          />
          <TextField
            label={t('users.fields.first_name')}
            value={values.first_name}
            onChange={set('first_name')}
            error={errors.first_name}
            limit={TEXT_LIMITS.name}
            required
          />
          <TextField
            label={t('users.fields.last_name')}
            value={values.last_name}
            onChange={set('last_name')}
            error={errors.last_name}
            limit={TEXT_LIMITS.name}
          />
          <TextField
            label={t('users.fields.phone')}
            type="tel"
            value={values.phone}
            onChange={set('phone')}
            error={errors.phone}
            limit={TEXT_LIMITS.phone}
          />
          {inGroup && (
            <SelectField
              label={t('users.fields.group')}
              value={values.group_id}
              onChange={set('group_id')}
              error={errors.group_id}
              options={groupOptions}
              placeholder={t('users.choose_group')}
              hint={
                noGroups ? (
                  <Link to="/settings/group-permissions">{t('users.hints.no_groups')}</Link>
                ) : undefined
              }
              required
            />
          )}
          <TextField
            label={t('users.fields.password')}
            type="password"
            value={values.password}
            onChange={set('password')}
            error={errors.password}
            hint={editing ? t('users.hints.password_keep') : t('users.hints.password_rule')}
            autoComplete="new-password"
            required={!editing}
          />
          <TextField
            label={t('users.fields.confirm_password')}
            type="password"
            value={values.confirm_password}
            onChange={set('confirm_password')}
            error={errors.confirm_password}
            autoComplete="new-password"
            required={!editing}
          />
          <SelectField
            label={t('users.fields.status')}
            value={values.status}
            onChange={set('status')}
            options={[
              { value: 'active', label: t('users.status.active') },
              { value: 'inactive', label: t('users.status.inactive') },
            ]}
            required
          />
        </div>
      </form>
    </ModalDialog>
  );
}
