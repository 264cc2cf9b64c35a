import { QUANTITY_MAX, REASON_MAX } from '@web/api/stock';
import { FormMessage, fieldErrorsOf, messageOf, SelectField, TextField } from '@web/shell/form';
import { useNotify } from '@web/shell/notifications';
import { type FormEvent, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  type FullStockMovement,
  HOLD_ACTIONS,
  HOLD_FIGURE,
  HOLD_KINDS,
  type HoldAction,
  type HoldKind,
  useHoldStock,
} from '../stock-common/figures';
import { MasterCodePicker, type PickedMasterCode } from '../stock-common/master-code-picker';
import { PlaceSelect } from '../stock-common/place-select';
import type { AdjustmentTarget } from './adjustment-form';

/**
 * Holding stock (spec §3 stock figures "on hold", "Smart POS on hold", "supplier on hold"): a master code, the
 * warehouse or branch, which hold, put on hold or release, how many and why. Held stock stays on hand but is no
 * longer available online. Like the adjustment form, each distinct submit carries its own idempotency key.
 */

type Field = 'master_code' | 'warehouse' | 'quantity' | 'reason';

const newKey = () => `hold-${crypto.randomUUID()}`;

export function HoldForm({ initial }: { initial: AdjustmentTarget }) {
  const { t, i18n } = useTranslation('stock');
  const notify = useNotify();
  const formId = useId();
  const hold = useHoldStock();
  const [masterCode, setMasterCode] = useState<PickedMasterCode | null>(initial.masterCode);
  const [warehouseId, setWarehouseId] = useState(initial.warehouseId);
  const [kind, setKind] = useState<HoldKind>('online');
  const [action, setAction] = useState<HoldAction>('hold');
  const [quantity, setQuantity] = useState('');
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [result, setResult] = useState<FullStockMovement | null>(null);
  const key = useRef(newKey());

  /** Any change makes the next submit a new movement. */
  const changed = (field?: Field) => {
    key.current = newKey();
    if (field) setErrors((current) => ({ ...current, [field]: undefined }));
  };

  function check(): Partial<Record<Field, string>> {
    const found: Partial<Record<Field, string>> = {};
    if (!masterCode) found.master_code = t('hold.errors.master_code');
    if (!warehouseId) found.warehouse = t('hold.errors.warehouse');
    const text = quantity.trim();
    const value = /^\d+$/.test(text) ? Number(text) : Number.NaN;
    if (!Number.isInteger(value) || value < 1 || value > QUANTITY_MAX)
      found.quantity = t('hold.errors.quantity', { max: QUANTITY_MAX.toLocaleString(i18n.language) });
    if (reason.trim().length > REASON_MAX) found.reason = t('hold.errors.reason', { max: REASON_MAX });
    return found;
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (hold.isPending) return;
    setFailure(null);
    const found = check();
    setErrors(found);
    if (Object.values(found).some(Boolean) || !masterCode) return;
    try {
      const answer = await hold.mutateAsync({
        key: key.current,
        body: {
          master_code_id: masterCode.id,
          warehouse_id: warehouseId,
          hold: kind,
          action,
          quantity: Number(quantity.trim()),
          ...(reason.trim() ? { reason: reason.trim() } : {}),
        },
      });
      key.current = newKey();
      setResult(answer.data);
      setQuantity('');
      setReason('');
      notify({ kind: 'success', message: answer.msg });
    } catch (error) {
      setFailure(messageOf(error));
      const fields = fieldErrorsOf(error);
      setErrors({
        ...(fields.master_code_id ? { master_code: fields.master_code_id } : {}),
        ...(fields.warehouse_id ? { warehouse: fields.warehouse_id } : {}),
        ...(fields.quantity ? { quantity: fields.quantity } : {}),
        ...(fields.reason ? { reason: fields.reason } : {}),
      });
    }
  }

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
      <form id={formId} className="form" onSubmit={submit} noValidate aria-label={t('hold.form_label')}>
        {failure && <FormMessage kind="error">{failure}</FormMessage>}
        {resultText && !failure && <FormMessage kind="success">{resultText}</FormMessage>}
        <div className="form-grid">
          <MasterCodePicker
            label={t('hold.fields.master_code')}
            value={masterCode}
            onChange={(value) => {
              setMasterCode(value);
              changed('master_code');
            }}
            error={errors.master_code}
            type="standard"
            required
          />
          <PlaceSelect
            label={t('hold.fields.warehouse')}
            value={warehouseId}
            onChange={(id) => {
              setWarehouseId(id);
              changed('warehouse');
            }}
            error={errors.warehouse}
            required
          />
          <SelectField
            label={t('hold.fields.kind')}
            value={kind}
            onChange={(event) => {
              setKind(event.target.value as HoldKind);
              changed();
            }}
            options={HOLD_KINDS.map((value) => ({ value, label: t(`hold.kinds.${value}`) }))}
            required
          />
          <SelectField
            label={t('hold.fields.action')}
            value={action}
            onChange={(event) => {
              setAction(event.target.value as HoldAction);
              changed();
            }}
            options={HOLD_ACTIONS.map((value) => ({ value, label: t(`hold.actions.${value}`) }))}
            hint={t(`hold.hints.${action}`)}
            required
          />
          <TextField
            label={t('hold.fields.quantity')}
            type="number"
            inputMode="numeric"
            min={1}
            max={QUANTITY_MAX}
            step={1}
            value={quantity}
            onChange={(event) => {
              setQuantity(event.target.value);
              changed('quantity');
            }}
            error={errors.quantity}
            required
          />
        </div>
        <TextField
          label={t('hold.fields.reason')}
          value={reason}
          maxLength={REASON_MAX}
          onChange={(event) => {
            setReason(event.target.value);
            changed('reason');
          }}
          error={errors.reason}
          hint={t('adjust.hints.reason')}
        />
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
