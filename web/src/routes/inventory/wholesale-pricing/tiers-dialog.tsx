import { tierProblems } from '@domain/inventory/wholesale';
import { ApiFailure } from '@web/api/client';
import {
  useSaveWholesaleTiers,
  useWholesalePricing,
  WHOLESALE_LIMITS,
  type WholesalePricing,
} from '@web/api/wholesale-prices';
import { ModalDialog } from '@web/components/modal-dialog';
import { FormMessage, messageOf } from '@web/shell/form';
import { useMoney } from '@web/shell/format';
import { useNotify } from '@web/shell/notifications';
import { Spinner } from '@web/shell/spinner';
import type { TFunction } from 'i18next';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isDecimal } from '../components/fields';

/**
 * One master code's wholesale tiers (spec §2 /inventory/wholesale-pricing), read afresh, edited as a list of rows
 * (minimum quantity, unit price) and saved as a whole. Every problem shows under its field at once, the console's
 * own checks first (the domain's rule for the quantities), then the API's by the same paths.
 */

interface TierDraft {
  /** A stable React key: rows are added and removed in the middle. */
  key: number;
  min_quantity: string;
  unit_price: string;
}

type TierErrors = Record<number, { min_quantity?: string; unit_price?: string }>;

let nextKey = 0;
const draft = (min_quantity = '', unit_price = ''): TierDraft => ({
  key: nextKey++,
  min_quantity,
  unit_price,
});

function checkTiers(tiers: readonly TierDraft[], t: TFunction<'inventory'>): TierErrors {
  const errors: TierErrors = {};
  const add = (index: number, field: 'min_quantity' | 'unit_price', message: string) => {
    errors[index] = { ...errors[index], [field]: errors[index]?.[field] ?? message };
  };
  const quantities = tiers.map((tier) => ({
    min_quantity: /^\d+$/.test(tier.min_quantity.trim()) ? Number(tier.min_quantity.trim()) : Number.NaN,
  }));
  for (const [index, problem] of tierProblems(quantities))
    add(index, 'min_quantity', t(`wholesale.errors.${problem}`));
  tiers.forEach((tier, index) => {
    const price = tier.unit_price.trim();
    if (!isDecimal(price, 12, 2) || Number(price) === 0)
      add(index, 'unit_price', t('wholesale.errors.price'));
  });
  return errors;
}

/** The API's messages about one tier (`body/tiers/<index>/<field>`), by index and field. */
function serverErrors(error: unknown): TierErrors {
  if (!(error instanceof ApiFailure) || !error.errors) return {};
  const found: TierErrors = {};
  for (const issue of error.errors) {
    const match = /\/tiers\/(\d+)\/(min_quantity|unit_price)$/.exec(issue.path);
    if (!match) continue;
    const index = Number(match[1]);
    const field = match[2] as 'min_quantity' | 'unit_price';
    found[index] = { ...found[index], [field]: found[index]?.[field] ?? issue.message };
  }
  return found;
}

export function WholesaleTiersDialog({
  row,
  onClose,
  onSaved,
}: {
  row: WholesalePricing;
  onClose(): void;
  onSaved(): void;
}) {
  const { t } = useTranslation('inventory');
  const notify = useNotify();
  const money = useMoney();
  const formId = useId();
  const current = useWholesalePricing(row.id);
  const save = useSaveWholesaleTiers();
  const [tiers, setTiers] = useState<TierDraft[] | null>(null);
  const [errors, setErrors] = useState<TierErrors>({});
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    if (current.data && tiers === null) {
      setTiers(current.data.tiers.map((tier) => draft(String(tier.min_quantity), tier.unit_price)));
    }
  }, [current.data, tiers]);

  const change = (index: number, field: 'min_quantity' | 'unit_price', value: string) => {
    setTiers((list) => list?.map((tier, at) => (at === index ? { ...tier, [field]: value } : tier)) ?? null);
    setErrors({});
  };
  const remove = (index: number) => {
    setTiers((list) => list?.filter((_, at) => at !== index) ?? null);
    setErrors({});
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!tiers) return;
    setFailure(null);
    const found = checkTiers(tiers, t);
    setErrors(found);
    if (Object.keys(found).length > 0) {
      setFailure(t('form.check_fields'));
      return;
    }
    try {
      const answer = await save.mutateAsync({
        id: row.id,
        tiers: tiers.map((tier) => ({
          min_quantity: Number(tier.min_quantity.trim()),
          unit_price: tier.unit_price.trim(),
        })),
      });
      notify({ kind: 'success', message: answer.msg });
      onSaved();
    } catch (error) {
      setFailure(messageOf(error));
      setErrors(serverErrors(error));
    }
  }

  const full = (tiers?.length ?? 0) >= WHOLESALE_LIMITS.tiers;

  return (
    <ModalDialog
      title={t('wholesale.dialog_title', { code: row.code })}
      onClose={onClose}
      closeLabel={t('actions.close_dialog')}
      size="large"
      footer={
        <>
          <button type="button" className="button" onClick={onClose} disabled={save.isPending}>
            {t('actions.cancel')}
          </button>
          <button
            type="submit"
            form={formId}
            className="button button-primary"
            disabled={save.isPending || tiers === null}
          >
            {t('wholesale.save')}
          </button>
        </>
      }
    >
      <form id={formId} className="form" onSubmit={submit} noValidate>
        <p className="muted">
          {row.name} ·{' '}
          {t('wholesale.dialog_intro', { price: money(current.data?.unit_price ?? row.unit_price) })}
        </p>
        {failure && <FormMessage kind="error">{failure}</FormMessage>}
        {current.error ? (
          <FormMessage kind="error">{messageOf(current.error)}</FormMessage>
        ) : tiers === null ? (
          <Spinner label={t('loading')} />
        ) : (
          <fieldset className="form-section wholesale-tiers">
            <legend>{t('wholesale.columns.tiers')}</legend>
            {tiers.length === 0 ? (
              <p className="muted">{t('wholesale.no_tiers')}</p>
            ) : (
              <table className="simple-table">
                <thead>
                  <tr>
                    <th scope="col">{t('wholesale.fields.min_quantity')}</th>
                    <th scope="col">{t('wholesale.fields.unit_price')}</th>
                    <th scope="col">
                      <span className="visually-hidden">{t('columns.actions')}</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {tiers.map((tier, index) => {
                    const number = index + 1;
                    const problem = errors[index];
                    return (
                      <tr key={tier.key}>
                        {(['min_quantity', 'unit_price'] as const).map((field) => {
                          const errorId = `${formId}-${tier.key}-${field}-error`;
                          return (
                            <td key={field}>
                              <input
                                className="input"
                                inputMode={field === 'min_quantity' ? 'numeric' : 'decimal'}
                                value={tier[field]}
                                aria-label={t(`wholesale.${field}_of`, { number })}
                                aria-invalid={problem?.[field] ? true : undefined}
                                aria-describedby={problem?.[field] ? errorId : undefined}
                                onChange={(event) => change(index, field, event.target.value)}
                              />
                              {problem?.[field] && (
                                <p id={errorId} className="field-error">
                                  {problem[field]}
                                </p>
                              )}
                            </td>
                          );
                        })}
                        <td>
                          <button
                            type="button"
                            className="button button-small button-danger-outline"
                            aria-label={t('wholesale.remove_tier', { number })}
                            onClick={() => remove(index)}
                          >
                            {t('actions.remove')}
                          </button>
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            )}
            <button
              type="button"
              className="button button-small"
              disabled={full}
              onClick={() => setTiers((list) => [...(list ?? []), draft()])}
            >
              {t('wholesale.add_tier')}
            </button>
            {full && (
              <p className="field-hint">{t('wholesale.errors.too_many', { max: WHOLESALE_LIMITS.tiers })}</p>
            )}
          </fieldset>
        )}
      </form>
    </ModalDialog>
  );
}
