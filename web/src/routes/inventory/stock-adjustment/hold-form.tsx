import {
  HOLD_ACTIONS,
  HOLD_FIGURE,
  HOLD_KINDS,
  type HoldAction,
  type HoldKind,
  useHoldStock,
} from '@web/api/stock';
import { FormMessage, SelectField } from '@web/shell/form';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type AdjustmentTarget, useMovementForm } from './movement-form';

/**
 * Holding stock (spec §3 stock figures "on hold", "Smart POS on hold", "supplier on hold"): a master code, the
 * warehouse or branch, which hold, put on hold or release, how many and why. Held stock stays on hand but is no
 * longer available online. Like the adjustment form, each distinct submit carries its own idempotency key.
 */
export function HoldForm({ initial }: { initial: AdjustmentTarget }) {
  const { t, i18n } = useTranslation('stock');
  const formId = useId();
  const hold = useHoldStock();
  const [kind, setKind] = useState<HoldKind>('online');
  const [action, setAction] = useState<HoldAction>('hold');
  const form = useMovementForm({
    initial,
    texts: 'hold',
    least: 1,
    quantityError: 'hold.errors.quantity',
    send: (body, key) => hold.mutateAsync({ key, body: { ...body, hold: kind, action } }),
    busy: hold.isPending,
  });
  const { result, failure } = form;

  const number = new Intl.NumberFormat(i18n.language);
  const resultKind = result?.mode as HoldKind | undefined;
  const resultText =
    result && resultKind && resultKind in HOLD_FIGURE
      ? (() => {
          const after = result[HOLD_FIGURE[resultKind]];
          const before = result.action === 'StockHeld' ? after - result.quantity : after + result.quantity;
          return t('hold.result', {
            code: result.master_code.code,
            warehouse: result.warehouse.code,
            hold: t(`hold.kinds.${resultKind}`),
            before: number.format(before),
            after: number.format(after),
            available: number.format(result.available),
          });
        })()
      : null;

  return (
    <section className="card" aria-labelledby={`${formId}-title`}>
      <h2 id={`${formId}-title`}>{t('hold.title')}</h2>
      <p className="muted">{t('hold.intro')}</p>
      <form id={formId} className="form" onSubmit={form.submit} noValidate aria-label={t('hold.form_label')}>
        {failure && <FormMessage kind="error">{failure}</FormMessage>}
        {resultText && !failure && <FormMessage kind="success">{resultText}</FormMessage>}
        {form.fields(
          <>
            <SelectField
              label={t('hold.fields.kind')}
              value={kind}
              onChange={(event) => {
                setKind(event.target.value as HoldKind);
                form.changed();
              }}
              options={HOLD_KINDS.map((value) => ({ value, label: t(`hold.kinds.${value}`) }))}
              required
            />
            <SelectField
              label={t('hold.fields.action')}
              value={action}
              onChange={(event) => {
                setAction(event.target.value as HoldAction);
                form.changed();
              }}
              options={HOLD_ACTIONS.map((value) => ({ value, label: t(`hold.actions.${value}`) }))}
              hint={t(`hold.hints.${action}`)}
              required
            />
          </>,
        )}
        <div className="form-actions">
          <button type="submit" className="button button-primary" disabled={hold.isPending}>
            {hold.isPending
              ? t('hold.submitting')
              : action === 'hold'
                ? t('hold.submit_hold')
                : t('hold.submit_release')}
          </button>
        </div>
      </form>
    </section>
  );
}
