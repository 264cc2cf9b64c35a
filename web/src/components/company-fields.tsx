import type { CompanyBody } from '@api/contracts/printing';
import { COMPANY_LIMITS } from '@domain/printing/settings';
import { TextAreaField, TextField } from '@web/shell/form';
import { useTranslation } from 'react-i18next';

/**
 * The company details printed documents carry, as Settings → company and the print settings both edit them: one
 * set of fields, each bounded by its limit and showing the API's message for it.
 */
export function CompanyFields({
  values,
  errors,
  onChange,
}: {
  values: CompanyBody;
  errors: Record<string, string>;
  onChange(field: keyof CompanyBody, value: string): void;
}) {
  const { t } = useTranslation('account');
  const field = (name: keyof CompanyBody, limit: number) => ({
    label: t(`company.${name}`),
    value: values[name],
    onChange: (event: { target: { value: string } }) => onChange(name, event.target.value),
    error: errors[name],
    limit,
  });
  return (
    <>
      <div className="form-grid">
        <TextField {...field('name', COMPANY_LIMITS.name)} />
        <TextField {...field('registration_no', COMPANY_LIMITS.registrationNo)} />
        <TextField type="tel" {...field('phone', COMPANY_LIMITS.phone)} />
        <TextField type="email" {...field('email', COMPANY_LIMITS.email)} />
      </div>
      <TextAreaField rows={3} {...field('address', COMPANY_LIMITS.address)} />
    </>
  );
}
