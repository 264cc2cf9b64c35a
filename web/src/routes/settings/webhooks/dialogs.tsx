import {
  useAddWebhook,
  useRedeliver,
  useRotateWebhook,
  useUpdateWebhook,
  type Webhook,
  type WebhookWithSecret,
} from '@web/api/webhooks';
import { ModalDialog } from '@web/components/modal-dialog';
import { FormMessage, fieldErrorsOf, messageOf, SelectField, TextField } from '@web/shell/form';
import { useNotify } from '@web/shell/notifications';
import { type FormEvent, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** The webhook screens' dialogs: an endpoint's form, its secret shown once, a rotation, a redelivery of a range. */

export function EndpointDialog({
  webhook,
  eventTypes,
  onClose,
  onSecret,
}: {
  webhook: Webhook | null;
  eventTypes: readonly string[];
  onClose(): void;
  onSecret(made: WebhookWithSecret): void;
}) {
  const { t } = useTranslation('webhooks');
  const notify = useNotify();
  const add = useAddWebhook();
  const update = useUpdateWebhook();
  const [url, setUrl] = useState(webhook?.url ?? '');
  const [description, setDescription] = useState(webhook?.description ?? '');
  const [types, setTypes] = useState<string[]>(webhook?.event_types ?? []);
  const [failure, setFailure] = useState<unknown>(null);
  const errors = fieldErrorsOf(failure);
  const pending = add.isPending || update.isPending;

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFailure(null);
    const body = { url, description, event_types: types };
    try {
      if (webhook) {
        notify({ kind: 'success', message: (await update.mutateAsync({ id: webhook.id, body })).msg });
        onClose();
      } else {
        const answer = await add.mutateAsync(body);
        notify({ kind: 'success', message: answer.msg });
        onSecret(answer.data);
      }
    } catch (error) {
      setFailure(error);
    }
  }

  const toggle = (type: string) =>
    setTypes((chosen) => (chosen.includes(type) ? chosen.filter((t) => t !== type) : [...chosen, type]));

  return (
    <ModalDialog
      title={webhook ? t('form.edit_title') : t('form.add_title')}
      onClose={onClose}
      closeLabel={t('close')}
      size="large"
      footer={
        <>
          <button type="button" className="button" onClick={onClose}>
            {t('cancel')}
          </button>
          <button type="submit" form="webhook-form" className="button button-primary" disabled={pending}>
            {t('save')}
          </button>
        </>
      }
    >
      <form id="webhook-form" className="form-grid" onSubmit={submit} noValidate>
        {failure !== null && Object.keys(errors).length === 0 && (
          <FormMessage kind="error">{messageOf(failure)}</FormMessage>
        )}
        <TextField
          label={t('form.url')}
          hint={t('form.url_hint')}
          type="url"
          required
          value={url}
          error={errors.url}
          onChange={(event) => setUrl(event.target.value)}
        />
        <TextField
          label={t('form.description')}
          value={description}
          limit={200}
          error={errors.description}
          onChange={(event) => setDescription(event.target.value)}
        />
        <fieldset className="field field-wide">
          <legend>{t('form.event_types')}</legend>
          {errors.event_types && <FormMessage kind="error">{errors.event_types}</FormMessage>}
          <div className="webhook-types">
            {eventTypes.map((type) => (
              <label key={type} className="field-checkbox">
                <input type="checkbox" checked={types.includes(type)} onChange={() => toggle(type)} /> {type}
              </label>
            ))}
          </div>
        </fieldset>
      </form>
    </ModalDialog>
  );
}

/** The signing secret, shown this once. */
export function SecretDialog({ secret, onClose }: { secret: string; onClose(): void }) {
  const { t } = useTranslation('webhooks');
  const notify = useNotify();
  return (
    <ModalDialog
      title={t('secret.title')}
      onClose={onClose}
      closeLabel={t('close')}
      footer={
        <button type="button" className="button button-primary" onClick={onClose}>
          {t('secret.done')}
        </button>
      }
    >
      <FormMessage kind="info">{t('secret.once')}</FormMessage>
      <p>
        <code className="webhook-secret" data-testid="webhook-secret">
          {secret}
        </code>
      </p>
      <button
        type="button"
        className="button"
        onClick={() =>
          navigator.clipboard
            .writeText(secret)
            .then(() => notify({ kind: 'success', message: t('secret.copied') }))
            .catch(() => undefined)
        }
      >
        {t('secret.copy')}
      </button>
      <p className="muted">{t('secret.how')}</p>
    </ModalDialog>
  );
}

/** A dialog whose one action runs `act`; a failure shows above its fields. */
function ActionDialog({
  title,
  confirmLabel,
  pending,
  act,
  onClose,
  children,
}: {
  title: string;
  confirmLabel: string;
  pending: boolean;
  act(): Promise<void>;
  onClose(): void;
  children: ReactNode;
}) {
  const { t } = useTranslation('webhooks');
  const [failure, setFailure] = useState<unknown>(null);
  const confirm = () => act().catch(setFailure);
  return (
    <ModalDialog
      title={title}
      onClose={onClose}
      closeLabel={t('close')}
      footer={
        <>
          <button type="button" className="button" onClick={onClose}>
            {t('cancel')}
          </button>
          <button type="button" className="button button-primary" disabled={pending} onClick={confirm}>
            {confirmLabel}
          </button>
        </>
      }
    >
      {failure !== null && <FormMessage kind="error">{messageOf(failure)}</FormMessage>}
      {children}
    </ModalDialog>
  );
}

const WINDOWS = [0, 1, 24, 72, 168] as const;

export function RotateDialog({
  webhook,
  onClose,
  onSecret,
}: {
  webhook: Webhook;
  onClose(): void;
  onSecret(made: WebhookWithSecret): void;
}) {
  const { t } = useTranslation('webhooks');
  const rotate = useRotateWebhook();
  const [hours, setHours] = useState('24');
  return (
    <ActionDialog
      title={t('rotate.title')}
      confirmLabel={t('rotate.confirm')}
      pending={rotate.isPending}
      onClose={onClose}
      act={async () =>
        onSecret((await rotate.mutateAsync({ id: webhook.id, windowHours: Number(hours) })).data)
      }
    >
      <p>{t('rotate.intro', { url: webhook.url })}</p>
      <SelectField
        label={t('rotate.window')}
        value={hours}
        onChange={(event) => setHours(event.target.value)}
        options={WINDOWS.map((value) => ({
          value: String(value),
          label: t('rotate.hours', { count: value }),
        }))}
      />
    </ActionDialog>
  );
}

export function RedeliverRangeDialog({ webhook, onClose }: { webhook: Webhook; onClose(): void }) {
  const { t } = useTranslation('webhooks');
  const notify = useNotify();
  const redeliver = useRedeliver();
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  return (
    <ActionDialog
      title={t('redeliver.range_title')}
      confirmLabel={t('redeliver.confirm')}
      pending={redeliver.isPending}
      onClose={onClose}
      act={async () => {
        const answer = await redeliver.mutateAsync({ id: webhook.id, body: { from, to } });
        notify({ kind: 'success', message: answer.msg });
        onClose();
      }}
    >
      <p>{t('redeliver.range_intro')}</p>
      <TextField label={t('redeliver.from')} value={from} onChange={(event) => setFrom(event.target.value)} />
      <TextField label={t('redeliver.to')} value={to} onChange={(event) => setTo(event.target.value)} />
    </ActionDialog>
  );
}
