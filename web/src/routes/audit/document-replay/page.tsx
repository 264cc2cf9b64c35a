import { DOCUMENT_KINDS, type DocumentKind } from '@domain/audit/documents';
import { downloadDocumentReplay, useDocumentReplay } from '@web/api/audit';
import { FormMessage, messageOf } from '@web/shell/form';
import { dateTimeFormatter } from '@web/shell/format';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import NotFound from '../../not-found';
import { ReplayTimeline, SignedExport, Stepper, VerifyFile } from '../replay-common';
import '../../inventory/stock-common/stock.css';

/**
 * The auditor's replay of a document (an order, a transfer, a purchase order, a goods receive or goods issue note):
 * each of its events with who, when and why, the command that recorded it, and a step-through that shows the
 * document's key fields (its status first) before and after each event, as its own aggregate folds them.
 */

/** Where the console shows each kind of document, beside its replay. */
const DOCUMENT_PAGES: Partial<Record<DocumentKind, (id: string) => string>> = {
  purchase: (id) => `/purchases/detail/${id}`,
  'goods-receipt': (id) => `/inventory/goods-receive-notes/${id}`,
  'goods-issue': (id) => `/inventory/goods-issue-notes/${id}`,
  transfer: () => '/transfer-stock/list-transfer',
  order: () => '/orders/manage',
};

const shown = (value: unknown) =>
  value === null || value === undefined || value === '' ? '—' : String(value);

export default function DocumentReplayPage() {
  const { kind, id } = useParams();
  if (!kind || !id || !(DOCUMENT_KINDS as readonly string[]).includes(kind)) return <NotFound />;
  return <DocumentReplayOf kind={kind as DocumentKind} id={id} />;
}

function DocumentReplayOf({ kind, id }: { kind: DocumentKind; id: string }) {
  const { t, i18n } = useTranslation(['audit', 'orders']);
  // Order events are named as the order's own timeline names them; the other documents' here.
  const eventName = (type: string) => t([`audit:document.events.${type}`, `orders:events.${type}`]);
  const headingId = useId();
  const replay = useDocumentReplay(kind, id);
  const steps = replay.data?.steps ?? [];
  const [index, setIndex] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: another document starts at its first event
  useEffect(() => setIndex(0), [kind, id]);
  const step = steps[index];
  const dateTime = dateTimeFormatter(i18n.language, { seconds: true });
  const fields = step ? Object.keys(step.after ?? step.before ?? {}) : [];
  const page = DOCUMENT_PAGES[kind]?.(id);

  return (
    <div className="page management-page stock-page">
      <div className="page-header">
        <div>
          <h1 className="page-title">
            {t('audit:document.title', { kind: t(`audit:document.kinds.${kind}`) })}
          </h1>
          <p className="muted">{t('audit:document.intro')}</p>
        </div>
        <div className="form-actions">
          {page && (
            <Link className="button" to={page}>
              {t('audit:document.open')}
            </Link>
          )}
          <SignedExport download={() => downloadDocumentReplay(kind, id)} />
        </div>
      </div>

      {replay.isError && <FormMessage kind="error">{messageOf(replay.error)}</FormMessage>}

      {step && (
        <section className="card" aria-labelledby={headingId}>
          <h2 id={headingId}>{eventName(step.type)}</h2>
          <Stepper index={index} count={steps.length} onChange={setIndex} />
          <dl className="stock-figures">
            <div>
              <dt>{t('audit:stock.when')}</dt>
              <dd>{dateTime(step.occurred_at)}</dd>
            </div>
            <div>
              <dt>{t('audit:stock.who')}</dt>
              <dd>{step.user?.name ?? t('audit:document.system')}</dd>
            </div>
            <div>
              <dt>{t('audit:stock.why')}</dt>
              <dd>{step.reason ?? '—'}</dd>
            </div>
            <div>
              <dt>{t('audit:stock.command')}</dt>
              <dd className="muted">{step.command_id ?? '—'}</dd>
            </div>
          </dl>
          <table className="stock-table replay-figures">
            <caption>{t('audit:document.fields_caption', { step: index + 1 })}</caption>
            <thead>
              <tr>
                <th scope="col">{t('audit:document.field')}</th>
                <th scope="col">{t('audit:stock.before')}</th>
                <th scope="col">{t('audit:stock.after')}</th>
              </tr>
            </thead>
            <tbody>
              {fields.map((field) => (
                <tr key={field}>
                  <th scope="row">{t(`audit:document.fields.${field}`)}</th>
                  <td>{shown(step.before?.[field])}</td>
                  <td className={step.changed.includes(field) ? 'changed' : undefined}>
                    {shown(step.after?.[field])}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}

      <ReplayTimeline
        steps={steps}
        index={index}
        onPick={setIndex}
        numberOf={(row) => row.revision + 1}
        keyOf={(row) => row.event_id}
        columns={[
          { header: t('audit:stock.when'), cell: (row) => dateTime(row.occurred_at) },
          { header: t('audit:document.event'), cell: (row) => eventName(row.type) },
          { header: t('audit:stock.who'), cell: (row) => row.user?.name ?? t('audit:document.system') },
          {
            header: t('audit:document.changes'),
            cell: (row) => row.changed.map((field) => t(`audit:document.fields.${field}`)).join(', '),
          },
        ]}
      />

      <VerifyFile />
    </div>
  );
}
