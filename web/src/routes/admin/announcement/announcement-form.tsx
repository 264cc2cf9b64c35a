import {
  type Announcement,
  type AnnouncementFields,
  useCreateAnnouncement,
  useUpdateAnnouncement,
} from '@web/api/announcements';
import { useCountries } from '@web/api/lookups';
import { ModalDialog } from '@web/components/modal-dialog';
import {
  CheckboxField,
  FormMessage,
  fieldErrorsOf,
  messageOf,
  SelectField,
  TextField,
} from '@web/shell/form';
import { useNotify } from '@web/shell/notifications';
import { type FormEvent, type TextareaHTMLAttributes, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * Create or edit an announcement with every field of spec §3. The server checks them (spec §5: "Please provide
 * priority", "Missing announcement {field}", "Title is more than N characters"); its messages show under the fields
 * they name, or above the form for the rest.
 */

type Field = 'subject' | 'content' | 'start_at' | 'end_at' | 'priority' | 'country';

interface Values {
  subject: string;
  content: string;
  start_at: string;
  end_at: string;
  priority: string;
  is_active: boolean;
  requires_ack: boolean;
  country: string;
  prompt: boolean;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** An instant as the value of a datetime-local input, in the browser's time zone. */
function localInput(iso: string | Date): string {
  const date = typeof iso === 'string' ? new Date(iso) : iso;
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

function initialValues(announcement: Announcement | null): Values {
  if (announcement) {
    return {
      subject: announcement.subject,
      content: announcement.content,
      start_at: localInput(announcement.start_at),
      end_at: localInput(announcement.end_at),
      priority: String(announcement.priority),
      is_active: announcement.is_active,
      requires_ack: announcement.requires_ack,
      country: announcement.country ?? '',
      prompt: announcement.prompt,
    };
  }
  const start = new Date();
  start.setSeconds(0, 0);
  const end = new Date(start.getTime() + 7 * 24 * 3_600_000);
  return {
    subject: '',
    content: '',
    start_at: localInput(start),
    end_at: localInput(end),
    priority: '',
    is_active: true,
    requires_ack: false,
    country: '',
    prompt: true,
  };
}

function toFields(values: Values): AnnouncementFields {
  const instant = (value: string) => {
    if (!value) return undefined;
    const date = new Date(value);
    return Number.isNaN(date.getTime()) ? value : date.toISOString();
  };
  const priority = values.priority.trim();
  const fields: AnnouncementFields = {
    subject: values.subject,
    content: values.content,
    priority: priority === '' ? null : Number(priority),
    is_active: values.is_active,
    requires_ack: values.requires_ack,
    country: (values.country || null) as AnnouncementFields['country'],
    prompt: values.prompt,
  };
  const start = instant(values.start_at);
  const end = instant(values.end_at);
  if (start !== undefined) fields.start_at = start;
  if (end !== undefined) fields.end_at = end;
  return fields;
}

function TextAreaField({
  label,
  error,
  required,
  ...textarea
}: { label: string; error?: string | undefined; required?: boolean } & Omit<
  TextareaHTMLAttributes<HTMLTextAreaElement>,
  'required'
>) {
  const id = useId();
  return (
    <div className={`field ${error ? 'field-invalid' : ''}`}>
      <label htmlFor={id} className="field-label">
        {label}
        {required && (
          <span className="required-mark" aria-hidden="true">
            {' *'}
          </span>
        )}
      </label>
      <textarea
        id={id}
        className="input textarea"
        aria-required={required || undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        {...textarea}
      />
      {error && (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}

const FIELDS: readonly Field[] = ['subject', 'content', 'start_at', 'end_at', 'priority', 'country'];

export function AnnouncementForm({
  announcement,
  onClose,
  onSaved,
}: {
  /** null: a new announcement. */
  announcement: Announcement | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation('admin');
  const notify = useNotify();
  const formId = useId();
  const countries = useCountries();
  const create = useCreateAnnouncement();
  const update = useUpdateAnnouncement();
  const [values, setValues] = useState<Values>(() => initialValues(announcement));
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const busy = create.isPending || update.isPending;

  const setText = (field: Field) => (event: { target: { value: string } }) => {
    const value = event.target.value;
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };
  const setFlag =
    (field: 'is_active' | 'requires_ack' | 'prompt') => (event: { target: { checked: boolean } }) => {
      const checked = event.target.checked;
      setValues((current) => ({ ...current, [field]: checked }));
    };

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFailure(null);
    setErrors({});
    try {
      const fields = toFields(values);
      const answer = announcement
        ? await update.mutateAsync({ id: announcement.id, ...fields })
        : await create.mutateAsync(fields);
      notify({ kind: 'success', message: answer.msg });
      onSaved();
    } catch (error) {
      const byField = fieldErrorsOf(error);
      const known: Partial<Record<Field, string>> = {};
      for (const field of FIELDS) if (byField[field]) known[field] = byField[field];
      setErrors(known);
      // A message about a field shows under it; any other (failed to create, invalid ID…) above the form.
      if (Object.keys(known).length === 0) setFailure(messageOf(error));
    }
  }

  const countryOptions = (countries.data ?? [])
    .filter((country) => country.supported)
    .map((country) => ({
      value: country.code,
      label: t(`countries.${country.code}`, { defaultValue: country.name }),
    }));

  return (
    <ModalDialog
      title={announcement ? t('announcements.edit_title') : t('announcements.create_title')}
      onClose={onClose}
      closeLabel={t('actions.close_dialog')}
      size="large"
      footer={
        <>
          <button type="button" className="button" onClick={onClose} disabled={busy}>
            {t('actions.cancel')}
          </button>
          <button type="submit" form={formId} className="button button-primary" disabled={busy}>
            {announcement ? t('actions.save') : t('announcements.create')}
          </button>
        </>
      }
    >
      <form id={formId} className="form" onSubmit={submit} noValidate>
        {failure && <FormMessage kind="error">{failure}</FormMessage>}
        <TextField
          label={t('announcements.fields.subject')}
          value={values.subject}
          onChange={setText('subject')}
          error={errors.subject}
          required
        />
        <TextAreaField
          label={t('announcements.fields.content')}
          value={values.content}
          onChange={setText('content')}
          error={errors.content}
          rows={6}
          required
        />
        <div className="form-grid">
          <TextField
            label={t('announcements.fields.start_at')}
            type="datetime-local"
            value={values.start_at}
            onChange={setText('start_at')}
            error={errors.start_at}
            required
          />
          <TextField
            label={t('announcements.fields.end_at')}
            type="datetime-local"
            value={values.end_at}
            onChange={setText('end_at')}
            error={errors.end_at}
            required
          />
          <TextField
            label={t('announcements.fields.priority')}
            type="number"
            inputMode="numeric"
            step={1}
            min={0}
            value={values.priority}
            onChange={setText('priority')}
            error={errors.priority}
            hint={t('announcements.hints.priority')}
            required
          />
          <SelectField
            label={t('announcements.fields.country')}
            value={values.country}
            onChange={setText('country')}
            error={errors.country}
            options={countryOptions}
            placeholder={t('announcements.all_countries')}
          />
        </div>
        <div className="checkbox-row">
          <CheckboxField
            label={t('announcements.fields.is_active')}
            checked={values.is_active}
            onChange={setFlag('is_active')}
          />
          <CheckboxField
            label={t('announcements.fields.requires_ack')}
            checked={values.requires_ack}
            onChange={setFlag('requires_ack')}
          />
          <CheckboxField
            label={t('announcements.fields.prompt')}
            checked={values.prompt}
            onChange={setFlag('prompt')}
          />
        </div>
      </form>
    </ModalDialog>
  );
}
