import type { UploadRowError } from '@web/api/upload';
import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The pieces of a bulk file form (a CSV or XLSX sent whole, api/upload.ts): the file, checked as it is chosen, its
 * field, and the table of a refused file's bad rows. Their words are the screen namespace's `upload.*`: file_label,
 * errors.type, errors.size, errors.no_file, columns.row, columns.column, columns.problem (and columns.code, for an
 * upload whose rows carry their result code).
 */

export function useSheetFile(namespace: string, maxBytes: number) {
  const { t } = useTranslation(namespace);
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  return {
    input,
    error,
    choose(chosen: File | null) {
      setFile(chosen);
      setError(null);
      if (chosen && !/\.(csv|xlsx)$/i.test(chosen.name)) setError(t('upload.errors.type'));
      else if (chosen && chosen.size > maxBytes)
        setError(t('upload.errors.size', { max: maxBytes / 1024 / 1024 }));
    },
    /** The file to send; null when none is chosen (and it says so) or the chosen one is refused. */
    ready(): File | null {
      if (!file) {
        setError(t('upload.errors.no_file'));
        return null;
      }
      return error ? null : file;
    },
    /** Forgets the file once it is sent. */
    clear() {
      setFile(null);
      if (input.current) input.current.value = '';
    },
  };
}

export type SheetFile = ReturnType<typeof useSheetFile>;

export function SheetFileField({
  namespace,
  sheet,
  hint,
  onChoose,
}: {
  namespace: string;
  sheet: SheetFile;
  hint?: string;
  onChoose?(): void;
}) {
  const { t } = useTranslation(namespace);
  const id = useId();
  return (
    <div className={`field ${sheet.error ? 'field-invalid' : ''}`}>
      <label htmlFor={id} className="field-label">
        {t('upload.file_label')}
      </label>
      <input
        ref={sheet.input}
        id={id}
        type="file"
        className="input"
        accept=".csv,.xlsx"
        aria-invalid={sheet.error ? true : undefined}
        aria-describedby={sheet.error ? `${id}-error` : hint ? `${id}-hint` : undefined}
        onChange={(event) => {
          sheet.choose(event.target.files?.[0] ?? null);
          onChoose?.();
        }}
      />
      {sheet.error ? (
        <p id={`${id}-error`} className="field-error">
          {sheet.error}
        </p>
      ) : (
        hint && (
          <p id={`${id}-hint`} className="field-hint">
            {hint}
          </p>
        )
      )}
    </div>
  );
}

export function UploadRowErrors({
  namespace,
  rows,
  caption,
  className,
}: {
  namespace: string;
  rows: readonly UploadRowError[];
  caption: string;
  className: string;
}) {
  const { t } = useTranslation(namespace);
  const coded = rows.some((row) => row.code !== undefined);
  return (
    <table className={className}>
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">{t('upload.columns.row')}</th>
          <th scope="col">{t('upload.columns.column')}</th>
          {coded && <th scope="col">{t('upload.columns.code')}</th>}
          <th scope="col">{t('upload.columns.problem')}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: one row may have several problems
          <tr key={index}>
            <td>{row.row}</td>
            <td>{row.column ?? ''}</td>
            {coded && <td>{row.code}</td>}
            <td>{row.message}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
