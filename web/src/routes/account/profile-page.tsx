import { TEXT_LIMITS } from '@domain/shared/limits';
import { useChangeLanguage, useChangePassword, useChangeProfile } from '@web/api/account';
import { useSession } from '@web/auth/session';
import { changeLanguage } from '@web/i18n';
import { isLanguage, LANGUAGES } from '@web/i18n/languages';
import { FormMessage, messageOf, SelectField, TextField, useApiForm } from '@web/shell/form';
import { useNotify } from '@web/shell/notifications';
import { PageHeader } from '@web/shell/page';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import '@web/routes/management.css';

/**
 * The header menu's user settings: my name and phone (the e-mail is the sign-in identity, shown only), my password
 * (the current one asked; my other sign-ins end) and my language, saved with my user and applied at once.
 */
export default function ProfilePage() {
  const { t } = useTranslation('account');
  const { user } = useSession();
  if (!user) return null;
  return (
    <div className="page management-page">
      <PageHeader title={t('profile.title')} intro={t('profile.intro')} />
      <ProfileForm
        key={user.id}
        initial={{ first_name: user.first_name, last_name: user.last_name, phone: user.phone }}
        email={user.email}
      />
      <PasswordForm />
      <LanguageForm saved={user.language} />
    </div>
  );
}

function ProfileForm({
  initial,
  email,
}: {
  initial: { first_name: string; last_name: string; phone: string };
  email: string;
}) {
  const { t } = useTranslation('account');
  const notify = useNotify();
  const save = useChangeProfile();
  const { values, set, submit, errors, failure } = useApiForm(initial, async (changes) => {
    notify({ kind: 'success', message: (await save.mutateAsync(changes)).msg });
  });

  return (
    <form className="form-section" onSubmit={submit} noValidate aria-label={t('profile.details')}>
      <h2>{t('profile.details')}</h2>
      {failure !== null && <FormMessage kind="error">{failure}</FormMessage>}
      <div className="form-grid">
        <TextField
          label={t('profile.first_name')}
          required
          value={values.first_name}
          limit={TEXT_LIMITS.name}
          onChange={set('first_name')}
          error={errors.first_name}
        />
        <TextField
          label={t('profile.last_name')}
          value={values.last_name}
          limit={TEXT_LIMITS.name}
          onChange={set('last_name')}
          error={errors.last_name}
        />
        <TextField
          label={t('profile.phone')}
          type="tel"
          value={values.phone}
          limit={TEXT_LIMITS.phone}
          onChange={set('phone')}
          error={errors.phone}
        />
        <TextField label={t('profile.email')} value={email} readOnly hint={t('profile.email_hint')} />
      </div>
      <button type="submit" className="button button-primary" disabled={save.isPending}>
        {t('profile.save')}
      </button>
    </form>
  );
}

const EMPTY_PASSWORDS = { current_password: '', password: '', confirm_password: '' };

function PasswordForm() {
  const { t } = useTranslation('account');
  const notify = useNotify();
  const change = useChangePassword();
  const { values, setValues, set, submit, errors, failure } = useApiForm(
    EMPTY_PASSWORDS,
    async (passwords) => {
      const answer = await change.mutateAsync(passwords);
      setValues(EMPTY_PASSWORDS);
      notify({
        kind: 'success',
        message: `${answer.msg}. ${t('password.signed_out_elsewhere', { count: answer.data.signed_out_elsewhere })}`,
      });
    },
  );

  return (
    <form className="form-section" onSubmit={submit} noValidate aria-label={t('password.title')}>
      <h2>{t('password.title')}</h2>
      {failure !== null && <FormMessage kind="error">{failure}</FormMessage>}
      <div className="form-grid">
        <TextField
          label={t('password.current')}
          type="password"
          autoComplete="current-password"
          required
          value={values.current_password}
          onChange={set('current_password')}
          error={errors.current_password}
        />
        <TextField
          label={t('password.new')}
          type="password"
          autoComplete="new-password"
          required
          hint={t('password.rule')}
          value={values.password}
          onChange={set('password')}
          error={errors.password}
        />
        <TextField
          label={t('password.confirm')}
          type="password"
          autoComplete="new-password"
          required
          value={values.confirm_password}
          onChange={set('confirm_password')}
          error={errors.confirm_password}
        />
      </div>
      <button type="submit" className="button button-primary" disabled={change.isPending}>
        {t('password.save')}
      </button>
    </form>
  );
}

function LanguageForm({ saved }: { saved: string }) {
  const { t } = useTranslation('account');
  const notify = useNotify();
  const save = useChangeLanguage();
  const [language, setLanguage] = useState(saved);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!isLanguage(language)) return;
    try {
      await changeLanguage(language);
      notify({ kind: 'success', message: (await save.mutateAsync({ language })).msg });
    } catch (failure) {
      notify({ kind: 'error', message: messageOf(failure) });
    }
  }

  return (
    <form className="form-section" onSubmit={submit} aria-label={t('language.title')}>
      <h2>{t('language.title')}</h2>
      <SelectField
        label={t('language.label')}
        hint={t('language.hint')}
        value={language}
        onChange={(event) => setLanguage(event.target.value)}
        options={LANGUAGES.map((entry) => ({ value: entry.code, label: entry.name }))}
      />
      <button type="submit" className="button button-primary" disabled={save.isPending}>
        {t('language.save')}
      </button>
    </form>
  );
}
