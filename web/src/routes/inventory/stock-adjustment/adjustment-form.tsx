import {
  ADJUST_MODES,
  type AdjustMode,
  QUANTITY_MAX,
  REASON_MAX,
  type StockMovement,
  useAdjustStock,
} from '@web/api/stock';
import { FormMessage, fieldErrorsOf, messageOf, SelectField, TextField } from '@web/shell/form';
import { useNotify } from '@web/shell/notifications';
import { type FormEvent, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MasterCodePicker, type PickedMasterCode } from '../stock-common/master-code-picker';
import { PlaceSelect } from '../stock-common/place-select';

/**
 * One stock adjustment: a master code, the warehouse or branch, add / deduct / set to a counted quantity, and why.
 * Each distinct submit carries its own idempotency key, kept until the values change or the adjustment is made, so
 * a double click or a retry after a lost answer moves the stock once.
 */

type Field = 'master_code' | 'warehouse' | 'quantity' | 'reason';

export interface AdjustmentTarget {
  masterCode: PickedMasterCode | null;
  warehouseId: string;
}

const newKey = () => `adjust-${crypto.randomUUID()}`;

export function AdjustmentForm({ initial }: { initial: AdjustmentTarget }) {
  const { t, i18n } = useTranslation('stock');
  const notify = useNotify();
  const formId = useId();
  const adjust = useAdjustStock();
  const [masterCode, setMasterCode] = useState<PickedMasterCode | null>(initial.masterCode);
  const [warehouseId, setWarehouseId] = useState(initial.warehouseId);
  const [mode, setMode] = useState<AdjustMode>('add');
  const [quantity, setQuantity] = useState('');
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [result, setResult] = useState<StockMovement | null>(null);
  const key = useRef(newKey());

  /** Any change makes the next submit a new adjustment. */
  const changed = (field: Field) => {
    key.current = newKey();
    setErrors((current) => ({ ...current, [field]: undefined }));
  };

  function check(): Partial<Record<Field, string>> {
    const found: Partial<Record<Field, string>> = {};
    if (!masterCode) found.master_code = t('adjust.errors.master_code');
    if (!warehouseId) found.warehouse = t('adjust.errors.warehouse');
    const text = quantity.trim();
    const value = /^\d+$/.test(text) ? Number(text) : Number.NaN;
    const min = mode === 'set' ? 0 : 1;
    if (!Number.isInteger(value) || value < min || value > QUANTITY_MAX)
      found.quantity = t(mode === 'set' ? 'adjust.errors.set_quantity' : 'adjust.errors.quantity', {
        max: QUANTITY_MAX.toLocaleString(i18n.language),
      });
    if (reason.trim().length > REASON_MAX) found.reason = t('adjust.errors.reason', { max: REASON_MAX });
    return found;
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (adjust.isPending) return;
    setFailure(null);
    const found = check();
    setErrors(found);
    if (Object.values(found).some(Boolean) || !masterCode) return;
    try {
      const answer = await adjust.mutateAsync({
        key: key.current,
        body: {
          master_code_id: masterCode.id,
          warehouse_id: warehouseId,
          mode,
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

  return (
    <section className="card" aria-labelledby={`${formId}-title`}>
      <h2 id={`${formId}-title`}>{t('adjust.single_title')}</h2>
      <form id={formId} className="form" onSubmit={submit} noValidate aria-label={t('adjust.form_label')}>
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
        <div className="form-grid">
          <MasterCodePicker
            label={t('adjust.fields.master_code')}
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
            label={t('adjust.fields.warehouse')}
            value={warehouseId}
            onChange={(id) => {
              setWarehouseId(id);
              changed('warehouse');
            }}
            error={errors.warehouse}
            required
          />
          <SelectField
            label={t('adjust.fields.mode')}
            value={mode}
            onChange={(event) => {
              setMode(event.target.value as AdjustMode);
              changed('quantity');
            }}
            options={ADJUST_MODES.map((value) => ({ value, label: t(`modes.${value}`) }))}
            hint={t(`adjust.hints.${mode}`)}
            required
          />
          <TextField
            label={t('adjust.fields.quantity')}
            type="number"
            inputMode="numeric"
            min={mode === 'set' ? 0 : 1}
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
          label={t('adjust.fields.reason')}
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
          <button type="submit" className="button button-primary" disabled={adjust.isPending}>
            {adjust.isPending ? t('adjust.submitting') : t('adjust.submit')}
          </button>
        </div>
      </form>
    </section>
  );
}
