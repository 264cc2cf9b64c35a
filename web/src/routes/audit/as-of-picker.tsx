import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';

/**
 * The "as of" date and time of a report, kept in the address (`?at=<ISO instant>`) so a view can be shared. The
 * field picks a whole second in the browser's zone; the instant is that second's last millisecond, so "now" counts
 * everything recorded in the current second. No instant in the address: the report is as of now.
 */

const localInput = (date: Date) => {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
};

export function useAsOf(): string {
  const [params] = useSearchParams();
  const [now] = useState(() => new Date().toISOString());
  return params.get('at') ?? now;
}

export function AsOfPicker() {
  const { t } = useTranslation('audit');
  const id = useId();
  const [params, setParams] = useSearchParams();
  const at = useAsOf();
  const [value, setValue] = useState(() => localInput(new Date(at)));
  const [error, setError] = useState<string | null>(null);

  function submit(event: FormEvent) {
    event.preventDefault();
    const date = new Date(value);
    if (!value || Number.isNaN(date.getTime())) {
      setError(t('as_of.invalid'));
      return;
    }
    const instant = new Date(date.getTime() + 999);
    if (instant.getTime() > Date.now() + 1000) {
      setError(t('as_of.future'));
      return;
    }
    setError(null);
    const next = new URLSearchParams(params);
    next.set('at', instant.toISOString());
    setParams(next);
  }

  return (
    <form className="card form as-of-form" onSubmit={submit} noValidate aria-label={t('as_of.form')}>
      <div className={`field ${error ? 'field-invalid' : ''}`}>
        <label htmlFor={`${id}-at`} className="field-label">
          {t('as_of.at')}
        </label>
        <input
          id={`${id}-at`}
          type="datetime-local"
          step={1}
          className="input"
          value={value}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(event) => setValue(event.target.value)}
        />
        {error && (
          <p id={`${id}-error`} className="field-error">
            {error}
          </p>
        )}
      </div>
      <div className="form-actions">
        <button type="button" className="button" onClick={() => setValue(localInput(new Date()))}>
          {t('as_of.now')}
        </button>
        <button type="submit" className="button button-primary">
          {t('as_of.show')}
        </button>
      </div>
    </form>
  );
}
