import { TEXT_LIMITS } from '@domain/shared/limits';
import type { Answer } from '@web/api/client';
import { QUANTITY_MAX, type StockMovement } from '@web/api/stock';
import { fieldErrorsOf, messageOf, TextField } from '@web/shell/form';
import { useNotify } from '@web/shell/notifications';
import { type FormEvent, type ReactNode, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MasterCodePicker, type PickedMasterCode } from '../stock-common/master-code-picker';
import { PlaceSelect } from '../stock-common/place-select';

/**
 * What the forms that move one stock share (an adjustment, a hold): a master code, the warehouse or branch, how
 * many and why, checked before sending. Each distinct submit carries its own idempotency key, kept until a value
 * changes or the movement is made, so a double click or a retry after a lost answer moves the stock once.
 */

type Field = 'master_code' | 'warehouse' | 'quantity' | 'reason';

export interface AdjustmentTarget {
  masterCode: PickedMasterCode | null;
  warehouseId: string;
}

export interface MovementBody {
  master_code_id: string;
  warehouse_id: string;
  quantity: number;
  reason?: string;
}

export function useMovementForm({
  initial,
  texts,
  least,
  quantityError,
  send,
  busy,
}: {
  initial: AdjustmentTarget;
  /** The form's messages (`<texts>.errors.*`, `<texts>.fields.*`) and its idempotency keys' prefix. */
  texts: 'adjust' | 'hold';
  /** The smallest quantity the movement takes. */
  least: number;
  /** The message key of a quantity out of bounds. */
  quantityError: string;
  send(body: MovementBody, key: string): Promise<Answer<StockMovement>>;
  busy: boolean;
}) {
  const { t, i18n } = useTranslation('stock');
  const notify = useNotify();
  const newKey = () => `${texts}-${crypto.randomUUID()}`;
  const [masterCode, setMasterCode] = useState<PickedMasterCode | null>(initial.masterCode);
  const [warehouseId, setWarehouseId] = useState(initial.warehouseId);
  const [quantity, setQuantity] = useState('');
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [result, setResult] = useState<StockMovement | null>(null);
  const key = useRef(newKey());

  /** Any change makes the next submit a new movement. */
  const changed = (field?: Field) => {
    key.current = newKey();
    if (field) setErrors((current) => ({ ...current, [field]: undefined }));
  };

  function check(): Partial<Record<Field, string>> {
    const found: Partial<Record<Field, string>> = {};
    if (!masterCode) found.master_code = t(`${texts}.errors.master_code`);
    if (!warehouseId) found.warehouse = t(`${texts}.errors.warehouse`);
    const text = quantity.trim();
    const value = /^\d+$/.test(text) ? Number(text) : Number.NaN;
    if (!Number.isInteger(value) || value < least || value > QUANTITY_MAX)
      found.quantity = t(quantityError, { max: QUANTITY_MAX.toLocaleString(i18n.language) });
    if (reason.trim().length > TEXT_LIMITS.reason)
      found.reason = t(`${texts}.errors.reason`, { max: TEXT_LIMITS.reason });
    return found;
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    setFailure(null);
    const found = check();
    setErrors(found);
    if (Object.values(found).some(Boolean) || !masterCode) return;
    try {
      const answer = await send(
        {
          master_code_id: masterCode.id,
          warehouse_id: warehouseId,
          quantity: Number(quantity.trim()),
          ...(reason.trim() ? { reason: reason.trim() } : {}),
        },
        key.current,
      );
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

  /** The form's fields: the master code, the place, `children` (what kind of movement), how many, then why. */
  const fields = (children: ReactNode) => (
    <>
      <div className="form-grid">
        <MasterCodePicker
          label={t(`${texts}.fields.master_code`)}
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
          label={t(`${texts}.fields.warehouse`)}
          value={warehouseId}
          onChange={(id) => {
            setWarehouseId(id);
            changed('warehouse');
          }}
          error={errors.warehouse}
          required
        />
        {children}
        <TextField
          label={t(`${texts}.fields.quantity`)}
          type="number"
          inputMode="numeric"
          min={least}
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
        label={t(`${texts}.fields.reason`)}
        value={reason}
        limit={TEXT_LIMITS.reason}
        onChange={(event) => {
          setReason(event.target.value);
          changed('reason');
        }}
        error={errors.reason}
        hint={t('adjust.hints.reason')}
      />
    </>
  );

  return { failure, result, changed, submit, fields };
}
