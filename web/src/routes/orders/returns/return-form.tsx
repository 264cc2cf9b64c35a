import { TEXT_LIMITS } from '@domain/shared/limits';
import {
  createReturn,
  findReturnableOrder,
  ITEM_CONDITIONS,
  type ItemCondition,
  MAX_IMAGE_BYTES,
  MAX_IMAGES,
  RETURN_ACTIONS,
  type ReturnAction,
  type ReturnableOrder,
  uploadReturnImage,
} from '@web/api/returns';
import { ModalDialog } from '@web/components/modal-dialog';
import {
  FormMessage,
  fieldErrorsOf,
  messageOf,
  SelectField,
  TextAreaField,
  TextField,
} from '@web/shell/form';
import { type FormEvent, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * A new return (spec §3 "Return", §5): find the order by its number or tracking number, tick the items coming back
 * with how many and in what condition, choose return to stock or write off, the reason, the refund to the buyer,
 * whether shipping is included, the refund reason and the reversal item price, and attach photos. The server
 * checks spec §5 (at least one item; refund to buyer, include shipping and refund reason required) and answers in
 * the user's language; the form shows those answers beside the fields.
 */

interface Picked {
  selected: boolean;
  quantity: number;
  condition: ItemCondition;
}

export function ReturnForm({ onClose, onSaved }: { onClose(): void; onSaved(message: string): void }) {
  const { t } = useTranslation('returns');
  const lookupId = useId();
  const imagesId = useId();
  const includeName = useId();
  /** One key for this form: sending again after a timeout records the return once. */
  const idempotencyKey = useMemo(() => `return-${crypto.randomUUID()}`, []);
  const [query, setQuery] = useState('');
  const [finding, setFinding] = useState(false);
  const [order, setOrder] = useState<ReturnableOrder | null>(null);
  const [lookupError, setLookupError] = useState<string | null>(null);
  const [picked, setPicked] = useState<Record<string, Picked>>({});
  const [action, setAction] = useState<ReturnAction>('return_to_stock');
  const [reason, setReason] = useState('');
  const [refund, setRefund] = useState('');
  const [includeShipping, setIncludeShipping] = useState<boolean | null>(null);
  const [refundReason, setRefundReason] = useState('');
  const [reversal, setReversal] = useState('');
  const [images, setImages] = useState<{ id: string; name: string }[]>([]);
  const [uploading, setUploading] = useState(false);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const fields = fieldErrorsOf(error);

  async function find(event: FormEvent) {
    event.preventDefault();
    if (!query.trim()) return;
    setFinding(true);
    setLookupError(null);
    try {
      const found = await findReturnableOrder(query.trim());
      setOrder(found);
      setPicked(
        Object.fromEntries(
          found.lines.map((line) => [
            line.line_id,
            { selected: false, quantity: line.quantity, condition: 'reusable' },
          ]),
        ),
      );
    } catch (failure) {
      setOrder(null);
      setLookupError(messageOf(failure));
    } finally {
      setFinding(false);
    }
  }

  async function attach(files: FileList | null) {
    if (!files) return;
    setUploading(true);
    try {
      for (const file of [...files].slice(0, MAX_IMAGES - images.length)) {
        if (file.size > MAX_IMAGE_BYTES) {
          setError(new Error(t('form.image_too_large', { name: file.name })));
          continue;
        }
        const answer = await uploadReturnImage(file);
        setImages((current) => [...current, { id: answer.data.id, name: file.name }]);
      }
    } catch (failure) {
      setError(failure);
    } finally {
      setUploading(false);
    }
  }

  async function submit() {
    if (!order) return;
    setSaving(true);
    setError(null);
    try {
      const answer = await createReturn(
        {
          order_id: order.order_id,
          lines: order.lines
            .filter((line) => picked[line.line_id]?.selected)
            .map((line) => ({
              line_id: line.line_id,
              quantity: picked[line.line_id]!.quantity,
              condition: picked[line.line_id]!.condition,
            })),
          action,
          reason,
          refund_to_buyer: refund,
          include_shipping: includeShipping,
          refund_reason: refundReason,
          reversal_item_price: reversal.trim() || null,
          images: images.map((image) => image.id),
        },
        idempotencyKey,
      );
      onSaved(answer.msg);
    } catch (failure) {
      setError(failure);
    } finally {
      setSaving(false);
    }
  }

  const update = (lineId: string, change: Partial<Picked>) =>
    setPicked((current) => ({ ...current, [lineId]: { ...current[lineId]!, ...change } }));

  return (
    <ModalDialog
      title={t('form.title')}
      onClose={onClose}
      closeLabel={t('form.close')}
      size="large"
      footer={
        <>
          <button type="button" className="button" onClick={onClose}>
            {t('form.cancel')}
          </button>
          <button
            type="button"
            className="button button-primary"
            disabled={!order?.returnable || saving || uploading}
            onClick={submit}
          >
            {t('form.save')}
          </button>
        </>
      }
    >
      <form className="return-lookup" onSubmit={find}>
        <label htmlFor={lookupId} className="field-label">
          {t('form.lookup')}
        </label>
        <div className="return-lookup-row">
          <input
            id={lookupId}
            className="input"
            value={query}
            placeholder={t('form.lookup_placeholder')}
            onChange={(event) => setQuery(event.target.value)}
          />
          <button type="submit" className="button" disabled={finding || !query.trim()}>
            {t('form.find')}
          </button>
        </div>
      </form>
      {lookupError && <FormMessage kind="error">{lookupError}</FormMessage>}
      {order && (
        <div className="return-form">
          <p>
            {t('form.order_summary', {
              order: order.order_number,
              tracking: order.tracking_number ?? '—',
              status: t(`statuses.${order.status}`, { defaultValue: order.status }),
            })}
          </p>
          {!order.returnable && (
            <FormMessage kind="error">
              {order.return_id ? t('form.already_returned') : t('form.not_shipped')}
            </FormMessage>
          )}
          {error !== null && <FormMessage kind="error">{messageOf(error)}</FormMessage>}
          <table className="return-lines">
            <caption className="visually-hidden">{t('form.items')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('form.columns.select')}</th>
                <th scope="col">{t('form.columns.item')}</th>
                <th scope="col">{t('form.columns.quantity')}</th>
                <th scope="col">{t('form.columns.condition')}</th>
              </tr>
            </thead>
            <tbody>
              {order.lines.map((line) => {
                const state = picked[line.line_id]!;
                const label = `${line.seller_sku || line.sku} ${line.name}${line.variation ? ` (${line.variation})` : ''}`;
                return (
                  <tr key={line.line_id}>
                    <td>
                      <input
                        type="checkbox"
                        checked={state.selected}
                        aria-label={t('form.select_item', { item: label })}
                        onChange={(event) => update(line.line_id, { selected: event.target.checked })}
                      />
                    </td>
                    <td>
                      {label}
                      {!line.mapped && <span className="badge">{t('form.unmapped')}</span>}
                    </td>
                    <td>
                      <input
                        type="number"
                        className="input return-quantity"
                        min={1}
                        max={line.quantity}
                        value={state.quantity}
                        aria-label={t('form.quantity_of', { item: label, max: line.quantity })}
                        onChange={(event) => update(line.line_id, { quantity: Number(event.target.value) })}
                      />
                    </td>
                    <td>
                      <select
                        className="input"
                        value={state.condition}
                        aria-label={t('form.condition_of', { item: label })}
                        onChange={(event) =>
                          update(line.line_id, { condition: event.target.value as ItemCondition })
                        }
                      >
                        {ITEM_CONDITIONS.map((condition) => (
                          <option key={condition} value={condition}>
                            {t(`conditions.${condition}`)}
                          </option>
                        ))}
                      </select>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          {fields.lines && <p className="field-error">{fields.lines}</p>}
          <div className="form-grid">
            <SelectField
              label={t('form.action')}
              required
              value={action}
              onChange={(event) => setAction(event.target.value as ReturnAction)}
              options={RETURN_ACTIONS.map((value) => ({ value, label: t(`actions.${value}`) }))}
              error={fields.action}
            />
            <TextField
              label={t('form.refund_to_buyer', { currency: order.currency })}
              required
              inputMode="decimal"
              value={refund}
              onChange={(event) => setRefund(event.target.value)}
              error={fields.refund_to_buyer}
            />
            <fieldset className={`field ${fields.include_shipping ? 'field-invalid' : ''}`}>
              <legend className="field-label">
                {t('form.include_shipping')}
                <span className="required-mark" aria-hidden="true">
                  *
                </span>
              </legend>
              {[true, false].map((value) => (
                <label key={String(value)} className="check-label">
                  <input
                    type="radio"
                    name={includeName}
                    checked={includeShipping === value}
                    onChange={() => setIncludeShipping(value)}
                  />
                  {value ? t('form.yes') : t('form.no')}
                </label>
              ))}
              {fields.include_shipping && <p className="field-error">{fields.include_shipping}</p>}
            </fieldset>
            <TextField
              label={t('form.reversal_item_price')}
              inputMode="decimal"
              value={reversal}
              hint={t('form.reversal_hint')}
              onChange={(event) => setReversal(event.target.value)}
              error={fields.reversal_item_price}
            />
          </div>
          <TextField
            label={t('form.refund_reason')}
            required
            limit={TEXT_LIMITS.reason}
            value={refundReason}
            onChange={(event) => setRefundReason(event.target.value)}
            error={fields.refund_reason}
          />
          <TextAreaField
            label={t('form.reason')}
            limit={TEXT_LIMITS.reason}
            rows={2}
            value={reason}
            onChange={(event) => setReason(event.target.value)}
            error={fields.reason}
          />
          <div className="field">
            <label htmlFor={imagesId} className="field-label">
              {t('form.images', { max: MAX_IMAGES })}
            </label>
            <input
              id={imagesId}
              type="file"
              accept="image/png,image/jpeg,image/webp"
              multiple
              disabled={uploading || images.length >= MAX_IMAGES}
              onChange={(event) => {
                void attach(event.target.files);
                event.target.value = '';
              }}
            />
            <p className="field-hint">{t('form.images_hint')}</p>
            {images.length > 0 && (
              <ul className="return-images">
                {images.map((image) => (
                  <li key={image.id}>
                    {image.name}{' '}
                    <button
                      type="button"
                      className="button-link"
                      onClick={() => setImages((current) => current.filter((entry) => entry.id !== image.id))}
                    >
                      {t('form.remove_image', { name: image.name })}
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </div>
        </div>
      )}
    </ModalDialog>
  );
}
