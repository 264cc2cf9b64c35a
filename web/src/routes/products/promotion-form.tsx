import {
  type ChannelSkuRow,
  useChannelSkus,
  useCreatePromotion,
  usePromotionStores,
} from '@web/api/promotions';
import { ModalDialog } from '@web/components/modal-dialog';
import { FormMessage, fieldErrorsOf, messageOf, SelectField, TextField } from '@web/shell/form';
import { useNotify } from '@web/shell/notifications';
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * What the discount and gift forms share: the store, the name and the period (§5: all required, the start later
 * than now, the end at least an hour after it — the server says which rule is broken, by field), the store's SKUs
 * for the pickers, and the dialog that sends the body and shows the server's refusals.
 */

export interface Period {
  storeId: string;
  name: string;
  start: string;
  end: string;
}

/** A datetime-local value (the browser's zone) as an instant; '' stays '' so the server names it missing. */
const instantOf = (local: string) => (local ? new Date(local).toISOString() : '');

export const periodBody = (period: Period) => ({
  store_id: period.storeId,
  name: period.name,
  start_at: instantOf(period.start),
  end_at: instantOf(period.end),
});

export const skuLabel = (sku: ChannelSkuRow) =>
  [sku.seller_sku, sku.item_name, sku.model_name].filter(Boolean).join(' · ');

export function PeriodFields({
  period,
  onChange,
  errors,
}: {
  period: Period;
  onChange(period: Period): void;
  errors: Record<string, string>;
}) {
  const { t } = useTranslation('promotions');
  const stores = usePromotionStores();
  const set = (field: keyof Period) => (event: { target: { value: string } }) =>
    onChange({ ...period, [field]: event.target.value });
  return (
    <div className="form-grid">
      <SelectField
        label={t('form.store')}
        required
        value={period.storeId}
        onChange={set('storeId')}
        placeholder={t('form.choose_store')}
        options={(stores.data ?? []).map((store) => ({ value: store.id, label: store.name }))}
        error={errors.store_id}
      />
      <TextField
        label={t('form.name')}
        required
        value={period.name}
        onChange={set('name')}
        error={errors.name}
      />
      <TextField
        label={t('form.start')}
        type="datetime-local"
        required
        value={period.start}
        onChange={set('start')}
        error={errors.start_at}
      />
      <TextField
        label={t('form.end')}
        type="datetime-local"
        required
        value={period.end}
        onChange={set('end')}
        error={errors.end_at}
        hint={t('form.end_hint')}
      />
    </div>
  );
}

/** The store's SKUs, once a store is chosen. */
export function useStoreSkus(storeId: string): ChannelSkuRow[] {
  return useChannelSkus(storeId).data ?? [];
}

export function PromotionDialog({
  title,
  children,
  onClose,
  onSaved,
  send,
}: {
  title: string;
  children(errors: Record<string, string>): ReactNode;
  onClose(): void;
  onSaved(): void;
  send(): Parameters<ReturnType<typeof useCreatePromotion>['mutateAsync']>[0];
}) {
  const { t } = useTranslation('promotions');
  const notify = useNotify();
  const formId = useId();
  const create = useCreatePromotion();
  const [refused, setRefused] = useState<unknown>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setRefused(null);
    try {
      const answer = await create.mutateAsync(send());
      notify({ kind: 'success', message: answer.msg });
      onSaved();
      onClose();
    } catch (error) {
      setRefused(error);
    }
  }

  return (
    <ModalDialog
      title={title}
      onClose={onClose}
      closeLabel={t('actions.close')}
      size="large"
      footer={
        <>
          <button
            type="button"
            className="button button-secondary"
            onClick={onClose}
            disabled={create.isPending}
          >
            {t('actions.close')}
          </button>
          <button type="submit" form={formId} className="button button-primary" disabled={create.isPending}>
            {t('actions.create')}
          </button>
        </>
      }
    >
      <form id={formId} onSubmit={submit} noValidate aria-label={title}>
        {refused !== null && <FormMessage kind="error">{messageOf(refused)}</FormMessage>}
        {children(fieldErrorsOf(refused))}
      </form>
    </ModalDialog>
  );
}
