import {
  type AppWithKey,
  type FeedApp,
  useAppEventTypes,
  useApps,
  useCreateApp,
  useRevokeApp,
  useRotateAppKey,
} from '@web/api/apps';
import { ConfirmDialog } from '@web/components/modal-dialog';
import { CheckboxField, FormMessage, fieldErrorsOf, messageOf, TextField } from '@web/shell/form';
import { useDateTime } from '@web/shell/format';
import { Spinner } from '@web/shell/spinner';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import '@web/routes/management.css';
import './apps.css';

/**
 * Settings → apps: the apps that read this account's events through the event feed (README, "Integrator's guide").
 * A new or rotated key is shown here once, until the seller leaves or dismisses it; the server keeps only its hash.
 */
export default function AppsPage() {
  const { t } = useTranslation('apps');
  const apps = useApps();
  const [adding, setAdding] = useState(false);
  const [shown, setShown] = useState<AppWithKey | null>(null);
  const [confirming, setConfirming] = useState<{ app: FeedApp; action: 'rotate' | 'revoke' } | null>(null);
  const rotate = useRotateAppKey();
  const revoke = useRevokeApp();
  const dateTime = useDateTime();

  const confirm = () => {
    if (!confirming) return;
    const { app, action } = confirming;
    if (action === 'rotate')
      rotate.mutate(app.id, { onSuccess: (answer) => setShown(answer.data as AppWithKey) });
    else revoke.mutate(app.id);
    setConfirming(null);
  };
  const failure = apps.error ?? rotate.error ?? revoke.error;

  return (
    <div className="page management-page">
      <div className="page-header">
        <div>
          <h1 className="page-title">{t('title')}</h1>
          <p className="muted">{t('intro')}</p>
        </div>
        <button type="button" className="button button-primary" onClick={() => setAdding(true)}>
          {t('add')}
        </button>
      </div>
      {failure && <FormMessage kind="error">{messageOf(failure)}</FormMessage>}
      {shown && <ShownKey app={shown} onDone={() => setShown(null)} />}
      {adding && (
        <NewAppForm
          onCreated={(app) => {
            setAdding(false);
            setShown(app);
          }}
          onCancel={() => setAdding(false)}
        />
      )}
      <div className="card">
        {apps.isPending ? (
          <Spinner label={t('loading')} />
        ) : (apps.data ?? []).length === 0 ? (
          <p className="muted">{t('empty')}</p>
        ) : (
          <table className="apps-table">
            <caption className="visually-hidden">{t('list_label')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('name')}</th>
                <th scope="col">{t('event_types')}</th>
                <th scope="col">{t('key')}</th>
                <th scope="col">{t('created_by')}</th>
                <th scope="col">{t('last_used')}</th>
                <th scope="col">{t('status')}</th>
                <th scope="col">
                  <span className="visually-hidden">{t('actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {(apps.data ?? []).map((app) => (
                <tr key={app.id}>
                  <td>{app.name}</td>
                  <td title={app.eventTypes.join(', ')}>
                    {t('types_count', { count: app.eventTypes.length })}
                  </td>
                  <td>
                    <code>{app.keyHint}</code>
                  </td>
                  <td>
                    {app.createdBy}
                    <div className="muted">{dateTime(app.createdAt)}</div>
                  </td>
                  <td>{app.lastUsedAt ? dateTime(app.lastUsedAt) : t('never')}</td>
                  <td>{app.revokedAt ? t('revoked_on', { date: dateTime(app.revokedAt) }) : t('active')}</td>
                  <td>
                    {!app.revokedAt && (
                      <div className="form-actions">
                        <button
                          type="button"
                          className="button"
                          aria-label={t('rotate_named', { name: app.name })}
                          onClick={() => setConfirming({ app, action: 'rotate' })}
                        >
                          {t('rotate')}
                        </button>
                        <button
                          type="button"
                          className="button button-danger"
                          aria-label={t('revoke_named', { name: app.name })}
                          onClick={() => setConfirming({ app, action: 'revoke' })}
                        >
                          {t('revoke')}
                        </button>
                      </div>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
      {confirming && (
        <ConfirmDialog
          title={t(confirming.action === 'rotate' ? 'rotate_title' : 'revoke_title')}
          message={t(confirming.action === 'rotate' ? 'rotate_confirm' : 'revoke_confirm', {
            name: confirming.app.name,
          })}
          confirmLabel={t(confirming.action)}
          cancelLabel={t('cancel')}
          onConfirm={confirm}
          onCancel={() => setConfirming(null)}
        />
      )}
    </div>
  );
}

/** The key, once: copied now or never seen again. */
function ShownKey({ app, onDone }: { app: AppWithKey; onDone: () => void }) {
  const { t } = useTranslation('apps');
  const [copied, setCopied] = useState(false);
  return (
    <div className="card" role="status">
      <h2>{t('key_title', { name: app.name })}</h2>
      <p>{t('key_once')}</p>
      <p>
        <code data-testid="app-key">{app.key}</code>
      </p>
      <div className="form-actions">
        <button
          type="button"
          className="button"
          onClick={() => navigator.clipboard.writeText(app.key).then(() => setCopied(true))}
        >
          {copied ? t('copied') : t('copy')}
        </button>
        <button type="button" className="button button-primary" onClick={onDone}>
          {t('done')}
        </button>
      </div>
    </div>
  );
}

function NewAppForm({ onCreated, onCancel }: { onCreated: (app: AppWithKey) => void; onCancel: () => void }) {
  const { t } = useTranslation('apps');
  const types = useAppEventTypes();
  const create = useCreateApp();
  const [name, setName] = useState('');
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const errors = fieldErrorsOf(create.error);
  const all = types.data ?? [];

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(
      { name, eventTypes: [...chosen] },
      { onSuccess: (answer) => onCreated(answer.data as AppWithKey) },
    );
  };
  const toggle = (type: string) =>
    setChosen((before) => {
      const next = new Set(before);
      if (!next.delete(type)) next.add(type);
      return next;
    });

  return (
    <form className="card" onSubmit={submit} aria-label={t('new_title')}>
      <h2>{t('new_title')}</h2>
      {create.error && !errors.name && <FormMessage kind="error">{messageOf(create.error)}</FormMessage>}
      <TextField
        label={t('name')}
        required
        limit={100}
        value={name}
        error={errors.name}
        onChange={(event) => setName(event.target.value)}
      />
      <fieldset className="field">
        <legend>{t('event_types')}</legend>
        <p className="muted">{t('event_types_hint')}</p>
        {types.isPending ? (
          <Spinner label={t('loading')} />
        ) : (
          <>
            <CheckboxField
              label={t('all_types', { count: all.length })}
              checked={all.length > 0 && chosen.size === all.length}
              onChange={(event) => setChosen(new Set(event.target.checked ? all : []))}
            />
            <div className="apps-types">
              {all.map((type) => (
                <CheckboxField
                  key={type}
                  label={type}
                  checked={chosen.has(type)}
                  onChange={() => toggle(type)}
                />
              ))}
            </div>
          </>
        )}
      </fieldset>
      <div className="form-actions">
        <button type="button" className="button" onClick={onCancel}>
          {t('cancel')}
        </button>
        <button type="submit" className="button button-primary" disabled={create.isPending}>
          {t('create')}
        </button>
      </div>
    </form>
  );
}
