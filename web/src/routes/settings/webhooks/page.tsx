import {
  useDeleteWebhook,
  useSwitchWebhook,
  useWebhooks,
  type Webhook,
  type WebhookWithSecret,
} from '@web/api/webhooks';
import { ModalDialog } from '@web/components/modal-dialog';
import { FormMessage, messageOf } from '@web/shell/form';
import { useDateTime } from '@web/shell/format';
import { useNotify } from '@web/shell/notifications';
import { PageHeader } from '@web/shell/page';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { EndpointDialog, RotateDialog, SecretDialog } from './dialogs';
import '@web/routes/management.css';
import './webhooks.css';

/**
 * Settings → Webhooks: the account's endpoints, each with the event types it receives, its state (enabled, disabled
 * and why, failing since when), its last delivery and its actions — edit, rotate the signing secret, enable or
 * disable, delete, and its delivery log. The signing secret shows once, when it is made.
 */

type Open =
  | { kind: 'add' }
  | { kind: 'edit'; webhook: Webhook }
  | { kind: 'rotate'; webhook: Webhook }
  | { kind: 'delete'; webhook: Webhook }
  | { kind: 'secret'; secret: string }
  | null;

export default function WebhooksPage() {
  const { t } = useTranslation('webhooks');
  const notify = useNotify();
  const when = useDateTime({ seconds: true });
  const list = useWebhooks();
  const switcher = useSwitchWebhook();
  const remove = useDeleteWebhook();
  const [open, setOpen] = useState<Open>(null);
  const close = () => setOpen(null);
  const showSecret = (made: WebhookWithSecret) => setOpen({ kind: 'secret', secret: made.secret });

  async function run(work: () => Promise<{ msg: string }>) {
    try {
      notify({ kind: 'success', message: (await work()).msg });
    } catch (failure) {
      notify({ kind: 'error', message: messageOf(failure) });
    }
  }

  const state = (webhook: Webhook) =>
    webhook.status === 'enabled'
      ? webhook.failing_since
        ? t('status.failing', { since: when(webhook.failing_since) })
        : t('status.enabled')
      : t(`status.disabled_${webhook.disabled_reason ?? 'seller'}`);

  return (
    <div className="page management-page">
      <PageHeader title={t('title')} intro={t('intro')}>
        <button type="button" className="button button-primary" onClick={() => setOpen({ kind: 'add' })}>
          {t('add')}
        </button>
      </PageHeader>
      {list.isError && <FormMessage kind="error">{messageOf(list.error)}</FormMessage>}
      {list.data && list.data.webhooks.length === 0 && <p className="muted">{t('empty')}</p>}
      {list.data && list.data.webhooks.length > 0 && (
        <table className="simple-table">
          <thead>
            <tr>
              <th scope="col">{t('columns.url')}</th>
              <th scope="col">{t('columns.event_types')}</th>
              <th scope="col">{t('columns.status')}</th>
              <th scope="col">{t('columns.last_delivery')}</th>
              <th scope="col">
                <span className="visually-hidden">{t('columns.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {list.data.webhooks.map((webhook) => (
              <tr key={webhook.id}>
                <th scope="row">
                  <Link to={`/settings/webhooks/${webhook.id}`}>{webhook.url}</Link>
                  {webhook.description && <div className="muted">{webhook.description}</div>}
                </th>
                <td>{t('types_count', { count: webhook.event_types.length })}</td>
                <td>{state(webhook)}</td>
                <td>
                  {webhook.last_delivery
                    ? t(`outcome.${webhook.last_delivery.outcome}`, {
                        status: webhook.last_delivery.status ?? '—',
                        at: when(webhook.last_delivery.attempted_at),
                      })
                    : t('never')}
                </td>
                <td className="row-actions">
                  <Link className="button" to={`/settings/webhooks/${webhook.id}`}>
                    {t('deliveries')}
                  </Link>
                  <button type="button" className="button" onClick={() => setOpen({ kind: 'edit', webhook })}>
                    {t('edit')}
                  </button>
                  <button
                    type="button"
                    className="button"
                    onClick={() => setOpen({ kind: 'rotate', webhook })}
                  >
                    {t('rotate.action')}
                  </button>
                  {webhook.actions.includes('enable') && (
                    <button
                      type="button"
                      className="button"
                      disabled={switcher.isPending}
                      onClick={() => run(() => switcher.mutateAsync({ id: webhook.id, to: 'enable' }))}
                    >
                      {t('enable')}
                    </button>
                  )}
                  {webhook.actions.includes('disable') && (
                    <button
                      type="button"
                      className="button"
                      disabled={switcher.isPending}
                      onClick={() => run(() => switcher.mutateAsync({ id: webhook.id, to: 'disable' }))}
                    >
                      {t('disable')}
                    </button>
                  )}
                  <button
                    type="button"
                    className="button"
                    onClick={() => setOpen({ kind: 'delete', webhook })}
                  >
                    {t('delete')}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {(open?.kind === 'add' || open?.kind === 'edit') && list.data && (
        <EndpointDialog
          webhook={open.kind === 'edit' ? open.webhook : null}
          eventTypes={list.data.event_types}
          onClose={close}
          onSecret={showSecret}
        />
      )}
      {open?.kind === 'rotate' && (
        <RotateDialog webhook={open.webhook} onClose={close} onSecret={showSecret} />
      )}
      {open?.kind === 'secret' && <SecretDialog secret={open.secret} onClose={close} />}
      {open?.kind === 'delete' && (
        <ModalDialog
          role="alertdialog"
          title={t('delete_title')}
          onClose={close}
          footer={
            <>
              <button type="button" className="button" onClick={close}>
                {t('cancel')}
              </button>
              <button
                type="button"
                className="button button-danger"
                disabled={remove.isPending}
                onClick={() => run(() => remove.mutateAsync(open.webhook.id)).then(close)}
              >
                {t('delete')}
              </button>
            </>
          }
        >
          <p>{t('delete_confirm', { url: open.webhook.url })}</p>
        </ModalDialog>
      )}
    </div>
  );
}
