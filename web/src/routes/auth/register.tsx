import type { CodeSent, RegisterRequest } from '@api/contracts/accounts';
import {
  ACCOUNTING_SYSTEMS,
  AVERAGE_ORDERS,
  FOUND_US,
  LOOKING_FOR,
  WAREHOUSE_SIZES,
} from '@domain/access/sign-up';
import type { Country } from '@domain/lookups';
import { TEXT_LIMITS } from '@domain/shared/limits';
import { useQuery } from '@tanstack/react-query';
import { type Answer, api, apiData } from '@web/api/client';
import { passwordIsStrong, SIGN_UP_COUNTRIES } from '@web/config';
import {
  CheckboxField,
  FormMessage,
  fieldErrorsOf,
  messageOf,
  SelectField,
  TextField,
} from '@web/shell/form';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import type { z } from 'zod';
import { AuthFrame } from './auth-frame';

/**
 * Self-registration (spec §2, §5): the account and business questions, checked here first (required fields,
 * password rule, matching confirmation, terms), then `POST /api/register`, which mails the 6-digit code the next
 * step asks for.
 */

/** The form's text fields, each as typed (the contract trims and checks them). */
type Form = Record<Exclude<keyof z.input<typeof RegisterRequest>, 'agree_terms'>, string>;

const EMPTY: Form = {
  first_name: '',
  last_name: '',
  phone: '',
  email: '',
  country: '',
  password: '',
  confirm_password: '',
  promo_code: '',
  store_name: '',
  average_orders: '',
  warehouse_size: '',
  accounting_system: '',
  found_us: '',
  looking_for: '',
};
type FieldName = keyof Form | 'agree_terms';

const REQUIRED: (keyof Form)[] = [
  'first_name',
  'last_name',
  'phone',
  'email',
  'country',
  'password',
  'confirm_password',
  'store_name',
  'average_orders',
  'warehouse_size',
  'accounting_system',
  'found_us',
  'looking_for',
];

export default function Register() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const [form, setForm] = useState<Form>(EMPTY);
  const [agree, setAgree] = useState(false);
  const [errors, setErrors] = useState<Partial<Record<FieldName, string>>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [sending, setSending] = useState(false);

  const countries = useQuery({
    queryKey: ['lookup', 'countries'],
    queryFn: () => apiData<Country[]>('/api/lookup/countries'),
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
  const countryCodes = countries.data
    ? countries.data.filter((country) => country.supported).map((country) => country.code)
    : [...SIGN_UP_COUNTRIES];

  const set = (name: keyof Form) => (event: { target: { value: string } }) =>
    setForm((current) => ({ ...current, [name]: event.target.value }));

  const check = (): Partial<Record<FieldName, string>> => {
    const found: Partial<Record<FieldName, string>> = {};
    for (const name of REQUIRED) {
      if (!form[name].trim()) found[name] = t('common:validation.required');
    }
    if (form.email.trim() && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(form.email.trim())) {
      found.email = t('register.email_invalid');
    }
    if (form.password && !passwordIsStrong(form.password)) found.password = t('register.password_rule');
    if (form.confirm_password && form.confirm_password !== form.password) {
      found.confirm_password = t('register.password_mismatch');
    }
    if (!agree) found.agree_terms = t('register.terms_required');
    return found;
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = check();
    setErrors(found);
    setFailure(null);
    if (Object.keys(found).length > 0) {
      setFailure(t('register.fix_errors'));
      return;
    }
    setSending(true);
    try {
      const email = form.email.trim();
      const answer = await api<Answer<CodeSent>>('/api/register', {
        method: 'POST',
        body: {
          ...form,
          email,
          promo_code: form.promo_code.trim() || undefined,
          agree_terms: true,
        } satisfies Record<keyof z.input<typeof RegisterRequest>, unknown>,
      });
      navigate(`/register/verify?email=${encodeURIComponent(answer.data.email)}`, {
        state: { sent: answer.msg },
      });
    } catch (error) {
      setErrors(fieldErrorsOf(error));
      setFailure(messageOf(error));
    } finally {
      setSending(false);
    }
  };

  const choices = (question: string, values: readonly string[]) =>
    values.map((value) => ({ value, label: t(`register.${question}.${value}`) }));

  const field = (name: keyof Form) => ({
    name,
    value: form[name],
    onChange: set(name),
    error: errors[name],
    required: REQUIRED.includes(name),
  });

  return (
    <AuthFrame title={t('register.title')} subtitle={t('register.subtitle')} wide>
      {failure && <FormMessage kind="error">{failure}</FormMessage>}
      <form className="form" onSubmit={submit} noValidate>
        <fieldset className="form-section">
          <legend>{t('register.account_section')}</legend>
          <div className="form-grid">
            <TextField
              label={t('register.first_name')}
              autoComplete="given-name"
              limit={TEXT_LIMITS.name}
              {...field('first_name')}
            />
            <TextField
              label={t('register.last_name')}
              autoComplete="family-name"
              limit={TEXT_LIMITS.name}
              {...field('last_name')}
            />
            <TextField
              label={t('register.phone')}
              type="tel"
              autoComplete="tel"
              maxLength={24}
              {...field('phone')}
            />
            <TextField
              label={t('register.email')}
              type="email"
              autoComplete="email"
              limit={TEXT_LIMITS.email}
              {...field('email')}
            />
            <SelectField
              label={t('register.country')}
              placeholder={t('common:select_placeholder')}
              options={countryCodes.map((code) => ({ value: code, label: t(`common:countries.${code}`) }))}
              {...field('country')}
            />
            <TextField label={t('register.promo_code')} maxLength={40} {...field('promo_code')} />
            <TextField
              label={t('register.password')}
              type="password"
              autoComplete="new-password"
              maxLength={200}
              hint={t('register.password_rule')}
              {...field('password')}
            />
            <TextField
              label={t('register.confirm_password')}
              type="password"
              autoComplete="new-password"
              maxLength={200}
              {...field('confirm_password')}
            />
          </div>
        </fieldset>
        <fieldset className="form-section">
          <legend>{t('register.business_section')}</legend>
          <div className="form-grid">
            <TextField
              label={t('register.store_name')}
              autoComplete="organization"
              limit={TEXT_LIMITS.name}
              {...field('store_name')}
            />
            <SelectField
              label={t('register.average_orders.label')}
              placeholder={t('common:select_placeholder')}
              options={choices('average_orders', AVERAGE_ORDERS)}
              {...field('average_orders')}
            />
            <SelectField
              label={t('register.warehouse_size.label')}
              placeholder={t('common:select_placeholder')}
              options={choices('warehouse_size', WAREHOUSE_SIZES)}
              {...field('warehouse_size')}
            />
            <SelectField
              label={t('register.accounting_system.label')}
              placeholder={t('common:select_placeholder')}
              options={choices('accounting_system', ACCOUNTING_SYSTEMS)}
              {...field('accounting_system')}
            />
            <SelectField
              label={t('register.found_us.label')}
              placeholder={t('common:select_placeholder')}
              options={choices('found_us', FOUND_US)}
              {...field('found_us')}
            />
            <SelectField
              label={t('register.looking_for.label')}
              placeholder={t('common:select_placeholder')}
              options={choices('looking_for', LOOKING_FOR)}
              {...field('looking_for')}
            />
          </div>
        </fieldset>
        <CheckboxField
          label={t('register.agree_terms')}
          name="agree_terms"
          checked={agree}
          onChange={(event) => setAgree(event.target.checked)}
          error={errors.agree_terms}
          required
        />
        <button type="submit" className="button button-primary button-block" disabled={sending}>
          {t('register.submit')}
        </button>
      </form>
      <p className="auth-footer">
        {t('register.have_account')} <Link to="/login">{t('register.sign_in')}</Link>
      </p>
    </AuthFrame>
  );
}
