import { ADJUST_MODES, type AdjustMode, useAdjustStock } from '@web/api/stock';
import { FormMessage, SelectField } from '@web/shell/form';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type AdjustmentTarget, useMovementForm } from './movement-form';

/**
 * One stock adjustment: a master code, the warehouse or branch, add / deduct / set to a counted quantity, and why.
 * Each distinct submit carries its own idempotency key, kept until the values change or the adjustment is made, so
 * a double click or a retry after a lost answer moves the stock once.
 */
export function AdjustmentForm({ initial }: { initial: AdjustmentTarget }) {
  const { t, i18n } = useTranslation('stock');
  const formId = useId();
  const adjust = useAdjustStock();
  const [mode, setMode] = useState<AdjustMode>('add');
  const form = useMovementForm({
    initial,
    texts: 'adjust',
    least: mode === 'set' ? 0 : 1,
    quantityError: mode === 'set' ? 'adjust.errors.set_quantity' : 'adjust.errors.quantity',
    send: (body, key) => adjust.mutateAsync({ key, body: { ...body, mode } }),
    busy: adjust.isPending,
  });
  const { result, failure } = form;
  const number = new Intl.NumberFormat(i18n.language);

  return (
    <section className="card" aria-labelledby={`${formId}-title`}>
      <h2 id={`${formId}-title`}>{t('adjust.single_title')}</h2>
      <form
        id={formId}
        className="form"
        onSubmit={form.submit}
        noValidate
        aria-label={t('adjust.form_label')}
      >
        {failure && <FormMessage kind="error">{failure}</FormMessage>}
        {result && !failure && (
          <FormMessage kind="success">
            {t('adjust.result', {
              code: result.master_code.code,
              warehouse: result.warehouse.code,
              before: number.format(result.previous_stock),
              after: number.format(result.on_hand),
            })}
          </FormMessage>
        )}
        {form.fields(
          <SelectField
            label={t('adjust.fields.mode')}
            value={mode}
            onChange={(event) => {
              setMode(event.target.value as AdjustMode);
              form.changed('quantity');
            }}
            options={ADJUST_MODES.map((value) => ({ value, label: t(`modes.${value}`) }))}
            hint={t(`adjust.hints.${mode}`)}
            required
          />,
        )}
        <div className="form-actions">
          <button type="submit" className="button button-primary" disabled={adjust.isPending}>
            {adjust.isPending ? t('adjust.submitting') : t('adjust.submit')}
          </button>
        </div>
      </form>
    </section>
  );
}
