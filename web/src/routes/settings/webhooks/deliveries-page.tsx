import { type DeliveryRow, deliveriesEndpoint, useRedeliver, useWebhooks } from '@web/api/webhooks';
import { GridScreen, type RowActions } from '@web/components/grid-screen';
import { ModalDialog } from '@web/components/modal-dialog';
import { messageOf } from '@web/shell/form';
import { useDateTime } from '@web/shell/format';
import { useNotify } from '@web/shell/notifications';
import type { ColDef } from 'ag-grid-community';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { RedeliverRangeDialog } from './dialogs';
import './webhooks.css';

/**
 * Settings → Webhooks → an endpoint's delivery log: every try, newest first — the event, its feed position, which
 * try, the answer's status and time, or why there was none. A row opens the request's headers, the body's digest and
 * start, and the answer; from there one event is sent again, or a range of positions from the header.
 */

function useColumns({ onOpen }: RowActions<DeliveryRow>): ColDef<DeliveryRow>[] {
  const { t } = useTranslation('webhooks');
  const when = useDateTime({ seconds: true });
  return useMemo(
    () => [
      {
        colId: 'attempted_at',
        headerName: t('log.columns.attempted_at'),
        valueGetter: ({ data }) => when(data?.attempted_at),
        sortable: true,
        minWidth: 180,
      },
      {
        colId: 'event_type',
        headerName: t('log.columns.event_type'),
        cellRenderer: ({ data }: { data?: DeliveryRow }) =>
          data ? (
            <button type="button" className="button-link" onClick={() => onOpen?.(data)}>
              {data.event_type}
            </button>
          ) : null,
        minWidth: 180,
      },
      {
        colId: 'position',
        field: 'position',
        headerName: t('log.columns.position'),
        sortable: true,
        minWidth: 160,
      },
      { colId: 'attempt', field: 'attempt', headerName: t('log.columns.attempt'), width: 90 },
      {
        colId: 'outcome',
        headerName: t('log.columns.outcome'),
        valueGetter: ({ data }) =>
          data
            ? `${t(`log.outcome.${data.outcome}`)}${data.redelivery ? ` (${t('log.redelivery')})` : ''}`
            : '',
        minWidth: 150,
      },
      {
        colId: 'status',
        headerName: t('log.columns.status'),
        valueGetter: ({ data }) => data?.status ?? data?.error ?? '',
        sortable: true,
        minWidth: 120,
      },
      {
        colId: 'duration_ms',
        headerName: t('log.columns.duration'),
        valueGetter: ({ data }) => (data ? t('log.ms', { count: data.duration_ms }) : ''),
        sortable: true,
        width: 110,
      },
    ],
    [t, when, onOpen],
  );
}

function DeliveryDialog({ row, hookId, onClose }: { row: DeliveryRow; hookId: string; onClose(): void }) {
  const { t } = useTranslation('webhooks');
  const notify = useNotify();
  const redeliver = useRedeliver();
  async function again() {
    try {
      const answer = await redeliver.mutateAsync({ id: hookId, body: { event_id: row.event_id } });
      notify({ kind: 'success', message: answer.msg });
      onClose();
    } catch (failure) {
      notify({ kind: 'error', message: messageOf(failure) });
    }
  }
  return (
    <ModalDialog
      title={t('log.detail_title', { type: row.event_type })}
      onClose={onClose}
      closeLabel={t('close')}
      size="large"
      footer={
        <button
          type="button"
          className="button button-primary"
          disabled={redeliver.isPending}
          onClick={again}
        >
          {t('redeliver.one')}
        </button>
      }
    >
      <dl className="upload-facts">
        <div>
          <dt>{t('log.event_id')}</dt>
          <dd>{row.event_id}</dd>
        </div>
        <div>
          <dt>{t('log.body_sha256')}</dt>
          <dd>
            <code>{row.body_sha256}</code>
          </dd>
        </div>
        <div>
          <dt>{t('log.answer')}</dt>
          <dd>{row.error ?? row.answer_excerpt}</dd>
        </div>
      </dl>
      <h2>{t('log.headers')}</h2>
      <pre className="webhook-code">
        {Object.entries(row.request_headers)
          .map(([name, value]) => `${name}: ${value}`)
          .join('\n')}
      </pre>
      <h2>{t('log.body')}</h2>
      <pre className="webhook-code">{row.body_excerpt}</pre>
    </ModalDialog>
  );
}

export default function WebhookDeliveriesPage() {
  const { t } = useTranslation('webhooks');
  const { id = '' } = useParams();
  const webhook = useWebhooks().data?.webhooks.find((hook) => hook.id === id);
  const [range, setRange] = useState(false);
  return (
    <GridScreen<DeliveryRow>
      namespace="webhooks"
      prefix="log"
      gridId="webhooks.deliveries"
      title={t('log.title', { url: webhook?.url ?? '' })}
      endpoint={deliveriesEndpoint(id)}
      useColumns={useColumns}
      search={false}
      actions={
        <>
          <Link className="button" to="/settings/webhooks">
            {t('back')}
          </Link>
          {webhook?.actions.includes('redeliver') && (
            <button type="button" className="button" onClick={() => setRange(true)}>
              {t('redeliver.range_action')}
            </button>
          )}
        </>
      }
      detail={({ row, onClose }) => <DeliveryDialog row={row} hookId={id} onClose={onClose} />}
    >
      {range && webhook && <RedeliverRangeDialog webhook={webhook} onClose={() => setRange(false)} />}
    </GridScreen>
  );
}
