import { FormMessage, messageOf } from '@web/shell/form';
import { useNotify } from '@web/shell/notifications';
import { type FormEvent, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  type GrnStatus,
  type PurchaseStatus,
  type TimelineItem,
  UPLOAD_MAX_BYTES,
  UploadRefused,
  type UploadRowError,
  uploadFile,
} from './api';
import './purchases.css';

/** The pieces the purchasing screens share: dates, amounts, status badges, the timeline and a bulk file form. */

/** A date and time in the interface language ('' for none). */
export function useDateTime() {
  const { i18n } = useTranslation();
  return useMemo(() => {
    const format = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
    return (iso: string | null | undefined) => (iso ? format.format(new Date(iso)) : '');
  }, [i18n.language]);
}

/** An amount ("12.5000") with two decimals in the interface language; four when the fraction needs them. */
export function useMoney() {
  const { i18n } = useTranslation();
  return useMemo(() => {
    const two = new Intl.NumberFormat(i18n.language, { minimumFractionDigits: 2, maximumFractionDigits: 4 });
    return (amount: string | null | undefined) => (amount == null ? '' : two.format(Number(amount)));
  }, [i18n.language]);
}

export function PurchaseStatusBadge({ status }: { status: PurchaseStatus }) {
  const { t } = useTranslation('purchases');
  return (
    <span className={`badge purchase-status-${status.replace(' ', '-')}`} data-status={status}>
      {t(`status.${status.replace(' ', '_')}`)}
    </span>
  );
}

export function GrnStatusBadge({ status }: { status: GrnStatus }) {
  const { t } = useTranslation('purchases');
  return (
    <span className={`badge grn-status-${status}`} data-status={status}>
      {t(`grn_status.${status}`)}
    </span>
  );
}

export function Timeline({ items }: { items: TimelineItem[] }) {
  const { t } = useTranslation('purchases');
  const when = useDateTime();
  const id = useId();
  return (
    <section className="card purchase-section" aria-labelledby={id}>
      <h2 id={id}>{t('timeline.title')}</h2>
      <ol className="purchase-timeline" aria-label={t('timeline.title')}>
        {items.map((item, index) => {
          const reason = typeof item.data.reason === 'string' ? item.data.reason : '';
          const grnNumber = typeof item.data.grnNumber === 'string' ? item.data.grnNumber : '';
          return (
            // Events never move or vanish: their place in the history is their key.
            // biome-ignore lint/suspicious/noArrayIndexKey: the history is append-only
            <li key={index} className="purchase-timeline-item">
              <time dateTime={item.at} className="muted">
                {when(item.at)}
              </time>
              <span>
                {t(`timeline.${item.type}`, {
                  name: item.user?.name ?? t('timeline.someone'),
                  grn: grnNumber,
                  defaultValue: item.type,
                })}
              </span>
              {reason && <span className="muted">{reason}</span>}
            </li>
          );
        })}
      </ol>
    </section>
  );
}

function RowErrors({ rows }: { rows: UploadRowError[] }) {
  const { t } = useTranslation('purchases');
  return (
    <table className="purchase-table">
      <caption>{t('upload.errors_caption')}</caption>
      <thead>
        <tr>
          <th scope="col">{t('upload.columns.row')}</th>
          <th scope="col">{t('upload.columns.column')}</th>
          <th scope="col">{t('upload.columns.problem')}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: one row may have several problems
          <tr key={index}>
            <td>{row.row}</td>
            <td>{row.column ?? ''}</td>
            <td>{row.message}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * A bulk file form: a CSV (UTF-8 without BOM) or XLSX with a header row and `columns` in order, and a template to
 * start from. A file with any bad row is refused whole and every bad row is listed.
 */
export function FileUploadForm<Data>({
  endpoint,
  columns,
  templateName,
  intro,
  onDone,
}: {
  endpoint: string;
  columns: readonly string[];
  templateName: string;
  intro: string;
  onDone(data: Data, msg: string): void;
}) {
  const { t } = useTranslation('purchases');
  const notify = useNotify();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [sending, setSending] = useState(false);
  const [fileError, setFileError] = useState<string | null>(null);
  const [refused, setRefused] = useState<{ message: string; rows: UploadRowError[] } | null>(null);
  const templateUrl = useMemo(
    () => `data:text/csv;charset=utf-8,${encodeURIComponent(`${columns.join(',')}\n`)}`,
    [columns],
  );

  function choose(chosen: File | null) {
    setFile(chosen);
    setRefused(null);
    setFileError(null);
    if (chosen && !/\.(csv|xlsx)$/i.test(chosen.name)) setFileError(t('upload.errors.type'));
    else if (chosen && chosen.size > UPLOAD_MAX_BYTES)
      setFileError(t('upload.errors.size', { max: UPLOAD_MAX_BYTES / 1024 / 1024 }));
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (sending) return;
    if (!file) {
      setFileError(t('upload.errors.no_file'));
      return;
    }
    if (fileError) return;
    setSending(true);
    setRefused(null);
    try {
      const answer = await uploadFile<Data>(endpoint, file);
      notify({ kind: 'success', message: answer.msg });
      setFile(null);
      if (input.current) input.current.value = '';
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
      <div className={`field ${fileError ? 'field-invalid' : ''}`}>
        <label htmlFor={`${id}-file`} className="field-label">
          {t('upload.file_label')}
        </label>
        <input
          ref={input}
          id={`${id}-file`}
          type="file"
          className="input"
          accept=".csv,.xlsx"
          aria-invalid={fileError ? true : undefined}
          aria-describedby={fileError ? `${id}-file-error` : undefined}
          onChange={(event) => choose(event.target.files?.[0] ?? null)}
        />
        {fileError && (
          <p id={`${id}-file-error`} className="field-error">
            {fileError}
          </p>
        )}
      </div>
      {refused && (
        <FormMessage kind="error">
          <p>{refused.message}</p>
          {refused.rows.length > 0 && <RowErrors rows={refused.rows} />}
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
