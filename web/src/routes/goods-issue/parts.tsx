import { DocumentTimeline } from '@web/components/document-timeline';
import { useDateTime } from '@web/shell/format';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import './goods-issue.css';
import type { ApprovalStep, GinDetail, GinStatus, TimelineItem } from '@web/api/goods-issue';

/** The pieces the goods issue screens share: the status badge, the approval progress, the timeline. */

export function StatusBadge({
  status,
  layer,
  layers,
}: {
  status: GinStatus;
  layer?: number | null;
  layers?: number | null;
}) {
  const { t } = useTranslation('goods-issue');
  return (
    <span className={`badge gin-status gin-status-${status}`} data-status={status}>
      {t(`status.${status}`)}
      {status === 4 && layer && layers ? ` · ${t('list.layer_of', { layer, layers })}` : ''}
    </span>
  );
}

function stepText(step: ApprovalStep, t: TFunction<'goods-issue'>, when: (iso: string | null) => string) {
  switch (step.state) {
    case 'approved':
      return t('detail.step_approved', { name: step.by?.name ?? '', at: when(step.at) });
    case 'rejected':
      return t('detail.step_rejected', {
        name: step.by?.name ?? '',
        at: when(step.at),
        reason: step.reason ?? '',
      });
    case 'waiting':
      return t('detail.step_waiting');
    default:
      return t('detail.step_not_reached');
  }
}

export function ApprovalProgress({ note }: { note: GinDetail }) {
  const { t } = useTranslation('goods-issue');
  const when = useDateTime();
  const approval = note.approval;
  return (
    <section className="card gin-section" aria-labelledby="gin-approval-title">
      <h2 id="gin-approval-title">{t('detail.approval_title')}</h2>
      {!approval ? (
        <p className="muted">{t('detail.approval_none')}</p>
      ) : (
        <>
          <p className="muted">
            {t('detail.approval_summary', {
              layers: t('common:count.layers', { count: approval.layers }),
              minutes: t('common:count.minutes', { count: approval.reminder_minutes }),
            })}
          </p>
          <ol className="gin-steps" aria-label={t('detail.approval_title')}>
            {approval.steps.map((step) => (
              <li
                key={step.layer}
                className={`gin-step gin-step-${step.state}`}
                data-testid={`layer-${step.layer}`}
              >
                <strong>{t('detail.layer', { layer: step.layer })}</strong>
                <span>{stepText(step, t, when)}</span>
              </li>
            ))}
          </ol>
        </>
      )}
    </section>
  );
}

function timelineText(item: TimelineItem, t: TFunction<'goods-issue'>) {
  return t([`timeline.${item.type}`, 'timeline.other'], {
    name: item.by?.name || t('detail.system'),
    layer: item.layer ?? '',
    reason: item.reason ?? '',
    recipients: item.recipients.join(', '),
  });
}

export function Timeline({ items }: { items: TimelineItem[] }) {
  const { t } = useTranslation('goods-issue');
  return (
    <section className="card gin-section" aria-labelledby="gin-timeline-title">
      <h2 id="gin-timeline-title">{t('detail.timeline_title')}</h2>
      <DocumentTimeline
        label={t('detail.timeline_title')}
        items={items}
        describe={(item) => timelineText(item, t)}
        details={(item) => (
          <>
            {item.type === 'GinCancelled' && item.reason && <span className="muted">{item.reason}</span>}
            {item.lines.length > 0 && (
              <span className="muted">
                {item.lines
                  .map((line) =>
                    t('detail.short_line', {
                      code: line.master_code.code,
                      on_hand: line.on_hand,
                      quantity: line.quantity,
                    }),
                  )
                  .join('; ')}
              </span>
            )}
          </>
        )}
      />
    </section>
  );
}
