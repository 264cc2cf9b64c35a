import {
  ADDRESS_DISPLAYS,
  type DocumentSettingsAnswer,
  DRAWN_DOCUMENTS,
  type DrawnDocument,
  FONT_SIZES,
  LOGO_POSITIONS,
  type PrintSettingsBody,
  SETTINGS_KEY,
  useLogoUrl,
  usePrintSettings,
  useRemoveLogo,
  useSavePrintSettings,
  useUploadLogo,
} from '@web/api/printing';
import { useSession } from '@web/auth/session';
import { CompanyFields } from '@web/components/company-fields';
import { FormMessage, fieldErrorsOf, messageOf, SelectField } from '@web/shell/form';
import { useNotify } from '@web/shell/notifications';
import { PageHeader } from '@web/shell/page';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import './printing.css';

/**
 * Orders → Print settings (spec §2 "printing settings for invoice, AWB, delivery order, pack list and check list";
 * §9 logo positions, address display, font sizes): the company details printed at the top of every document, the
 * logo (PNG or JPEG), and per document its logo position, address display and font size. Everyone may look;
 * holders of orders-customize-delivery-order (and the owner) change them. The air waybill is the marketplace's own.
 */

type Documents = PrintSettingsBody['documents'];
type CompanyDetails = PrintSettingsBody['company'];

export default function PrintSettingsPage() {
  const { t } = useTranslation('printing');
  const { can } = useSession();
  const notify = useNotify();
  const settings = usePrintSettings();
  const save = useSavePrintSettings();
  const upload = useUploadLogo();
  const remove = useRemoveLogo();
  const logoInput = useId();
  const editable = can(SETTINGS_KEY);
  const [company, setCompany] = useState<CompanyDetails | null>(null);
  const [documents, setDocuments] = useState<Documents | null>(null);
  const [error, setError] = useState<unknown>(null);
  const logoUrl = useLogoUrl(
    settings.data?.logo !== null && settings.data !== undefined,
    settings.data?.updated_at ?? null,
  );

  useEffect(() => {
    if (settings.data && company === null) {
      setCompany(settings.data.company);
      setDocuments(settings.data.documents);
    }
  }, [settings.data, company]);

  if (settings.isError) return <FormMessage kind="error">{messageOf(settings.error)}</FormMessage>;
  if (!settings.data || !company || !documents) {
    return (
      <p className="muted" role="status">
        {t('settings.loading')}
      </p>
    );
  }
  const fieldErrors = fieldErrorsOf(error);
  const setDocument =
    (document: DrawnDocument, field: keyof DocumentSettingsAnswer) =>
    (event: { target: { value: string } }) =>
      setDocuments({ ...documents, [document]: { ...documents[document], [field]: event.target.value } });

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!company || !documents) return;
    setError(null);
    try {
      const answer = await save.mutateAsync({ company, documents });
      notify({ kind: 'success', message: answer.msg });
    } catch (failure) {
      setError(failure);
    }
  }

  async function chooseLogo(file: File | undefined) {
    if (!file) return;
    try {
      const answer = await upload.mutateAsync(file);
      notify({ kind: 'success', message: answer.msg });
    } catch (failure) {
      notify({ kind: 'error', message: messageOf(failure) });
    }
  }

  return (
    <div className="page management-page print-settings-page">
      <PageHeader title={t('settings.title')} intro={t('settings.intro')}>
        <Link className="button" to="/orders/print-log">
          {t('nav.log')}
        </Link>
      </PageHeader>
      {!editable && <FormMessage kind="info">{t('settings.read_only')}</FormMessage>}
      <form className="print-settings" onSubmit={submit} noValidate>
        {error !== null && <FormMessage kind="error">{messageOf(error)}</FormMessage>}
        <fieldset className="form-section" disabled={!editable}>
          <legend>{t('settings.company')}</legend>
          <CompanyFields
            values={company}
            errors={fieldErrors}
            onChange={(field, value) => setCompany({ ...company, [field]: value })}
          />
        </fieldset>

        <fieldset className="form-section" disabled={!editable}>
          <legend>{t('settings.logo')}</legend>
          <div className="print-logo">
            {settings.data.logo && logoUrl.data ? (
              <img src={logoUrl.data} alt={t('settings.logo_alt')} className="print-logo-preview" />
            ) : (
              <p className="muted">{t('settings.no_logo')}</p>
            )}
            <div className="print-logo-actions">
              <label htmlFor={logoInput} className="field-label">
                {t('settings.upload_logo')}
              </label>
              <input
                id={logoInput}
                type="file"
                accept="image/png,image/jpeg"
                disabled={!editable || upload.isPending}
                onChange={(event) => {
                  void chooseLogo(event.target.files?.[0]);
                  event.target.value = '';
                }}
              />
              <p className="field-hint">
                {t('settings.logo_hint', { max: settings.data.options.logo_max_bytes / 1024 })}
              </p>
              {settings.data.logo && (
                <button
                  type="button"
                  className="button button-small"
                  disabled={remove.isPending}
                  onClick={async () => {
                    try {
                      notify({ kind: 'success', message: (await remove.mutateAsync()).msg });
                    } catch (failure) {
                      notify({ kind: 'error', message: messageOf(failure) });
                    }
                  }}
                >
                  {t('settings.remove_logo')}
                </button>
              )}
            </div>
          </div>
        </fieldset>

        <fieldset className="form-section" disabled={!editable}>
          <legend>{t('settings.documents')}</legend>
          <table className="print-documents-table">
            <thead>
              <tr>
                <th scope="col">{t('settings.document')}</th>
                <th scope="col">{t('settings.logo_position')}</th>
                <th scope="col">{t('settings.address_display')}</th>
                <th scope="col">{t('settings.font_size')}</th>
              </tr>
            </thead>
            <tbody>
              {DRAWN_DOCUMENTS.map((document) => (
                <tr key={document}>
                  <th scope="row">{t(`documents.${document}`)}</th>
                  <td>
                    <SelectField
                      label={t('settings.logo_position_for', { document: t(`documents.${document}`) })}
                      value={documents[document].logo_position}
                      onChange={setDocument(document, 'logo_position')}
                      options={LOGO_POSITIONS.map((value) => ({
                        value,
                        label: t(`logo_positions.${value}`),
                      }))}
                    />
                  </td>
                  <td>
                    <SelectField
                      label={t('settings.address_display_for', { document: t(`documents.${document}`) })}
                      value={documents[document].address_display}
                      onChange={setDocument(document, 'address_display')}
                      options={ADDRESS_DISPLAYS.map((value) => ({
                        value,
                        label: t(`address_displays.${value}`),
                      }))}
                    />
                  </td>
                  <td>
                    <SelectField
                      label={t('settings.font_size_for', { document: t(`documents.${document}`) })}
                      value={documents[document].font_size}
                      onChange={setDocument(document, 'font_size')}
                      options={FONT_SIZES.map((value) => ({ value, label: t(`font_sizes.${value}`) }))}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <p className="field-hint">{t('settings.awb_note')}</p>
        </fieldset>
        {editable && (
          <div className="form-row-end">
            <button type="submit" className="button button-primary" disabled={save.isPending}>
              {t('settings.save')}
            </button>
          </div>
        )}
      </form>
    </div>
  );
}
