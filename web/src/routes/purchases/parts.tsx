import { type PurchaseStatus, type TimelineItem, UPLOAD_MAX_BYTES } from '@web/api/purchases';
import { UploadRefused, type UploadRowError, uploadFile } from '@web/api/upload';
import { DocumentTimeline } from '@web/components/document-timeline';
import { SheetFileField, UploadRowErrors, useSheetFile } from '@web/components/sheet-upload';
import { FormMessage, messageOf } from '@web/shell/form';
import { useNotify } from '@web/shell/notifications';
import { type FormEvent, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import './purchases.css';

/** The pieces the purchasing screens share: amounts, status badges, the timeline and a bulk file form. */

export function PurchaseStatusBadge({ status }: { status: PurchaseStatus }) {
  const { t } = useTranslation('purchases');
  return (
    <span className={`badge purchase-status-${status.replace(' ', '-')}`} data-status={status}>
      {t(`status.${status.replace(' ', '_')}`)}
    </span>
  );
}

/** A note's status (1–6, GOODS_RECEIPT_STATUS) as its badge. */
export function GrnStatusBadge({ status }: { status: number }) {
  const { t } = useTranslation('purchases');
  return (
    <span className={`badge grn-status-${status}`} data-status={status}>
      {t(`grn_status.${status}`)}
    </span>
  );
}

/** An event's data: an object in every purchasing event. */
const dataOf = (item: TimelineItem) => (item.data ?? {}) as Record<string, unknown>;

export function Timeline({ items }: { items: TimelineItem[] }) {
  const { t } = useTranslation('purchases');
  const id = useId();
  return (
    <section className="card purchase-section" aria-labelledby={id}>
      <h2 id={id}>{t('timeline.title')}</h2>
      <DocumentTimeline
        label={t('timeline.title')}
        items={items}
        describe={(item) =>
          t([`timeline.${item.type}`, 'timeline.other'], {
            name: item.user?.name ?? t('timeline.someone'),
            grn: typeof dataOf(item).grnNumber === 'string' ? dataOf(item).grnNumber : '',
          })
        }
        details={(item) => {
          const reason = dataOf(item).reason;
          return typeof reason === 'string' && reason ? <span className="muted">{reason}</span> : null;
        }}
      />
    </section>
  );
}

/**
 * A bulk file form: a CSV (UTF-8, a BOM allowed) or XLSX with a header row and `columns` in order, and a template to
 * start from. A file with any bad row is refused whole and every bad row is listed. Its words are `namespace`'s
 * `upload.*` (the order upload uses it too).
 */
export function FileUploadForm<Data>({
  endpoint,
  columns,
  templateName,
  intro,
  onDone,
  namespace = 'purchases',
}: {
  namespace?: string;
  endpoint: string;
  columns: readonly string[];
  templateName: string;
  intro: string;
  onDone(data: Data, msg: string): void;
}) {
  const { t } = useTranslation(namespace);
  const notify = useNotify();
  const sheet = useSheetFile(namespace, UPLOAD_MAX_BYTES);
  const [sending, setSending] = useState(false);
  const [refused, setRefused] = useState<{ message: string; rows: UploadRowError[] } | null>(null);
  const templateUrl = useMemo(
    () => `data:text/csv;charset=utf-8,${encodeURIComponent(`${columns.join(',')}\n`)}`,
    [columns],
  );

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (sending) return;
    const file = sheet.ready();
    if (!file) return;
    setSending(true);
    setRefused(null);
    try {
      const answer = await uploadFile<Data>(endpoint, file);
      notify({ kind: 'success', message: answer.msg });
      sheet.clear();
      onDone(answer.data, answer.msg);
    } catch (error) {
      setRefused({ message: messageOf(error), rows: error instanceof UploadRefused ? error.rows : [] });
    } finally {
      setSending(false);
    }
  }

  return (
    <form className="form" onSubmit={submit} noValidate aria-label={t('upload.form_label')}>
      <p className="muted">{intro}</p>
      <p className="muted">{t('upload.columns_hint', { columns: columns.join(', ') })}</p>
      <p>
        <a href={templateUrl} download={templateName}>
          {t('upload.template')}
        </a>
      </p>
      <SheetFileField namespace={namespace} sheet={sheet} onChoose={() => setRefused(null)} />
      {refused && (
        <FormMessage kind="error">
          <p>{refused.message}</p>
          {refused.rows.length > 0 && (
            <UploadRowErrors
              namespace={namespace}
              rows={refused.rows}
              caption={t('upload.errors_caption')}
              className="purchase-table"
            />
          )}
        </FormMessage>
      )}
      <div className="form-row-end">
        <button type="submit" className="button button-primary" disabled={sending}>
          {sending ? t('upload.sending') : t('upload.send')}
        </button>
      </div>
    </form>
  );
}
