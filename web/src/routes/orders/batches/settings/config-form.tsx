import type { AutoBatchConfigAnswer, AutoBatchConfigBody } from '@api/contracts/batches';
import { type BatchSplit, type BatchType, PREFIX_MAX } from '@domain/batches/batch';
import { PLATFORMS } from '@domain/orders/marketplace-order';
import { TEXT_LIMITS } from '@domain/shared/limits';
import { useQuery } from '@tanstack/react-query';
import {
  BATCH_SPLITS,
  BATCH_TYPES,
  DEFAULT_DIGITS,
  DEFAULT_PREFIX,
  useSaveAutoBatchConfig,
} from '@web/api/batches';
import { apiData } from '@web/api/client';
import { ModalDialog } from '@web/components/modal-dialog';
import {
  CheckboxField,
  FormMessage,
  fieldErrorsOf,
  messageOf,
  SelectField,
  TextField,
} from '@web/shell/form';
import { useNotify } from '@web/shell/notifications';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** The stores the account has orders of (the order board's store list), for the extra condition. */
function useStoreOptions() {
  return useQuery({
    queryKey: ['batches', 'stores'],
    queryFn: () =>
      apiData<{ store_id: string; name: string | null; platform: string }[]>('/api/orders/stores'),
    staleTime: 60_000,
  });
}

/** Add or change an auto batch configuration (spec §3 "Auto batch"; §9 every 1 or 2 hours). */
export function ConfigForm({
  config,
  onClose,
  onSaved,
}: {
  config: AutoBatchConfigAnswer | null;
  onClose(): void;
  onSaved(): void;
}) {
  const { t } = useTranslation('batches');
  const notify = useNotify();
  const formId = useId();
  const save = useSaveAutoBatchConfig();
  const stores = useStoreOptions();
  const [form, setForm] = useState<AutoBatchConfigBody>(
    config
      ? {
          name: config.name,
          active: config.active,
          // A saved configuration runs every 1 or 2 hours: the answer says so as a number.
          interval_hours: config.interval_hours as AutoBatchConfigBody['interval_hours'],
          start_time: config.start_time,
          end_time: config.end_time,
          max_orders: config.max_orders,
          split: config.split,
          type: config.type,
          condition: config.condition as AutoBatchConfigBody['condition'],
          prefix: config.prefix,
          digits: config.digits,
        }
      : {
          name: '',
          active: true,
          interval_hours: 1,
          start_time: '09:00',
          end_time: '18:00',
          max_orders: 50,
          split: 'none',
          type: 'normal',
          condition: { store_ids: [], platforms: [] },
          prefix: DEFAULT_PREFIX,
          digits: DEFAULT_DIGITS,
        },
  );
  const errors = fieldErrorsOf(save.error);
  const set = <K extends keyof AutoBatchConfigBody>(key: K, value: AutoBatchConfigBody[K]) =>
    setForm((current) => ({ ...current, [key]: value }));
  const toggleIn = <Value extends string>(list: Value[], value: Value) =>
    list.includes(value) ? list.filter((item) => item !== value) : [...list, value];

  function submit(event: FormEvent) {
    event.preventDefault();
    save.mutate(
      { id: config?.id ?? null, body: form },
      {
        onSuccess: (answer) => {
          notify({ kind: 'success', message: answer.msg });
          onSaved();
        },
      },
    );
  }

  const title = config ? t('settings.edit_title') : t('settings.add_title');
  return (
    <ModalDialog
      title={title}
      onClose={onClose}
      closeLabel={t('actions.close_dialog')}
      footer={
        <>
          <button type="button" className="button button-secondary" onClick={onClose}>
            {t('actions.cancel')}
          </button>
          <button type="submit" form={formId} className="button button-primary" disabled={save.isPending}>
            {t('actions.save')}
          </button>
        </>
      }
    >
      <form id={formId} aria-label={title} onSubmit={submit} noValidate>
        {save.error && <FormMessage kind="error">{messageOf(save.error)}</FormMessage>}
        <TextField
          label={t('fields.name')}
          value={form.name}
          limit={TEXT_LIMITS.name}
          error={errors.name}
          onChange={(event) => set('name', event.target.value)}
        />
        <CheckboxField
          label={t('settings.columns.active')}
          checked={form.active}
          onChange={(event) => set('active', event.target.checked)}
        />
        <div className="batch-form-grid">
          <SelectField
            label={t('settings.interval')}
            value={String(form.interval_hours)}
            onChange={(event) => set('interval_hours', Number(event.target.value) as 1 | 2)}
            options={[1, 2].map((hours) => ({ value: String(hours), label: t('settings.every', { hours }) }))}
            error={errors.interval_hours}
          />
          <TextField
            label={t('settings.start_time')}
            type="time"
            value={form.start_time}
            error={errors.start_time}
            onChange={(event) => set('start_time', event.target.value)}
          />
          <TextField
            label={t('settings.end_time')}
            type="time"
            value={form.end_time}
            error={errors.end_time}
            onChange={(event) => set('end_time', event.target.value)}
          />
          <TextField
            label={t('fields.max_orders')}
            type="number"
            min={1}
            max={1000}
            value={String(form.max_orders)}
            error={errors.max_orders}
            onChange={(event) => set('max_orders', Number(event.target.value))}
          />
          <SelectField
            label={t('fields.split')}
            value={form.split}
            onChange={(event) => set('split', event.target.value as BatchSplit)}
            options={BATCH_SPLITS.map((value) => ({ value, label: t(`split.${value}`) }))}
          />
          <SelectField
            label={t('fields.type')}
            value={form.type}
            onChange={(event) => set('type', event.target.value as BatchType)}
            options={BATCH_TYPES.map((value) => ({ value, label: t(`type.${value}`) }))}
          />
          <TextField
            label={t('fields.prefix')}
            value={form.prefix}
            limit={PREFIX_MAX}
            error={errors.prefix}
            onChange={(event) => set('prefix', event.target.value)}
          />
          <TextField
            label={t('fields.digits')}
            type="number"
            min={1}
            max={10}
            value={String(form.digits)}
            error={errors.digits}
            onChange={(event) => set('digits', Number(event.target.value))}
          />
        </div>
        <fieldset className="batch-condition">
          <legend>{t('settings.condition')}</legend>
          <p className="field-hint">{t('settings.condition_hint')}</p>
          <div className="batch-checks">
            {PLATFORMS.map((platform) => (
              <CheckboxField
                key={platform}
                label={t(`platforms.${platform}`)}
                checked={form.condition.platforms.includes(platform)}
                onChange={() =>
                  set('condition', {
                    ...form.condition,
                    platforms: toggleIn(form.condition.platforms, platform),
                  })
                }
              />
            ))}
          </div>
          {(stores.data ?? []).length > 0 && (
            <div className="batch-checks">
              {(stores.data ?? []).map((store) => (
                <CheckboxField
                  key={store.store_id}
                  label={store.name ?? store.store_id}
                  checked={form.condition.store_ids.includes(store.store_id)}
                  onChange={() =>
                    set('condition', {
                      ...form.condition,
                      store_ids: toggleIn(form.condition.store_ids, store.store_id),
                    })
                  }
                />
              ))}
            </div>
          )}
        </fieldset>
      </form>
    </ModalDialog>
  );
}
