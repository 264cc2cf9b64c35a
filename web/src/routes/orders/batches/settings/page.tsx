import type { AutoBatchConfigAnswer, AutoBatchConfigBody } from '@api/contracts/batches';
import {
  useAutoBatchConfigs,
  useDeleteAutoBatchConfig,
  useRunAutoBatchConfig,
  useSaveAutoBatchConfig,
} from '@web/api/batches';
import { useSession } from '@web/auth/session';
import { ConfirmDialog } from '@web/components/modal-dialog';
import Forbidden from '@web/routes/forbidden';
import { FormMessage, messageOf } from '@web/shell/form';
import { useNotify } from '@web/shell/notifications';
import { PageHeader } from '@web/shell/page';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfigForm } from './config-form';
import '@web/routes/management.css';
import '../batches.css';
import { dateTimeFormatter } from '@web/shell/format';

/**
 * Orders → batch settings (/orders/batch-setting; spec §3 "Auto batch"): each configuration with when it runs (every
 * 1 or 2 hours inside its window, in the account's time zone), the most orders per batch, its split and extra
 * condition, how many orders wait for it, and its last run. Add, change, switch on or off, run now, delete. A
 * configuration that batches like another is refused with the spec's "Duplicate config".
 */
export default function BatchSettingsPage() {
  const { t, i18n } = useTranslation('batches');
  const { can } = useSession();
  const notify = useNotify();
  const configs = useAutoBatchConfigs();
  const save = useSaveAutoBatchConfig();
  const remove = useDeleteAutoBatchConfig();
  const runNow = useRunAutoBatchConfig();
  const [editing, setEditing] = useState<AutoBatchConfigAnswer | 'new' | null>(null);
  const [deleting, setDeleting] = useState<AutoBatchConfigAnswer | null>(null);

  if (!can('orders-batch')) return <Forbidden />;

  const toggle = (config: AutoBatchConfigAnswer) => {
    const {
      id,
      timezone: _zone,
      times: _times,
      waiting_orders: _waiting,
      last_run_at: _run,
      last_batch_count: _count,
      ...body
    } = config;
    save.mutate(
      { id, body: { ...body, active: !config.active } as AutoBatchConfigBody },
      {
        onSuccess: (answer) => notify({ kind: 'success', message: answer.msg }),
        onError: (error) => notify({ kind: 'error', message: messageOf(error) }),
      },
    );
  };

  return (
    <div className="page management-page batch-page">
      <PageHeader title={t('settings.title')} intro={t('settings.intro')}>
        <button type="button" className="button button-primary" onClick={() => setEditing('new')}>
          {t('settings.add')}
        </button>
      </PageHeader>
      {configs.error && <FormMessage kind="error">{messageOf(configs.error)}</FormMessage>}
      {configs.data && configs.data.length === 0 && (
        <p className="empty-state muted">{t('settings.empty')}</p>
      )}
      {configs.data && configs.data.length > 0 && (
        <div className="batch-table-wrap">
          <table className="batch-table" aria-label={t('settings.table_label')}>
            <thead>
              <tr>
                <th>{t('columns.name')}</th>
                <th>{t('settings.columns.active')}</th>
                <th>{t('settings.columns.schedule')}</th>
                <th className="numeric">{t('fields.max_orders')}</th>
                <th>{t('fields.split')}</th>
                <th>{t('columns.type')}</th>
                <th>{t('settings.columns.condition')}</th>
                <th className="numeric">{t('settings.columns.waiting')}</th>
                <th>{t('settings.columns.last_run')}</th>
                <th>{t('columns.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {configs.data.map((config) => (
                <tr key={config.id}>
                  <td>{config.name || t('settings.unnamed')}</td>
                  <td>
                    <input
                      type="checkbox"
                      aria-label={t('settings.active_named', { name: config.name || t('settings.unnamed') })}
                      checked={config.active}
                      disabled={save.isPending}
                      onChange={() => toggle(config)}
                    />
                  </td>
                  <td>
                    {t('settings.every', { hours: config.interval_hours })} · {config.start_time}–
                    {config.end_time}
                    <div className="muted">{config.times.join(', ')}</div>
                  </td>
                  <td className="numeric">{config.max_orders}</td>
                  <td>{t(`split.${config.split}`)}</td>
                  <td>{t(`type.${config.type}`)}</td>
                  <td>
                    {config.condition.platforms.length === 0 && config.condition.store_ids.length === 0
                      ? t('settings.any_order')
                      : [
                          ...config.condition.platforms.map((platform) => t(`platforms.${platform}`)),
                          ...(config.condition.store_ids.length
                            ? [t('settings.stores_count', { count: config.condition.store_ids.length })]
                            : []),
                        ].join(', ')}
                  </td>
                  <td className="numeric">{config.waiting_orders}</td>
                  <td>
                    {config.last_run_at
                      ? t('settings.last_run', {
                          at: dateTimeFormatter(i18n.language)(config.last_run_at),
                          count: config.last_batch_count ?? 0,
                        })
                      : ''}
                  </td>
                  <td>
                    <div className="grid-actions">
                      <button
                        type="button"
                        className="button button-small"
                        onClick={() => setEditing(config)}
                      >
                        {t('actions.edit')}
                      </button>
                      <button
                        type="button"
                        className="button button-small"
                        disabled={!config.active || runNow.isPending}
                        onClick={() =>
                          runNow.mutate(config.id, {
                            onSuccess: (answer) => notify({ kind: 'success', message: answer.msg }),
                            onError: (error) => notify({ kind: 'error', message: messageOf(error) }),
                          })
                        }
                      >
                        {t('settings.run_now')}
                      </button>
                      <button
                        type="button"
                        className="button button-small button-danger-outline"
                        onClick={() => setDeleting(config)}
                      >
                        {t('actions.delete')}
                      </button>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {editing && (
        <ConfigForm
          config={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={() => setEditing(null)}
        />
      )}
      {deleting && (
        <ConfirmDialog
          title={t('settings.delete_title')}
          message={t('settings.delete_message', { name: deleting.name || t('settings.unnamed') })}
          confirmLabel={t('actions.delete')}
          cancelLabel={t('actions.cancel')}
          busy={remove.isPending}
          onCancel={() => setDeleting(null)}
          onConfirm={() =>
            remove.mutate(deleting.id, {
              onSuccess: (answer) => {
                notify({ kind: 'success', message: answer.msg });
                setDeleting(null);
              },
              onError: (error) => notify({ kind: 'error', message: messageOf(error) }),
            })
          }
        />
      )}
    </div>
  );
}
