import type { CompanyBody } from '@api/contracts/printing';
import { useCompany, useSaveCompany } from '@web/api/account';
import { useLogoUrl, useRemoveLogo, useUploadLogo } from '@web/api/printing';
import { CompanyFields } from '@web/components/company-fields';
import { FormMessage, fieldErrorsOf, messageOf } from '@web/shell/form';
import { useNotify } from '@web/shell/notifications';
import { PageHeader } from '@web/shell/page';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import '@web/routes/management.css';

/**
 * Settings → company: the name, address, contact and logo every printed document (invoice, packing list, check
 * list, delivery order) carries at its top; the same details the print settings show beside the documents' layout.
 */
export default function CompanyPage() {
  const { t } = useTranslation('account');
  const notify = useNotify();
  const company = useCompany();
  const save = useSaveCompany();
  const upload = useUploadLogo();
  const remove = useRemoveLogo();
  const logoInput = useId();
  const [values, setValues] = useState<CompanyBody | null>(null);
  const [error, setError] = useState<unknown>(null);
  const logoUrl = useLogoUrl(Boolean(company.data?.logo), company.data?.updated_at ?? null);

  useEffect(() => {
    if (company.data && values === null) setValues(company.data.company);
  }, [company.data, values]);

  if (company.isError) return <FormMessage kind="error">{messageOf(company.error)}</FormMessage>;
  if (!company.data || !values) return <p className="muted">{t('company.loading')}</p>;
  const errors = fieldErrorsOf(error);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!values) return;
    setError(null);
    try {
      notify({ kind: 'success', message: (await save.mutateAsync(values)).msg });
    } catch (failure) {
      setError(failure);
    }
  }

  async function run(action: () => Promise<{ msg: string }>) {
    try {
      notify({ kind: 'success', message: (await action()).msg });
    } catch (failure) {
      notify({ kind: 'error', message: messageOf(failure) });
    }
  }

  return (
    <div className="page management-page">
      <PageHeader title={t('company.title')} intro={t('company.intro')} />
      <form className="form-section" onSubmit={submit} noValidate aria-label={t('company.title')}>
        {error !== null && <FormMessage kind="error">{messageOf(error)}</FormMessage>}
        <CompanyFields
          values={values}
          errors={errors}
          onChange={(field, value) => setValues({ ...values, [field]: value })}
        />
        <button type="submit" className="button button-primary" disabled={save.isPending}>
          {t('company.save')}
        </button>
      </form>
      <section className="form-section" aria-label={t('company.logo')}>
        <h2>{t('company.logo')}</h2>
        {company.data.logo && logoUrl.data ? (
          <img src={logoUrl.data} alt={t('company.logo')} style={{ maxHeight: 80 }} />
        ) : (
          <p className="muted">{t('company.no_logo')}</p>
        )}
        <label htmlFor={logoInput} className="field-label">
          {t('company.upload_logo')}
        </label>
        <input
          id={logoInput}
          type="file"
          accept="image/png,image/jpeg"
          onChange={(event) => {
            const file = event.target.files?.[0];
            if (file) void run(() => upload.mutateAsync(file));
          }}
        />
        <p className="field-hint">
          {t('company.logo_hint', { max: company.data.options.logo_max_bytes / 1024 })}
        </p>
        {company.data.logo && (
          <button type="button" className="button" onClick={() => void run(() => remove.mutateAsync())}>
            {t('company.remove_logo')}
          </button>
        )}
      </section>
    </div>
  );
}
