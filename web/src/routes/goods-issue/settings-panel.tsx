import { REMINDER_MAX_MINUTES, useApprovalSettings, useSaveApprovalSettings } from '@web/api/goods-issue';
import { useSession } from '@web/auth/session';
import { CheckboxField, FormMessage, messageOf, SelectField, TextField } from '@web/shell/form';
import { useNotify } from '@web/shell/notifications';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The account's approval settings for goods issue notes: how many layers (1–3), after how many minutes a waiting
 * layer's approvers are reminded, whether one user may approve at two layers. The owner changes them; everyone
 * else who sees notes reads them. A note keeps the settings it was submitted under.
 */
export function ApprovalSettingsPanel() {
  const { t } = useTranslation('goods-issue');
  const { isOwner } = useSession();
  const notify = useNotify();
  const settings = useApprovalSettings();
  const save = useSaveApprovalSettings();
  const [layers, setLayers] = useState('1');
  const [reminder, setReminder] = useState('1440');
  const [sameApprover, setSameApprover] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!settings.data) return;
    setLayers(String(settings.data.layers));
    setReminder(String(settings.data.reminder_minutes));
    setSameApprover(settings.data.allow_same_approver);
  }, [settings.data]);

  if (!settings.data) return null;

  async function submit(event: FormEvent) {
    event.preventDefault();
    const minutes = /^\d+$/.test(reminder.trim()) ? Number(reminder) : Number.NaN;
    if (!Number.isInteger(minutes) || minutes < 1 || minutes > REMINDER_MAX_MINUTES) {
      setError(t('settings.reminder_invalid', { max: REMINDER_MAX_MINUTES }));
      return;
    }
    setError(null);
    try {
      const answer = await save.mutateAsync({
        layers: Number(layers),
        reminder_minutes: minutes,
        allow_same_approver: sameApprover,
      });
      notify({ kind: 'success', message: answer.msg });
    } catch (failure) {
      setError(messageOf(failure));
    }
  }

  return (
    <details className="card gin-section">
      <summary>
        {t('settings.title')}:{' '}
        <span className="muted">
          {t('settings.summary', {
            layers: t('common:count.layers', { count: settings.data.layers }),
            minutes: t('common:count.minutes', { count: settings.data.reminder_minutes }),
          })}
        </span>
      </summary>
      <p className="muted">{isOwner ? t('settings.intro') : t('settings.owner_only')}</p>
      <form onSubmit={submit} aria-label={t('settings.title')} noValidate>
        {error && <FormMessage kind="error">{error}</FormMessage>}
        <div className="gin-settings">
          <SelectField
            label={t('settings.layers')}
            value={layers}
            disabled={!isOwner}
            onChange={(event) => setLayers(event.target.value)}
            options={[1, 2, 3].map((n) => ({ value: String(n), label: String(n) }))}
          />
          <TextField
            label={t('settings.reminder')}
            hint={t('settings.reminder_hint', { max: REMINDER_MAX_MINUTES })}
            inputMode="numeric"
            value={reminder}
            disabled={!isOwner}
            onChange={(event) => setReminder(event.target.value)}
          />
          <CheckboxField
            label={t('settings.same_approver')}
            checked={sameApprover}
            disabled={!isOwner}
            onChange={(event) => setSameApprover(event.target.checked)}
          />
          {isOwner && (
            <button type="submit" className="button button-primary" disabled={save.isPending}>
              {t('settings.save')}
            </button>
          )}
        </div>
      </form>
    </details>
  );
}
