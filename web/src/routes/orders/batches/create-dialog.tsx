import { type BatchSplit, type BatchType, PREFIX_MAX } from '@domain/batches/batch';
import { TEXT_LIMITS } from '@domain/shared/limits';
import {
  BATCH_SPLITS,
  BATCH_TYPES,
  DEFAULT_DIGITS,
  DEFAULT_MAX_ORDERS,
  DEFAULT_PREFIX,
  useCreateBatches,
  usePickers,
} from '@web/api/batches';
import { ModalDialog } from '@web/components/modal-dialog';
import { FormMessage, fieldErrorsOf, messageOf, SelectField, TextField } from '@web/shell/form';
import { useNotify } from '@web/shell/notifications';
import { type FormEvent, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { WaitingOrdersTable } from './waiting-orders';

/**
 * "Create batch": the orders waiting for a batch of the chosen type (pre-orders for a pre-order batch), ticked one by
 * one or all at once, and the batch's settings — name, prefix and leading-zero padding of its number, picker, the
 * most orders per batch and the split by logistics or payment method (one batch per group). The server may make
 * several batches of the selection; each gets the next number. The same form is the /orders/new-batch page
 * (`layout="page"`, issue 14), for those who make batches without opening the list first.
 */
export function CreateBatchDialog({
  onClose,
  onCreated,
  layout = 'dialog',
}: {
  onClose(): void;
  onCreated(ids: string[]): void;
  layout?: 'dialog' | 'page';
}) {
  const { t } = useTranslation('batches');
  const notify = useNotify();
  const formId = useId();
  const [type, setType] = useState<BatchType>('normal');
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [name, setName] = useState('');
  const [prefix, setPrefix] = useState(DEFAULT_PREFIX);
  const [digits, setDigits] = useState(String(DEFAULT_DIGITS));
  const [maxOrders, setMaxOrders] = useState(String(DEFAULT_MAX_ORDERS));
  const [split, setSplit] = useState<BatchSplit>('none');
  const [pickerId, setPickerId] = useState('');
  const pickers = usePickers();
  const create = useCreateBatches();
  const errors = fieldErrorsOf(create.error);

  const pickerOptions = useMemo(
    () => (pickers.data ?? []).map((picker) => ({ value: picker.id, label: picker.name })),
    [pickers.data],
  );

  function submit(event: FormEvent) {
    event.preventDefault();
    create.mutate(
      {
        order_ids: [...selected],
        type,
        ...(name.trim() ? { name: name.trim() } : {}),
        prefix,
        digits: Number(digits),
        max_orders: Number(maxOrders),
        split,
        picker_id: pickerId || null,
      },
      {
        onSuccess: (answer) => {
          notify({ kind: 'success', message: answer.msg });
          onCreated(answer.data.batches.map((batch) => batch.id));
        },
      },
    );
  }

  const footer = (
    <>
      <span className="muted batch-selected">{t('create.selected', { count: selected.size })}</span>
      <button type="button" className="button button-secondary" onClick={onClose}>
        {t('actions.cancel')}
      </button>
      <button type="submit" form={formId} className="button button-primary" disabled={create.isPending}>
        {t('create.submit')}
      </button>
    </>
  );
  const form = (
    <form id={formId} aria-label={t('create.title')} onSubmit={submit} noValidate>
      {create.error && <FormMessage kind="error">{messageOf(create.error)}</FormMessage>}
      <div className="batch-form-grid">
        <SelectField
          label={t('fields.type')}
          value={type}
          onChange={(event) => {
            setType(event.target.value as BatchType);
            setSelected(new Set());
          }}
          options={BATCH_TYPES.map((value) => ({ value, label: t(`type.${value}`) }))}
        />
        <TextField
          label={t('fields.name')}
          value={name}
          limit={TEXT_LIMITS.name}
          placeholder={t('fields.name_placeholder')}
          error={errors.name}
          onChange={(event) => setName(event.target.value)}
        />
        <TextField
          label={t('fields.prefix')}
          value={prefix}
          limit={PREFIX_MAX}
          error={errors.prefix}
          onChange={(event) => setPrefix(event.target.value)}
        />
        <TextField
          label={t('fields.digits')}
          type="number"
          min={1}
          max={10}
          value={digits}
          error={errors.digits}
          hint={t('fields.digits_hint', { example: `${prefix}${'1'.padStart(Number(digits) || 1, '0')}` })}
          onChange={(event) => setDigits(event.target.value)}
        />
        <TextField
          label={t('fields.max_orders')}
          type="number"
          min={1}
          max={1000}
          value={maxOrders}
          error={errors.max_orders}
          onChange={(event) => setMaxOrders(event.target.value)}
        />
        <SelectField
          label={t('fields.split')}
          value={split}
          onChange={(event) => setSplit(event.target.value as BatchSplit)}
          options={BATCH_SPLITS.map((value) => ({ value, label: t(`split.${value}`) }))}
        />
        <SelectField
          label={t('fields.picker')}
          value={pickerId}
          placeholder={t('fields.no_picker')}
          onChange={(event) => setPickerId(event.target.value)}
          options={pickerOptions}
        />
      </div>
      <WaitingOrdersTable type={type} selected={selected} onChange={setSelected} />
    </form>
  );
  if (layout === 'page')
    return (
      <section className="card">
        {form}
        <div className="form-row-end">{footer}</div>
      </section>
    );
  return (
    <ModalDialog
      title={t('create.title')}
      onClose={onClose}
      closeLabel={t('actions.close_dialog')}
      size="large"
      footer={footer}
    >
      {form}
    </ModalDialog>
  );
}
