import { useVerifySignedFile } from '@web/api/audit';
import { ApiFailure } from '@web/api/client';
import { FormMessage, messageOf } from '@web/shell/form';
import { useNotify } from '@web/shell/notifications';
import { type ReactNode, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import '@web/routes/management.css';
import './audit.css';

/**
 * What both replays show: the step-through (previous, next, which step of how many), the timeline of the steps, the
 * signed CSV export, and the check of a signed file an auditor brings back.
 */

export interface TimelineColumn<Step> {
  header: string;
  numeric?: boolean;
  cell(step: Step): ReactNode;
}

/** The timeline: one row per step, its number a button that steps there, the current step marked. */
export function ReplayTimeline<Step>({
  steps,
  index,
  onPick,
  numberOf,
  keyOf,
  columns,
}: {
  steps: readonly Step[];
  index: number;
  onPick(index: number): void;
  numberOf(step: Step): number;
  keyOf(step: Step): string;
  columns: readonly TimelineColumn<Step>[];
}) {
  const { t } = useTranslation('audit');
  const id = useId();
  if (steps.length === 0) return null;
  return (
    <section className="card" aria-labelledby={`${id}-timeline`}>
      <h2 id={`${id}-timeline`}>{t('replay.timeline')}</h2>
      <div className="stock-table-scroll">
        <table className="stock-table replay-timeline">
          <thead>
            <tr>
              <th scope="col">#</th>
              {columns.map((column) => (
                <th key={column.header} scope="col" className={column.numeric ? 'numeric' : undefined}>
                  {column.header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {steps.map((step, rowIndex) => (
              <tr key={keyOf(step)} aria-current={rowIndex === index ? 'step' : undefined}>
                <td>
                  <button type="button" className="button-link" onClick={() => onPick(rowIndex)}>
                    {numberOf(step)}
                  </button>
                </td>
                {columns.map((column) => (
                  <td key={column.header} className={column.numeric ? 'numeric' : undefined}>
                    {column.cell(step)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

export function Stepper({
  index,
  count,
  onChange,
  children,
}: {
  index: number;
  count: number;
  onChange(index: number): void;
  children?: ReactNode;
}) {
  const { t } = useTranslation('audit');
  return (
    <fieldset className="replay-stepper">
      <legend className="visually-hidden">{t('replay.stepper')}</legend>
      <button type="button" className="button" disabled={index <= 0} onClick={() => onChange(index - 1)}>
        {t('replay.previous')}
      </button>
      <span data-testid="replay-position" aria-live="polite">
        {t('replay.position', { step: index + 1, count })}
      </span>
      <button
        type="button"
        className="button"
        disabled={index >= count - 1}
        onClick={() => onChange(index + 1)}
      >
        {t('replay.next')}
      </button>
      {children}
    </fieldset>
  );
}

/** "Export signed CSV": the file's name told once it is saved, a refusal as the API words it. */
export function SignedExport({ download }: { download(): Promise<string> }) {
  const { t } = useTranslation('audit');
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  async function run() {
    setBusy(true);
    try {
      notify({ kind: 'success', message: t('replay.exported', { file: await download() }) });
    } catch (error) {
      notify({
        kind: 'error',
        message: error instanceof ApiFailure ? messageOf(error) : t('replay.export_failed'),
      });
    } finally {
      setBusy(false);
    }
  }
  return (
    <button type="button" className="button" onClick={run} disabled={busy}>
      {busy ? t('replay.exporting') : t('replay.export')}
    </button>
  );
}

/** Checks a signed CSV: its rows against its SHA-256, and the hash against Kedai's HMAC. */
export function VerifyFile() {
  const { t } = useTranslation('audit');
  const id = useId();
  const verify = useVerifySignedFile();
  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('verify.title')}</h2>
      <p className="muted">{t('verify.intro')}</p>
      <label className="field-label" htmlFor={`${id}-file`}>
        {t('verify.file')}
      </label>
      <input
        id={`${id}-file`}
        type="file"
        accept=".csv,text/csv"
        onChange={async (event) => {
          const file = event.target.files?.[0];
          if (file) verify.mutate(await file.text());
        }}
      />
      {verify.isError && <FormMessage kind="error">{messageOf(verify.error)}</FormMessage>}
      {verify.data && (
        <FormMessage kind={verify.data.valid ? 'success' : 'error'}>
          <span data-testid="verify-result">
            {verify.data.valid
              ? t('verify.valid', { count: verify.data.rows })
              : verify.data.hash_matches
                ? t('verify.forged')
                : t('verify.changed')}
          </span>
        </FormMessage>
      )}
    </section>
  );
}
