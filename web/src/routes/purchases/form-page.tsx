import { TEXT_LIMITS } from '@domain/shared/limits';
import {
  type MasterCodeOption,
  newIdempotencyKey,
  QUANTITY_MAX,
  useCreatePurchase,
  useMasterCodeOptions,
  usePlaceOptions,
} from '@web/api/purchases';
import { useSupplierOptions } from '@web/api/suppliers';
import { FormMessage, fieldErrorsOf, messageOf, SelectField, TextField } from '@web/shell/form';
import { useMoney } from '@web/shell/format';
import { useNotify } from '@web/shell/notifications';
import { PageHeader } from '@web/shell/page';
import { useDebounced } from '@web/shell/use-debounced';
import { type FormEvent, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import '@web/routes/management.css';

/**
 * Purchases → add: a purchase order to a supplier — supplier, the warehouse to deliver to, date, estimated arrival,
 * reference, discount, note — and its items (standard master codes, a quantity of at least 1 and a unit cost of 0
 * or more each). Saved as a draft, or placed at once (ordered, or pending approval when the account requires it).
 * The request carries an idempotency key made when the form opens, so a double click creates one order.
 */

interface Line {
  masterCode: MasterCodeOption;
  quantity: string;
  unitCost: string;
}

const today = () => new Date().toISOString().slice(0, 10);

/** Search and add master codes to the order (each at most once). */
function ItemSearch({ onPick, taken }: { onPick(item: MasterCodeOption): void; taken: ReadonlySet<string> }) {
  const { t } = useTranslation('purchases');
  const id = useId();
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const search = useDebounced(text.trim());
  const options = useMasterCodeOptions(search);
  const matches = (options.data ?? []).filter((item) => !taken.has(item.id));
  return (
    <div className="field purchase-picker">
      <label htmlFor={id} className="field-label">
        {t('form.add_item')}
      </label>
      <input
        id={id}
        className="input"
        type="search"
        autoComplete="off"
        aria-describedby={`${id}-hint`}
        placeholder={t('form.add_item_placeholder')}
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
      />
      <p id={`${id}-hint`} className="visually-hidden">
        {t('form.add_item_hint')}
      </p>
      {open && matches.length > 0 && (
        <div className="purchase-picker-list">
          {matches.map((item) => (
            <button
              key={item.id}
              type="button"
              className="purchase-picker-option"
              onClick={() => {
                onPick(item);
                setText('');
                setOpen(false);
              }}
            >
              {item.code} — {item.name}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}

export default function PurchaseFormPage() {
  const { t } = useTranslation('purchases');
  const notify = useNotify();
  const navigate = useNavigate();
  const money = useMoney();
  const suppliers = useSupplierOptions();
  const places = usePlaceOptions();
  const create = useCreatePurchase();
  const key = useRef(newIdempotencyKey());
  const [supplierId, setSupplierId] = useState('');
  const [warehouseId, setWarehouseId] = useState('');
  const [date, setDate] = useState(today());
  const [arrival, setArrival] = useState('');
  const [reference, setReference] = useState('');
  const [discount, setDiscount] = useState('0');
  const [note, setNote] = useState('');
  const [lines, setLines] = useState<Line[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const taken = useMemo(() => new Set(lines.map((line) => line.masterCode.id)), [lines]);
  const subtotal = lines.reduce(
    (sum, line) => sum + (Number(line.quantity) || 0) * (Number(line.unitCost) || 0),
    0,
  );

  const warehouse = warehouseId || places.data?.[0]?.id || '';

  function update(index: number, change: Partial<Line>) {
    setLines((current) => current.map((line, at) => (at === index ? { ...line, ...change } : line)));
  }

  async function submit(place: boolean, event?: FormEvent) {
    event?.preventDefault();
    if (create.isPending) return;
    setError(null);
    // Every problem at once, each beside its field, never one per submit.
    const found: Record<string, string> = {};
    if (!supplierId) found.supplier_id = t('form.errors.supplier');
    if (!warehouse) found.warehouse_id = t('form.errors.warehouse');
    if (lines.length === 0) found.items = t('form.errors.items');
    setFieldErrors(found);
    if (Object.keys(found).length > 0) return;
    try {
      const answer = await create.mutateAsync({
        reference: reference.trim(),
        date,
        supplier_id: supplierId,
        warehouse_id: warehouse,
        items: lines.map((line) => ({
          master_code_id: line.masterCode.id,
          quantity: Number(line.quantity),
          unit_cost: line.unitCost.trim() || '0',
        })),
        discount: discount.trim() || '0',
        estimated_arrival: arrival || null,
        note: note.trim(),
        place,
        idempotency_key: key.current,
      });
      notify({ kind: 'success', message: answer.msg });
      navigate(`/purchases/detail/${answer.data.id}`);
    } catch (failure) {
      const fields = fieldErrorsOf(failure);
      setFieldErrors(fields);
      // The summary above the form says what no field shows.
      setError(Object.keys(fields).length > 0 ? t('form.errors.fix_fields') : messageOf(failure));
      // A refused request created nothing: the next try is a new request.
      key.current = newIdempotencyKey();
    }
  }

  return (
    <div className="page management-page purchase-page">
      <p>
        <Link to="/purchases/list">{t('detail.back')}</Link>
      </p>
      <PageHeader title={t('form.title')} intro={t('form.intro')} />
      <form
        className="form card"
        noValidate
        onSubmit={(event) => submit(false, event)}
        aria-label={t('form.title')}
      >
        {error && <FormMessage kind="error">{error}</FormMessage>}
        <div className="purchase-grid">
          <SelectField
            label={t('form.supplier')}
            required
            value={supplierId}
            placeholder={t('form.choose_supplier')}
            options={(suppliers.data ?? []).map((supplier) => ({
              value: supplier.id,
              label: supplier.code ? `${supplier.code} — ${supplier.name}` : supplier.name,
            }))}
            onChange={(event) => setSupplierId(event.target.value)}
            error={fieldErrors.supplier_id}
            hint={
              suppliers.data?.length === 0 ? (
                <Link to="/purchases/supplier">{t('form.no_supplier')}</Link>
              ) : undefined
            }
          />
          <SelectField
            label={t('form.warehouse')}
            required
            value={warehouse}
            options={(places.data ?? []).map((place) => ({
              value: place.id,
              label: `${place.code} — ${place.name}`,
            }))}
            onChange={(event) => setWarehouseId(event.target.value)}
            error={fieldErrors.warehouse_id}
          />
          <TextField
            label={t('form.date')}
            type="date"
            required
            value={date}
            onChange={(event) => setDate(event.target.value)}
            error={fieldErrors.date}
          />
          <TextField
            label={t('form.estimated_arrival')}
            type="date"
            value={arrival}
            min={date}
            onChange={(event) => setArrival(event.target.value)}
            error={fieldErrors.estimated_arrival}
          />
          <TextField
            label={t('form.reference')}
            value={reference}
            limit={TEXT_LIMITS.reference}
            onChange={(event) => setReference(event.target.value)}
            error={fieldErrors.reference}
          />
          <TextField
            label={t('form.discount')}
            inputMode="decimal"
            value={discount}
            onChange={(event) => setDiscount(event.target.value)}
            error={fieldErrors.discount}
          />
        </div>
        <ItemSearch
          taken={taken}
          onPick={(item) =>
            setLines((current) => [
              ...current,
              { masterCode: item, quantity: '1', unitCost: String(Number(item.cost)) },
            ])
          }
        />
        {fieldErrors.items && <FormMessage kind="error">{fieldErrors.items}</FormMessage>}
        <table className="purchase-table" aria-label={t('form.items')}>
          <thead>
            <tr>
              <th scope="col">{t('lines.item')}</th>
              <th scope="col" className="number">
                {t('lines.quantity')}
              </th>
              <th scope="col" className="number">
                {t('lines.unit_cost')}
              </th>
              <th scope="col" className="number">
                {t('lines.line_total')}
              </th>
              <th scope="col">
                <span className="visually-hidden">{t('form.remove')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {lines.length === 0 && (
              <tr>
                <td colSpan={5} className="muted">
                  {t('form.no_items')}
                </td>
              </tr>
            )}
            {lines.map((line, index) => (
              <tr key={line.masterCode.id}>
                <td>
                  {line.masterCode.code} — {line.masterCode.name}
                </td>
                <td>
                  <input
                    className="input number"
                    type="number"
                    min={1}
                    max={QUANTITY_MAX}
                    step={1}
                    aria-label={t('form.quantity_of', { code: line.masterCode.code })}
                    value={line.quantity}
                    onChange={(event) => update(index, { quantity: event.target.value })}
                  />
                </td>
                <td>
                  <input
                    className="input number"
                    inputMode="decimal"
                    aria-label={t('form.unit_cost_of', { code: line.masterCode.code })}
                    value={line.unitCost}
                    onChange={(event) => update(index, { unitCost: event.target.value })}
                  />
                </td>
                <td className="number">
                  {money((Number(line.quantity) || 0) * (Number(line.unitCost) || 0))}
                </td>
                <td>
                  <button
                    type="button"
                    className="button button-secondary"
                    aria-label={t('form.remove_named', { code: line.masterCode.code })}
                    onClick={() => setLines((current) => current.filter((_, at) => at !== index))}
                  >
                    {t('form.remove')}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <dl className="purchase-totals">
          <dt>{t('detail.subtotal')}</dt>
          <dd>{money(subtotal)}</dd>
          <dt>{t('detail.discount')}</dt>
          <dd>{money(Number(discount) || 0)}</dd>
          <dt>{t('detail.total')}</dt>
          <dd>{money(subtotal - (Number(discount) || 0))}</dd>
        </dl>
        <TextField
          label={t('form.note')}
          value={note}
          limit={TEXT_LIMITS.note}
          onChange={(event) => setNote(event.target.value)}
        />
        <div className="form-row-end purchase-actions">
          <button type="submit" className="button button-secondary" disabled={create.isPending}>
            {t('form.save_draft')}
          </button>
          <button
            type="button"
            className="button button-primary"
            disabled={create.isPending}
            onClick={() => submit(true)}
          >
            {t('form.place')}
          </button>
        </div>
      </form>
    </div>
  );
}
