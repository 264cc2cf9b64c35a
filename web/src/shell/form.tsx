import { ApiFailure } from '@web/api/client';
import {
  type FormEvent,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
  useId,
  useState,
} from 'react';
import { useTranslation } from 'react-i18next';

/**
 * Form fields with a visible label tied to the control, the required asterisk of spec §5 (hidden from the
 * accessible name), and an error text the control points to.
 */

interface FieldFrame {
  label: string;
  error?: string | undefined;
  hint?: ReactNode;
  required?: boolean;
}

interface Limited {
  /**
   * The longest text the field takes (domain/shared/limits.ts). Never a `maxLength`, which cuts what is pasted
   * without a word: the field counts as the limit nears, and beyond it says so as the API will refuse it.
   */
  limit?: number;
}

/** The counter and the over-limit message of a bounded field (the length the API checks: trimmed). */
function useLimit(value: unknown, limit: number | undefined, error: string | undefined) {
  const { t } = useTranslation('common');
  if (limit === undefined) return { error, counter: undefined };
  const length = typeof value === 'string' ? value.trim().length : 0;
  const counter =
    length >= limit * 0.8 ? t('validation.characters_used', { count: length, max: limit }) : undefined;
  return { error: length > limit ? t('validation.too_long', { length: limit }) : error, counter };
}

/** The asterisk sits beside the label, not in it, so the label's text is the field's name and nothing else. */
function Label({
  htmlFor,
  label,
  required,
  hidden = false,
}: {
  htmlFor: string;
  label: string;
  required?: boolean;
  /** Read by screen readers only (a filter in a toolbar). */
  hidden?: boolean;
}) {
  return (
    <span className={hidden ? 'field-label-row visually-hidden' : 'field-label-row'}>
      <label htmlFor={htmlFor} className="field-label">
        {label}
      </label>
      {required && (
        <span className="required-mark" aria-hidden="true">
          *
        </span>
      )}
    </span>
  );
}

function Described({
  id,
  error,
  hint,
  counter,
}: {
  id: string;
  error?: string | undefined;
  hint?: ReactNode;
  counter?: string | undefined;
}) {
  return (
    <>
      {hint && !error && (
        <p id={`${id}-hint`} className="field-hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      )}
      {counter && (
        <p id={`${id}-count`} className="field-hint field-counter">
          {counter}
        </p>
      )}
    </>
  );
}

const describedBy = (id: string, error?: string, hint?: ReactNode, counter?: string) =>
  [error ? `${id}-error` : hint ? `${id}-hint` : undefined, counter ? `${id}-count` : undefined]
    .filter(Boolean)
    .join(' ') || undefined;

/**
 * The frame of a field whose control is not a plain input (a select of places, a combobox): the label above, the
 * error below; the control inside takes `id` and points to `${id}-error` while there is one.
 */
export function LabelledField({
  id,
  label,
  error,
  required,
  hideLabel,
  className = '',
  children,
}: FieldFrame & { id: string; hideLabel?: boolean; className?: string; children: ReactNode }) {
  return (
    <div className={`field ${className} ${error ? 'field-invalid' : ''}`}>
      <Label htmlFor={id} label={label} required={required ?? false} hidden={hideLabel ?? false} />
      {children}
      <Described id={id} error={error} />
    </div>
  );
}

/** The aria attributes of a control in a LabelledField. */
export const controlAria = (id: string, error: string | undefined, required?: boolean) => ({
  'aria-required': required || undefined,
  'aria-invalid': error ? true : undefined,
  'aria-describedby': error ? `${id}-error` : undefined,
});

export function TextField({
  label,
  error: given,
  hint,
  required,
  limit,
  ...input
}: FieldFrame & Limited & Omit<InputHTMLAttributes<HTMLInputElement>, 'required'>) {
  const id = useId();
  const { error, counter } = useLimit(input.value, limit, given);
  return (
    <div className={`field ${error ? 'field-invalid' : ''}`}>
      <Label htmlFor={id} label={label} required={required ?? false} />
      <input
        id={id}
        className="input"
        aria-required={required || undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error, hint, counter)}
        {...input}
      />
      <Described id={id} error={error} hint={hint} counter={counter} />
    </div>
  );
}

/** A text area; in a form grid it takes the whole row. */
export function TextAreaField({
  label,
  error: given,
  hint,
  required,
  limit,
  ...textarea
}: FieldFrame & Limited & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'required'>) {
  const id = useId();
  const { error, counter } = useLimit(textarea.value, limit, given);
  return (
    <div className={`field field-wide ${error ? 'field-invalid' : ''}`}>
      <Label htmlFor={id} label={label} required={required ?? false} />
      <textarea
        id={id}
        className="input textarea"
        aria-required={required || undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error, hint, counter)}
        {...textarea}
      />
      <Described id={id} error={error} hint={hint} counter={counter} />
    </div>
  );
}

export function SelectField({
  label,
  error,
  hint,
  required,
  options,
  placeholder,
  ...select
}: FieldFrame &
  Omit<SelectHTMLAttributes<HTMLSelectElement>, 'required'> & {
    options: readonly { value: string; label: string }[];
    placeholder?: string;
  }) {
  const id = useId();
  return (
    <div className={`field ${error ? 'field-invalid' : ''}`}>
      <Label htmlFor={id} label={label} required={required ?? false} />
      <select
        id={id}
        className="input"
        aria-required={required || undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error, hint)}
        {...select}
      >
        {placeholder !== undefined && <option value="">{placeholder}</option>}
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      <Described id={id} error={error} hint={hint} />
    </div>
  );
}

export function CheckboxField({
  label,
  error,
  required,
  ...input
}: FieldFrame & Omit<InputHTMLAttributes<HTMLInputElement>, 'required' | 'type'>) {
  const id = useId();
  return (
    <div className={`field field-checkbox ${error ? 'field-invalid' : ''}`}>
      <input
        id={id}
        type="checkbox"
        aria-required={required || undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        {...input}
      />
      <Label htmlFor={id} label={label} required={required ?? false} />
      <Described id={id} error={error} />
    </div>
  );
}

/** A failure's field messages by field name (`body/confirm_password` → `confirm_password`). */
export function fieldErrorsOf(error: unknown): Record<string, string> {
  if (!(error instanceof ApiFailure) || !error.errors) return {};
  const fields: Record<string, string> = {};
  for (const issue of error.errors) {
    const name = issue.path.split('/').filter(Boolean).pop();
    if (name && name !== 'body' && !fields[name]) fields[name] = issue.message;
  }
  return fields;
}

export const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * A form of text fields sent to the API as they are: `set(field)` for a control's onChange, `submit` for the form's
 * onSubmit (sends the values, keeps what the API refused), `errors` every field's message at once and `failure` the
 * message above the form.
 */
export function useApiForm<Values extends Record<string, string>>(
  initial: Values,
  send: (values: Values) => Promise<void>,
) {
  const [values, setValues] = useState(initial);
  const [refused, setRefused] = useState<unknown>(null);
  const set = (field: keyof Values) => (event: { target: { value: string } }) => {
    const value = event.target.value;
    setValues((current) => ({ ...current, [field]: value }));
  };
  async function submit(event: FormEvent) {
    event.preventDefault();
    setRefused(null);
    try {
      await send(values);
    } catch (failure) {
      setRefused(failure);
    }
  }
  return {
    values,
    setValues,
    set,
    submit,
    errors: fieldErrorsOf(refused),
    failure: refused === null ? null : messageOf(refused),
  };
}

/** An inline message above a form: an error (announced at once) or a success. */
export function FormMessage({ kind, children }: { kind: 'error' | 'success' | 'info'; children: ReactNode }) {
  return (
    <div className={`form-message form-message-${kind}`} role={kind === 'error' ? 'alert' : 'status'}>
      {children}
    </div>
  );
}
